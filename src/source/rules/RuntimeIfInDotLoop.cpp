// runtime_if_in_dot_loop: a branch on a runtime value that holds loads or
// stores, inside a Triton loop the pipeliner pipelines and whose block holds
// one or two dot-like ops. That is the loop AMD's BlockPingpong
// (third_party/amd/lib/TritonAMDGPUTransforms/BlockPingpong.cpp) schedules,
// and it refuses one whose non-dot memory ops sit under a branch
// (estimateNonDotMemoryImpact). It does nothing for three or more dots, for
// an outer loop (never pipelined), or for Gluon (no pipeliner, no ping-pong),
// so those get no finding. A `==` test in a one-dot loop is the persistent
// GEMM's epilogue guard, which BlockPingpong assumes not taken.
#include "../SurveyRules.h"

#include <fmt/format.h>

namespace tilexform::source::detail::rules {

namespace {

/// The kinds of memory access a block makes (its own calls and those of the
/// @jit helpers it calls, one level deep), as a sorted list: "loads, stores".
std::set<std::string> memoryAccesses(FileAnalysis &file, const std::vector<Node *> &body,
                                     int depth = 0) {
  std::set<std::string> kinds;
  walkBody(body, [&](Node *n) {
    if (n->kind != K::Call)
      return;
    std::string r = file.imports().resolve(n->kids[0]);
    if (isMemoryAccess(r, n->kids[0])) {
      std::string last = lastComponent(r);
      kinds.insert(llvm::StringRef(last).contains("store")   ? "stores"
                   : llvm::StringRef(last).contains("atomic") ? "atomics"
                                                              : "loads");
    } else if (depth == 0 && n->kids[0]->kind == K::Name) {
      if (KernelInfo *helper = file.kernelNamed(n->kids[0]->text))
        for (auto &kind : memoryAccesses(file, helper->def->body, depth + 1))
          kinds.insert(kind);
    }
  });
  return kinds;
}

bool isEqualityTest(const Node *test) {
  return test->kind == K::Compare && test->ops.size() == 1 && test->ops[0] == "==";
}

} // namespace

void runtimeIfInDotLoop(FileAnalysis &file, KernelInfo &k, const Scope &scope) {
  if (k.dialect != Dialect::Triton)
    return;
  for (const LoopInfo &loop : k.loops) {
    const LoopRecord &rec = k.record.loops[loop.record];
    if (loop.outer || (rec.form != "launch" && rec.form != "annotated"))
      continue;
    if (loop.dots < 1 || loop.dots > 2)
      continue;
    std::function<void(const std::vector<Node *> &)> visit = [&](const std::vector<Node *> &body) {
      for (Node *s : body) {
        switch (s->kind) {
        case K::If: {
          if (!file.isConstexpr(s->kids[0], scope) &&
              !(loop.dots == 1 && isEqualityTest(s->kids[0]))) {
            // The branch's own statements; an elif is checked on its own.
            std::vector<Node *> branch = s->body;
            bool elif = s->orelse.size() == 1 && s->orelse[0]->kind == K::If;
            if (!elif)
              branch.insert(branch.end(), s->orelse.begin(), s->orelse.end());
            std::set<std::string> kinds = memoryAccesses(file, branch);
            if (!kinds.empty()) {
              std::vector<const Node *> names;
              collectNames(s->kids[0], names);
              std::set<std::string> runtime;
              for (const Node *n : names)
                if (!file.isConstexpr(n, scope))
                  runtime.insert(n->text);
              std::string reads, what;
              for (auto &r : runtime)
                reads += (reads.empty() ? "" : ", ") + r;
              for (auto &kind : kinds)
                what += (what.empty() ? "" : ", ") + kind;
              k.record.findings.push_back(file.finding(
                  "runtime_if_in_dot_loop", s, k.record.name,
                  fmt::format("runtime `{}` inside the dot loop at line {}{} holds {}: on AMD, "
                              "BlockPingpong counts memory ops under a branch as non-dot "
                              "memory and leaves this {}-dot loop without its ping-pong "
                              "schedule; mask them outside the branch or test a constexpr",
                              file.lineText(s->line), rec.line,
                              reads.empty() ? "" : " (reads " + reads + ")", what, loop.dots)));
            }
          }
          visit(s->body);
          visit(s->orelse);
          break;
        }
        case K::For:
          // Only a static_range body lands in this loop's block.
          if (s->kids[1]->kind == K::Call) {
            std::string r = file.imports().resolve(s->kids[1]->kids[0]);
            if (lastComponent(r) == "static_range")
              visit(s->body);
          }
          break;
        case K::With:
        case K::Try:
          visit(s->body);
          for (Node *h : s->handlers)
            visit(h->body);
          visit(s->orelse);
          visit(s->finalbody);
          break;
        default:
          break;
        }
      }
    };
    visit(loop.node->body);
  }
}

} // namespace tilexform::source::detail::rules
