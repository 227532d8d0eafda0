// runtime_if_in_dot_loop: a branch on a runtime value that loads a value a
// dot outside the branch reads, inside a Triton loop the pipeliner pipelines
// and whose block holds one or two dot-like ops. That is the loop AMD's
// BlockPingpong (third_party/amd/lib/TritonAMDGPUTransforms/BlockPingpong.cpp)
// schedules; it finds a dot's operand loads by walking back from the dot
// within the block (findClosestPredOps), which stops at the scf.if result, so
// the load counts as non-dot memory and the loop is refused
// (estimateNonDotMemoryImpact). Global stores and atomics it does not count. It does nothing for
// three or more dots, for an outer loop (never pipelined), or for Gluon (no pipeliner, no
// ping-pong), so those get no finding. A `==` test in a one-dot loop is the persistent GEMM's
// epilogue guard, which BlockPingpong assumes not taken.
#include "../SurveyRules.h"

#include <fmt/format.h>

namespace tilexform::source::detail::rules {

namespace {

bool holdsLoad(FileAnalysis &file, const Node *value) {
  bool found = false;
  walkAll(const_cast<Node *>(value), [&](Node *n) {
    if (n->kind == K::Call) {
      std::string r = file.imports().resolve(n->kids[0]);
      if (isLanguagePath(r) && lastComponent(r) == "load")
        found = true;
    }
  });
  return found;
}

/// Names a branch binds to a tl.load (`b = tl.load(...)`), with the load.
std::map<std::string, const Node *> loadedNames(FileAnalysis &file,
                                                const std::vector<Node *> &branch) {
  std::map<std::string, const Node *> out;
  walkBody(branch, [&](Node *n) {
    if (n->kind == K::Assign && holdsLoad(file, n->kids.back()))
      for (size_t i = 0; i + 1 < n->kids.size(); ++i) {
        std::set<std::string> names;
        targetNames(n->kids[i], names);
        for (auto &name : names)
          out.emplace(name, n);
      }
  });
  return out;
}

bool isEqualityTest(const Node *test) {
  return test->kind == K::Compare && test->ops.size() == 1 && test->ops[0] == "==";
}

/// The dot calls of a loop block outside `skip` (static_range bodies and
/// branches included, inner loops not).
void dotsOutside(FileAnalysis &file, const std::vector<Node *> &body, const Node *skip,
                 std::vector<const Node *> &out) {
  for (Node *s : body) {
    if (s == skip)
      continue;
    if (s->kind == K::For || s->kind == K::While) {
      bool unrolled = s->kind == K::For && s->kids[1]->kind == K::Call &&
                      lastComponent(file.imports().resolve(s->kids[1]->kids[0])) == "static_range";
      if (unrolled)
        dotsOutside(file, s->body, skip, out);
      continue;
    }
    if (s->kind == K::If || s->kind == K::With || s->kind == K::Try) {
      dotsOutside(file, s->body, skip, out);
      dotsOutside(file, s->orelse, skip, out);
      for (Node *h : s->handlers)
        dotsOutside(file, h->body, skip, out);
      dotsOutside(file, s->finalbody, skip, out);
      for (Node *c : s->kids)
        if (c)
          walkAll(c, [&](Node *n) {
            if (n->kind == K::Call && isDotLike(file.imports().resolve(n->kids[0])))
              out.push_back(n);
          });
      continue;
    }
    walkAll(s, [&](Node *n) {
      if (n->kind != K::Call)
        return;
      // A dot, or a call of a @jit helper that holds one (inlined here).
      KernelInfo *helper =
          n->kids[0]->kind == K::Name ? file.kernelNamed(n->kids[0]->text) : nullptr;
      if (isDotLike(file.imports().resolve(n->kids[0])) ||
          (helper && !helper->noinline && file.jitFunction(helper->record.name).dots > 0))
        out.push_back(n);
    });
  }
}

} // namespace

void runtimeIfInDotLoop(FileAnalysis &file, KernelInfo &k, const Scope &scope) {
  if (k.dialect != Dialect::Triton)
    return;
  std::string vendor = vendorBackendOf(file.module().file);
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
            // A load bound in the branch that a dot outside it reads.
            std::map<std::string, const Node *> loaded = loadedNames(file, branch);
            std::vector<const Node *> dots;
            dotsOutside(file, loop.node->body, s, dots);
            std::string operand;
            unsigned dotLine = 0;
            for (const Node *d : dots) {
              std::vector<const Node *> names;
              for (size_t i = 1; i < d->kids.size(); ++i)
                collectNames(d->kids[i], names);
              for (const Node *n : names)
                if (loaded.count(n->text) && operand.empty()) {
                  operand = n->text;
                  dotLine = d->line;
                }
            }
            if (!operand.empty()) {
              std::vector<const Node *> names;
              collectNames(s->kids[0], names);
              std::set<std::string> runtime;
              for (const Node *n : names)
                if (!file.isConstexpr(n, scope))
                  runtime.insert(n->text);
              std::string reads;
              for (auto &r : runtime)
                reads += (reads.empty() ? "" : ", ") + r;
              Finding f = file.finding(
                  "runtime_if_in_dot_loop", s, k.record.name,
                  fmt::format("runtime `{}` inside the dot loop at line {}{} loads '{}', which "
                              "the dot at line {} reads: on AMD, BlockPingpong traces a dot's "
                              "operand loads within the loop block only (an scf.if result stops "
                              "it), so this load counts as non-dot memory and the {}-dot loop "
                              "keeps no ping-pong schedule; load it masked outside the branch "
                              "or test a constexpr",
                              file.lineText(s->line), rec.line,
                              reads.empty() ? "" : " (reads " + reads + ")", operand, dotLine,
                              loop.dots));
              if (!vendor.empty()) {
                f.forkRule = "the " + vendor + " backend folder is compiled by the " + vendor +
                             " Triton fork, not by upstream's AMD backend";
                f.message += " (judged against upstream; " + f.forkRule + ")";
              }
              k.record.findings.push_back(std::move(f));
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
