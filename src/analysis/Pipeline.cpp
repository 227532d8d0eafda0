// The hot loop's pipeline facts, from the op table's kinds and named operands.
#include "tilexform/analysis/Pipeline.h"
#include "tilexform/ir/Dialects.h"
#include "tilexform/ir/OpSchema.h"

#include <fmt/format.h>

#include <set>

namespace tilexform::analysis {

bool LoopPipeline::pipelined() const {
  return memdescIndex > 0 || carriedLoads > 0 || (numStages && *numStages > 1);
}

std::vector<std::string> LoopPipeline::evidence() const {
  std::vector<std::string> out;
  if (!found)
    return {"no loop in the dump"};
  if (memdescIndex)
    out.push_back(fmt::format(
        "{} ttg.memdesc_index in the loop at line {} (staging{})", memdescIndex, line,
        buffers ? fmt::format(" in {} rotating buffer{}", *buffers, *buffers == 1 ? "" : "s")
                : std::string()));
  if (asyncCopies)
    out.push_back(fmt::format("{} async cop{} to shared memory in the loop", asyncCopies,
                              asyncCopies == 1 ? "y" : "ies"));
  if (carriedLoads)
    out.push_back(fmt::format("{} value{} loaded for a later iteration (carried by scf.yield)",
                              carriedLoads, carriedLoads == 1 ? "" : "s"));
  if (numStages)
    out.push_back(fmt::format("tt.num_stages = {} on the loop", *numStages));
  if (!pipelined())
    out.push_back(fmt::format("the loop at line {} loads and consumes each tile in the same "
                              "iteration (no staging, no carried loads)",
                              line));
  return out;
}

namespace {

bool isDot(const ir::Operation *op) { return op->schema && op->schema->is(ir::OpFlagDot); }

size_t dotsUnder(const ir::Operation *loop) {
  size_t n = 0;
  std::vector<const ir::Operation *> stack{loop};
  while (!stack.empty()) {
    const ir::Operation *op = stack.back();
    stack.pop_back();
    if (isDot(op))
      ++n;
    for (auto &r : op->regions)
      for (auto &b : r->blocks)
        for (auto &o : b->ops)
          stack.push_back(o.get());
  }
  return n;
}

bool encloses(const ir::Operation *outer, const ir::Operation *op) {
  for (const ir::Operation *p = op->parentOp(); p; p = p->parentOp())
    if (p == outer)
      return true;
  return false;
}

} // namespace

LoopPipeline hotLoopPipeline(const ir::Module &m) {
  std::vector<const ir::Operation *> loops;
  m.walk([&](const ir::Operation *op) {
    if (op->isLoop())
      loops.push_back(op);
  });
  LoopPipeline p;
  if (loops.empty())
    return p;
  const ir::Operation *best = nullptr;
  size_t bestDots = 0;
  for (const ir::Operation *l : loops) {
    size_t d = dotsUnder(l);
    // More dots wins; on a tie the inner loop (walk order puts it later).
    if (!best || d > bestDots || (d == bestDots && d > 0 && encloses(best, l))) {
      best = l;
      bestDots = d;
    }
  }
  p.found = true;
  p.line = best->pos.line;
  p.function = best->enclosingFunction();
  p.dots = bestDots;
  p.numStages = best->intAttr("tt.num_stages");
  std::set<const ir::Operation *> body;
  std::vector<const ir::Operation *> stack{best};
  while (!stack.empty()) {
    const ir::Operation *op = stack.back();
    stack.pop_back();
    if (op != best)
      body.insert(op);
    for (auto &r : op->regions)
      for (auto &b : r->blocks)
        for (auto &o : b->ops)
          stack.push_back(o.get());
  }
  for (const ir::Operation *op : body) {
    const std::string &n = op->name;
    if (n == "ttg.memdesc_index") {
      ++p.memdescIndex;
      if (ir::Value *src = op->operand("src"); src && src->type)
        if (auto tt = mlir::dyn_cast<ir::TritonType>(src->type);
            tt && tt.kind() == ir::TritonTypeKind::MemDesc) {
          const auto &info = tt.info();
          const auto &dims = info.allocShape.empty() ? info.shape : info.allocShape;
          int64_t lead = dims.size() > 2 ? dims.front() : 1;
          p.buffers = std::max(p.buffers.value_or(0), lead);
        }
    }
    if (op->schema && op->schema->is(ir::OpFlagAsyncCopy))
      ++p.asyncCopies;
    if (n == "ttg.async_wait" || n == "ttng.wait_barrier" || n == "amdg.async_wait")
      ++p.asyncWaits;
    if (n == "ttg.local_store")
      ++p.localStores;
  }
  // Values the loop carries that a load or copy in its body produced: a
  // tile loaded in iteration i for iteration i+1.
  for (auto &r : best->regions)
    for (auto &b : r->blocks) {
      if (b->ops.empty())
        continue;
      const ir::Operation *yield = b->ops.back().get();
      if (yield->name != "scf.yield")
        continue;
      for (ir::Value *v : yield->operands) {
        const ir::Operation *def = v ? v->definingOp : nullptr;
        if (def && body.count(def) && def->schema &&
            (def->schema->is(ir::OpFlagGlobalLoad) || def->schema->is(ir::OpFlagAsyncCopy) ||
             def->name == "ttg.async_commit_group"))
          ++p.carriedLoads;
      }
    }
  return p;
}

} // namespace tilexform::analysis
