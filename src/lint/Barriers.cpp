// mbarrier-phase, mbarrier-shared, mbarrier-inval: how a kernel's mbarriers
// are waited on, shared and retired.
#include "LintContext.h"

#include <fmt/format.h>

namespace tilexform::lint {

namespace {

enum class PhaseForm { Unknown, Constant, Divided, FlipsEveryIteration };

struct PhaseExpr {
  PhaseForm form = PhaseForm::Unknown;
  int64_t value = 0; // the constant, or the divisor N of (i // N) & 1
};

const ir::Value *otherThanOne(const ir::Operation *d) {
  if (d->operands.size() != 2)
    return nullptr;
  if (constantInt(d->operands[1]) == 1)
    return d->operands[0];
  if (constantInt(d->operands[0]) == 1)
    return d->operands[1];
  return nullptr;
}

/// The N of `x // N` (or `x >> log2 N`), 1 for any other `x`.
int64_t divisorOf(const ir::Value *x) {
  const ir::Operation *d = x ? x->definingOp : nullptr;
  if (!d || d->operands.size() != 2)
    return 1;
  auto c = constantInt(d->operands[1]);
  if (!c || *c <= 0)
    return 1;
  if (d->name == "arith.divsi" || d->name == "arith.divui")
    return *c;
  if ((d->name == "arith.shrui" || d->name == "arith.shrsi") && *c < 62)
    return int64_t(1) << *c;
  return 1;
}

PhaseExpr classifyPhase(const ir::Value *phase) {
  PhaseExpr e;
  if (auto c = constantInt(phase)) {
    e.form = PhaseForm::Constant;
    e.value = *c;
    return e;
  }
  if (const ir::Operation *d = phase->definingOp) {
    if (d->name == "arith.andi")
      if (const ir::Value *x = otherThanOne(d))
        return {PhaseForm::Divided, divisorOf(x)};
    if ((d->name == "arith.remsi" || d->name == "arith.remui") && d->operands.size() == 2 &&
        constantInt(d->operands[1]) == 2)
      return {PhaseForm::Divided, divisorOf(d->operands[0])};
    return e;
  }
  // An iteration argument of a loop that is flipped on every iteration.
  const ir::Block *b = phase->ownerBlock;
  const ir::Operation *loop = b && b->parent ? b->parent->parent : nullptr;
  if (!loop || loop->name != "scf.for" || b->ops.empty())
    return e;
  size_t k = 0;
  while (k < b->arguments.size() && b->arguments[k] != phase)
    ++k;
  const ir::Operation *yield = b->ops.back().get();
  if (k == 0 || k >= b->arguments.size() || yield->name != "scf.yield" ||
      k - 1 >= yield->operands.size())
    return e;
  const ir::Operation *next = yield->operands[k - 1]->definingOp;
  if (next && next->name == "arith.xori" && otherThanOne(next) == phase)
    e.form = PhaseForm::FlipsEveryIteration;
  return e;
}

/// How many barriers the ring a wait's barrier comes from holds: the
/// leading dimension of the buffer `ttg.memdesc_index` picks from.
int64_t ringSize(const ir::Value *bar) {
  const ir::Operation *d = bar ? bar->definingOp : nullptr;
  if (!d || d->name != "ttg.memdesc_index" || d->operands.empty())
    return 1;
  auto shape = shapeOf(d->operands[0]->type);
  return shape.size() >= 2 ? shape[0] : 1;
}

bool initialisedIn(const BarrierRef &ref, const ir::Operation *loop,
                   const std::vector<const ir::Operation *> &ops) {
  for (const ir::Operation *o : ops)
    if (o->name == "ttng.init_barrier" && isInside(o, loop) &&
        barrierRef(o->operand("alloc")).mayAlias(ref))
      return true;
  return false;
}

void checkPhases(LintContext &ctx, const std::vector<const ir::Operation *> &ops) {
  for (const ir::Operation *w : ops) {
    if (w->name != "ttng.wait_barrier" || !w->operand("alloc") || !w->operand("phase"))
      continue;
    const ir::Operation *loop = enclosingLoop(w);
    if (!loop)
      continue;
    ir::Value *bar = w->operand("alloc");
    BarrierRef ref = barrierRef(bar);
    if (ref.root && ref.root->definingOp && isInside(ref.root->definingOp, loop))
      continue; // a barrier made afresh in each iteration
    if (initialisedIn(ref, loop, ops))
      continue;
    ir::Value *pred = w->operand("pred");
    if (pred && constantInt(pred) != 1 && constantInt(pred) != -1)
      continue; // a predicated wait: which iterations wait is not visible
    PhaseExpr p = classifyPhase(w->operand("phase"));
    int64_t ring = ringSize(bar);
    if (p.form == PhaseForm::Constant)
      ctx.add(Rule::MbarrierPhase, w,
              fmt::format("the wait on {} inside a loop (line {}) has the constant phase {}: the "
                          "barrier's phase alternates with every completion, so from the second "
                          "round on this wait either passes at once or never returns",
                          bar->name, loop->pos.line, p.value),
              fmt::format("carry the phase with the loop: phase = (i // {}) & 1 for a ring of "
                          "{} barrier(s) indexed i % {}",
                          ring, ring, ring));
    else if (p.form == PhaseForm::Divided && p.value != ring)
      ctx.add(Rule::MbarrierPhase, w,
              fmt::format("the phase of the wait on {} flips {} but the barrier ring it indexes "
                          "has {} entries: each barrier completes once every {} iterations",
                          bar->name,
                          p.value == 1 ? std::string("every iteration (i & 1)")
                                       : fmt::format("every {} iterations ((i // {}) & 1)", p.value,
                                                     p.value),
                          ring, ring),
              fmt::format("use phase = (i // {}) & 1 with index = i % {}", ring, ring));
    else if (p.form == PhaseForm::FlipsEveryIteration && ring > 1)
      ctx.add(Rule::MbarrierPhase, w,
              fmt::format("the phase of the wait on {} is flipped on every iteration but the "
                          "barrier ring has {} entries: each barrier's phase moves once every {} "
                          "iterations",
                          bar->name, ring, ring),
              "flip the phase only when the ring index wraps to 0 (phase ^= index == 0), or "
              "compute it as (i // num_buffers) & 1");
  }
}

void checkSharing(LintContext &ctx, const std::vector<const ir::Operation *> &ops) {
  std::vector<std::pair<BarrierRef, const ir::Operation *>> tma;
  for (const ir::Operation *o : ops) {
    if (o->name == "ttng.async_tma_copy_global_to_local" || o->name == "ttng.async_tma_gather")
      if (ir::Value *b = o->operand("barrier"))
        tma.push_back({barrierRef(b), o});
    if (o->name == "ttng.barrier_expect")
      if (ir::Value *b = o->operand("alloc"))
        tma.push_back({barrierRef(b), o});
  }
  if (tma.empty())
    return;
  for (const ir::Operation *o : ops) {
    std::vector<ir::Value *> bars;
    if (o->name == "ttng.tc_gen5_mma" || o->name == "ttng.tc_gen5_mma_scaled")
      bars = o->operandGroup("barriers");
    else if (o->name == "ttng.tc_gen5_commit" && o->operand("barrier"))
      bars.push_back(o->operand("barrier"));
    for (ir::Value *b : bars) {
      BarrierRef ref = barrierRef(b);
      for (auto &[t, top] : tma)
        if (t.mayAlias(ref)) {
          ctx.add(Rule::MbarrierShared, o,
                  fmt::format("{} signals completion on {}, the barrier that also tracks the TMA "
                              "copy ({} at line {}): one phase then counts both producers",
                              o->name, b->name, top->name, top->pos.line),
                  "give the tcgen05 completion (tcgen05_commit / mma mbarriers=) its own "
                  "barrier, separate from the TMA ready barrier");
          break;
        }
    }
  }
}

void checkInvalidation(LintContext &ctx, const std::vector<const ir::Operation *> &ops) {
  for (const ir::Operation *init : ops) {
    if (init->name != "ttng.init_barrier" || !init->operand("alloc"))
      continue;
    BarrierRef ref = barrierRef(init->operand("alloc"));
    std::string fn = init->enclosingFunction();
    bool invalidated = false;
    for (const ir::Operation *o : ops)
      if (o->name == "ttng.inval_barrier" && o->operand("alloc") &&
          barrierRef(o->operand("alloc")).mayAlias(ref) && o->enclosingFunction() == fn) {
        invalidated = true;
        break;
      }
    if (!invalidated)
      ctx.add(Rule::MbarrierInval, init,
              fmt::format("{} is initialised here and never invalidated in @{}",
                          init->operand("alloc")->name, fn),
              "call mbarrier.invalidate(bar) once the barrier is no longer used, before its "
              "shared memory is reused");
  }
}

} // namespace

void checkBarriers(LintContext &ctx) {
  auto ops = allOps(ctx.module);
  if (ctx.enabled(Rule::MbarrierPhase))
    checkPhases(ctx, ops);
  if (ctx.enabled(Rule::MbarrierShared))
    checkSharing(ctx, ops);
  if (ctx.enabled(Rule::MbarrierInval))
    checkInvalidation(ctx, ops);
}

} // namespace tilexform::lint
