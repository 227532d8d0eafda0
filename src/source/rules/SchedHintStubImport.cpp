// sched_hint_stub_import: sched_barrier / sched_group_barrier / set_prio
// imported in a try whose except defines no-op stand-ins; where the import
// fails the schedule hints silently vanish.
#include "../SurveyRules.h"

namespace tilexform::source::detail::rules {

void schedHintStubImport(FileAnalysis &file) {
  static const std::set<std::string> schedHints = {"sched_barrier", "sched_group_barrier",
                                                   "set_prio"};
  walkAll(file.module().root, [&](Node *n) {
    if (n->kind != K::Try)
      return;
    std::set<std::string> imported;
    for (Node *s : n->body)
      if (s->kind == K::ImportFrom || s->kind == K::Import)
        for (Node *a : s->kids) {
          std::string bound = a->alias.empty() ? lastComponent(a->text) : a->alias;
          if (schedHints.count(lastComponent(a->text)))
            imported.insert(bound);
        }
    if (imported.empty())
      return;
    std::set<std::string> stubbed;
    for (Node *h : n->handlers)
      walkAll(h, [&](Node *m) {
        if (m->kind == K::FunctionDef && imported.count(m->text))
          stubbed.insert(m->text);
        if (m->kind == K::Assign)
          for (size_t i = 0; i + 1 < m->kids.size(); ++i)
            targetNames(m->kids[i], stubbed);
      });
    std::string list;
    for (auto &s : imported)
      if (stubbed.count(s))
        list += (list.empty() ? "" : ", ") + s;
    if (!list.empty())
      file.addFileFinding(file.finding(
          "sched_hint_stub_import", n, "",
          list + " imported in a try with a no-op fallback: where the import fails the "
                 "schedule hints silently vanish; import them unconditionally or fail loudly"));
  });
}

} // namespace tilexform::source::detail::rules
