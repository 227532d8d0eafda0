// module_global_in_kernel: a kernel reads a module-level global that
// upstream Triton's global lookup (python/triton/compiler/code_generator.py,
// `global_lookup`) refuses: a plain Python value, or the annotation form
// `X: tl.constexpr = 7`. In a vendor backend folder the file is compiled by
// that vendor's fork, built on an older Triton that reads such globals; the
// finding names that rule (and `--target-compiler fork` drops it there).
#include "../SurveyRules.h"

namespace tilexform::source::detail::rules {

namespace {

std::string forkRuleOf(const std::string &vendor) {
  return "the " + vendor + " backend folder is compiled by the " + vendor +
         " Triton fork, built on an older Triton that reads module globals";
}

std::string problem(const std::string &name, const ModuleGlobal &g) {
  std::string line = std::to_string(g.line);
  return g.kind == GlobalKind::AnnotatedConstexpr
             ? "module-level global '" + name + "' (line " + line +
                   ") is annotated `: tl.constexpr`, which upstream Triton does not support for "
                   "globals"
             : "module-level global '" + name + "' (line " + line +
                   ") holds a plain Python value, which upstream Triton refuses in a kernel "
                   "since 3.6";
}

} // namespace

void moduleGlobalInKernel(FileAnalysis &file, KernelInfo &k, const Scope &scope) {
  // First use of each refused global, and whether every use sits in a branch
  // the compiler chooses per launch (a constexpr test: `if dtype is tl.int64:`).
  struct Use {
    const Node *at = nullptr;
    bool chosen = true;
  };
  std::map<std::string, Use> uses;
  for (Node *st : k.def->body)
    traverse(st, [&](Node *n, const std::vector<Node *> &ancestors) {
      if (isScope(n))
        return false;
      if (n->kind != K::Name || scope.params.count(n->text) || scope.locals.count(n->text))
        return true;
      auto g = file.globals().find(n->text);
      if (g == file.globals().end() ||
          (g->second.kind != GlobalKind::Value && g->second.kind != GlobalKind::AnnotatedConstexpr))
        return true;
      bool chosen = false;
      for (size_t i = 0; i < ancestors.size(); ++i)
        if (ancestors[i]->kind == K::If && file.isConstexpr(ancestors[i]->kids[0], scope) &&
            (i + 1 == ancestors.size() || ancestors[i + 1] != ancestors[i]->kids[0]))
          chosen = true;
      Use &u = uses[n->text];
      if (!u.at || n->line < u.at->line)
        u.at = n;
      u.chosen = u.chosen && chosen;
      return true;
    });
  std::string vendor = vendorBackendOf(file.module().file);
  auto add = [&](Finding f) {
    if (!vendor.empty()) {
      f.forkRule = forkRuleOf(vendor);
      f.message += " (judged against upstream; " + f.forkRule +
                   ": --target-compiler fork judges it by the fork)";
    }
    k.record.findings.push_back(std::move(f));
  };
  // Globals read only in branches chosen at compile time: each launch
  // compiles one branch, so they are one finding, not one per branch.
  std::vector<std::string> chosen;
  const Node *firstChosen = nullptr;
  for (auto &[name, use] : uses) {
    const ModuleGlobal &g = file.globals().at(name);
    if (use.chosen) {
      chosen.push_back(name);
      if (!firstChosen || use.at->line < firstChosen->line)
        firstChosen = use.at;
      continue;
    }
    add(file.finding("module_global_in_kernel", use.at, k.record.name,
                     problem(name, g) + ": reading it in the kernel is a NameError; " +
                         (g.kind == GlobalKind::AnnotatedConstexpr
                              ? "write " + name + " = tl.constexpr(...)"
                              : "pass it as a constexpr parameter or define it as " + name +
                                    " = tl.constexpr(...)")));
  }
  if (chosen.size() == 1) {
    const ModuleGlobal &g = file.globals().at(chosen[0]);
    add(file.finding("module_global_in_kernel", firstChosen, k.record.name,
                     problem(chosen[0], g) +
                         ": read in a branch chosen at compile time, it is a NameError in each "
                         "launch that compiles the branch; define it as " +
                         chosen[0] + " = tl.constexpr(...)"));
  } else if (!chosen.empty()) {
    std::string list;
    for (auto &n : chosen)
      list += (list.empty() ? "'" : ", '") + n + "'";
    const ModuleGlobal &g = file.globals().at(chosen[0]);
    add(file.finding(
        "module_global_in_kernel", firstChosen, k.record.name,
        "module-level globals " + list + " are " +
            (g.kind == GlobalKind::AnnotatedConstexpr ? "annotated `: tl.constexpr`"
                                                      : "plain Python values") +
            ", read in branches chosen at compile time: each launch compiles one branch, and "
            "upstream Triton refuses the global it reads (a NameError); define them as "
            "NAME = tl.constexpr(...)"));
  }
}

} // namespace tilexform::source::detail::rules
