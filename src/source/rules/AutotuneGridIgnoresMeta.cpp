// autotune_grid_ignores_meta: an autotuned kernel launched with a grid that
// reads, from the host, a parameter its configs tune instead of META[...]:
// every config then runs on the grid of one.
#include "../SurveyRules.h"

namespace tilexform::source::detail::rules {

void autotuneGridIgnoresMeta(FileAnalysis &file, Launch &launch) {
  KernelInfo &k = *launch.kernel;
  if (!k.record.autotuned)
    return;
  Node *root = file.module().root;
  const Node *g = launch.grid;
  if (g->kind == K::Name) {
    const Node *def = nullptr;
    walkAll(launch.scope, [&](Node *n) {
      if (n->line > launch.call->line)
        return;
      if (n->kind == K::Assign && n->kids[0]->kind == K::Name && n->kids[0]->text == g->text)
        def = n->kids.back();
      if (n->kind == K::FunctionDef && n->text == g->text && n != launch.scope)
        def = n;
    });
    if (!def && launch.scope != root)
      for (Node *s : root->body)
        if ((s->kind == K::Assign && s->kids[0]->kind == K::Name && s->kids[0]->text == g->text) ||
            (s->kind == K::FunctionDef && s->text == g->text))
          def = s->kind == K::Assign ? s->kids.back() : s;
    if (!def)
      return;
    g = def;
  }
  std::string param;
  std::vector<const Node *> names;
  std::set<std::string> locals; // a grid function's own variables (`bm = META["BM"]`)
  if (g->kind == K::Lambda || g->kind == K::FunctionDef) {
    if (!g->params.empty())
      param = g->params.front()->text;
    if (g->kind == K::Lambda)
      collectNames(g->kids[0], names);
    else
      for (Node *s : g->body) {
        collectNames(s, names);
        walkAll(s, [&](Node *n) {
          if (n->kind == K::Assign || n->kind == K::AnnAssign || n->kind == K::AugAssign ||
              n->kind == K::For)
            targetNames(n->kids[0], locals);
          if (n->kind == K::Assign)
            for (size_t i = 1; i + 1 < n->kids.size(); ++i)
              targetNames(n->kids[i], locals);
        });
      }
  } else {
    collectNames(g, names);
  }
  // Only a parameter the configs tune is wrong to read from the host: when
  // the configs tune no block size, the host's is the right one.
  std::set<std::string> fixed;
  for (const Node *n : names) {
    if (n->text == param || locals.count(n->text))
      continue;
    if (k.configs.keys.count(n->text))
      fixed.insert(n->text);
  }
  if (fixed.empty())
    return;
  std::string list;
  for (auto &f : fixed)
    list += (list.empty() ? "" : ", ") + f;
  k.record.findings.push_back(file.finding(
      "autotune_grid_ignores_meta", launch.call, k.record.name,
      "the grid of autotuned '" + k.record.name + "' reads host " + list +
          " instead of META['...']: every config then runs on one config's grid; write the "
          "grid as lambda META: (triton.cdiv(M, META['BLOCK_M']), ...)"));
}

} // namespace tilexform::source::detail::rules
