// module_global_in_kernel: a kernel reads a module-level global that
// upstream Triton's global lookup (python/triton/compiler/code_generator.py,
// `global_lookup`) refuses: a plain Python value, or the annotation form
// `X: tl.constexpr = 7`. In a vendor backend folder the file is compiled by
// that vendor's fork, built on an older Triton that reads such globals; the
// finding names that rule (and `--target-compiler fork` drops it there).
#include "../SurveyRules.h"

namespace tilexform::source::detail::rules {

void moduleGlobalInKernel(FileAnalysis &file, KernelInfo &k, const Scope &scope) {
  std::map<std::string, const Node *> firstUse;
  walkBody(k.def->body, [&](Node *n) {
    if (n->kind != K::Name || scope.params.count(n->text) || scope.locals.count(n->text))
      return;
    auto g = file.globals().find(n->text);
    if (g == file.globals().end() ||
        (g->second.kind != GlobalKind::Value && g->second.kind != GlobalKind::AnnotatedConstexpr))
      return;
    auto &first = firstUse[n->text];
    if (!first || n->line < first->line)
      first = n;
  });
  std::string vendor = vendorBackendOf(file.module().file);
  for (auto &[name, use] : firstUse) {
    const ModuleGlobal &g = file.globals().at(name);
    std::string line = std::to_string(g.line);
    Finding f = file.finding(
        "module_global_in_kernel", use, k.record.name,
        g.kind == GlobalKind::AnnotatedConstexpr
            ? "module-level global '" + name + "' (line " + line +
                  ") is annotated `: tl.constexpr`, which upstream Triton does not support for "
                  "globals: reading it in the kernel is a NameError; write " +
                  name + " = tl.constexpr(...)"
            : "module-level global '" + name + "' (line " + line +
                  ") holds a plain Python value, read inside the kernel: a NameError in "
                  "upstream Triton since 3.6; pass it as a constexpr parameter or define it as " +
                  name + " = tl.constexpr(...)");
    if (!vendor.empty()) {
      f.forkRule = "backend/_" + vendor +
                   "/ is compiled by the " + vendor +
                   " Triton fork, built on an older Triton that reads module globals";
      f.message += " (judged against upstream; " + f.forkRule +
                   ": --target-compiler fork judges it by the fork)";
    }
    k.record.findings.push_back(std::move(f));
  }
}

} // namespace tilexform::source::detail::rules
