// Facts about the IR that several lint rules share: buffer roots, constants,
// shapes, and walks over the paths of the structured control flow.
#include "LintContext.h"

#include <llvm/ADT/DenseMap.h>
#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/BuiltinTypes.h>

namespace tilexform::lint {

namespace {

/// Where a captured value enters: the op's operand `k` for a block argument
/// `k` of a partition region of `ttg.warp_specialize` (the default region
/// has none), or the init of a loop's iteration argument.
ir::Value *incomingValue(ir::Value *arg) {
  ir::Block *b = arg->ownerBlock;
  if (!b || !b->parent || !b->parent->parent)
    return nullptr;
  ir::Operation *p = b->parent->parent;
  size_t k = 0;
  while (k < b->arguments.size() && b->arguments[k] != arg)
    ++k;
  if (k == b->arguments.size())
    return nullptr;
  if (p->name == "ttg.warp_specialize.partitions")
    p = p->parentOp();
  if (p && p->name == "ttg.warp_specialize")
    return k < p->operands.size() ? p->operands[k] : nullptr;
  if (p && p->name == "scf.for") {
    auto inits = p->operandGroup("initArgs");
    return k >= 1 && k - 1 < inits.size() ? inits[k - 1] : nullptr;
  }
  return nullptr;
}

constexpr unsigned kMaxChain = 256;
constexpr size_t kWalkBudget = 200000;

} // namespace

ir::Value *bufferRoot(ir::Value *v) {
  for (unsigned step = 0; v && step < kMaxChain; ++step) {
    if (ir::Operation *d = v->definingOp) {
      if (d->schema && d->schema->is(ir::OpFlagMemdescView) && !d->operands.empty()) {
        v = d->operands[0];
        continue;
      }
      return v;
    }
    ir::Value *in = incomingValue(v);
    if (!in)
      return v;
    v = in;
  }
  return v;
}

BarrierRef barrierRef(ir::Value *v) {
  BarrierRef ref;
  for (unsigned step = 0; v && step < kMaxChain; ++step) {
    if (ir::Operation *d = v->definingOp) {
      if (d->schema && d->schema->is(ir::OpFlagMemdescView) && !d->operands.empty()) {
        if (d->name == "ttg.memdesc_index")
          ref.index = constantInt(d->operand("index"));
        v = d->operands[0];
        continue;
      }
      break;
    }
    ir::Value *in = incomingValue(v);
    if (!in)
      break;
    v = in;
  }
  ref.root = v;
  return ref;
}

std::optional<int64_t> constantInt(const ir::Value *v) {
  if (!v || !v->definingOp || v->definingOp->name != "arith.constant")
    return std::nullopt;
  const ir::Operation *d = v->definingOp;
  // The reader types the value in either form (`arith.constant 3 : i32`,
  // `<{value = 3 : i32}>`); a float or a dense tensor is not an integer here.
  if (auto i = mlir::dyn_cast_or_null<mlir::IntegerAttr>(d->attr("value")))
    return i.getType().isInteger(1) ? int64_t(!i.getValue().isZero()) : i.getValue().getSExtValue();
  return std::nullopt;
}

std::vector<int64_t> shapeOf(mlir::Type t) {
  if (auto r = mlir::dyn_cast_or_null<mlir::RankedTensorType>(t))
    return std::vector<int64_t>(r.getShape().begin(), r.getShape().end());
  if (auto tt = mlir::dyn_cast_or_null<ir::TritonType>(t))
    return tt.info().shape;
  return {};
}

unsigned elementBits(mlir::Type t) {
  mlir::Type e;
  if (auto r = mlir::dyn_cast_or_null<mlir::RankedTensorType>(t))
    e = r.getElementType();
  else if (auto tt = mlir::dyn_cast_or_null<ir::TritonType>(t)) {
    if (tt.kind() == ir::TritonTypeKind::Pointer)
      return 64;
    e = tt.info().elementType;
  } else
    e = t;
  if (!e)
    return 0;
  if (auto tt = mlir::dyn_cast<ir::TritonType>(e))
    return tt.kind() == ir::TritonTypeKind::Pointer ? 64 : 0;
  if (e.isIntOrFloat())
    return e.getIntOrFloatBitWidth();
  return 0;
}

const ir::Operation *enclosingLoop(const ir::Operation *op) {
  for (const ir::Operation *p = op ? op->parentOp() : nullptr; p; p = p->parentOp()) {
    if (p->isLoop())
      return p;
    if (p->isFunction())
      return nullptr;
  }
  return nullptr;
}

bool isInside(const ir::Operation *op, const ir::Operation *ancestor) {
  for (const ir::Operation *p = op ? op->parentOp() : nullptr; p; p = p->parentOp())
    if (p == ancestor)
      return true;
  return false;
}

std::optional<PartitionPlace> partitionOf(const ir::Operation *op) {
  for (const ir::Operation *cur = op; cur && cur->parentBlock;) {
    ir::Region *r = cur->parentBlock->parent;
    ir::Operation *p = r ? r->parent : nullptr;
    if (!p)
      return std::nullopt;
    if (p->name == "ttg.warp_specialize") {
      for (size_t i = 0; i < p->regions.size(); ++i)
        if (p->regions[i].get() == r)
          return PartitionPlace{p, i};
    }
    if (p->name == "ttg.warp_specialize.partitions" && p->parentOp()) {
      for (size_t i = 0; i < p->regions.size(); ++i)
        if (p->regions[i].get() == r)
          return PartitionPlace{p->parentOp(), i + 1};
    }
    cur = p;
  }
  return std::nullopt;
}

std::vector<const ir::Operation *> allOps(const ir::Module &m) {
  std::vector<const ir::Operation *> out;
  m.walk([&](ir::Operation *op) { out.push_back(op); });
  return out;
}

// ---- paths ------------------------------------------------------------------

namespace {

bool isStructured(const ir::Operation *op) {
  return op->name == "scf.for" || op->name == "scf.while" || op->name == "scf.if" ||
         op->name == "scf.execute_region" || op->name == "ttg.warp_specialize";
}

/// The regions a path enters at a structured op: all of them, except that
/// only the default region of `ttg.warp_specialize` runs in line (the
/// partitions run beside it).
std::vector<const ir::Block *> enteredBlocks(const ir::Operation *op) {
  std::vector<const ir::Block *> out;
  for (size_t i = 0; i < op->regions.size(); ++i) {
    if (op->name == "ttg.warp_specialize" && i > 0)
      break;
    if (!op->regions[i]->blocks.empty())
      out.push_back(op->regions[i]->blocks.front().get());
  }
  return out;
}

/// Whether a path may pass a structured op without running its regions: a
/// loop of no iterations, an `scf.if` without an else.
bool maySkip(const ir::Operation *op) {
  if (op->name == "scf.for")
    return true;
  if (op->name == "scf.if")
    return op->regions.size() < 2 || op->regions[1]->blocks.empty() ||
           op->regions[1]->blocks.front()->ops.empty();
  return false;
}

struct Walker {
  llvm::DenseMap<const ir::Operation *, size_t> index;
  llvm::DenseSet<std::pair<const ir::Block *, size_t>> seen;
  std::vector<std::pair<const ir::Block *, size_t>> work;
  size_t steps = 0;

  size_t indexOf(const ir::Operation *op) {
    auto it = index.find(op);
    if (it != index.end())
      return it->second;
    const ir::Block *b = op->parentBlock;
    for (size_t i = 0; i < b->ops.size(); ++i)
      index[b->ops[i].get()] = i;
    return index[op];
  }
  void push(const ir::Block *b, size_t i) {
    if (seen.insert({b, i}).second)
      work.push_back({b, i});
  }
  /// Where the region holding `b` goes when a path leaves it: the structured
  /// op around it (null: the function or a partition ends here).
  const ir::Operation *leaving(const ir::Block *b, bool &loop) {
    loop = false;
    if (!b->parent || !b->parent->parent)
      return nullptr;
    const ir::Operation *p = b->parent->parent;
    if (p->isFunction() || !p->parentBlock)
      return nullptr;
    if (p->name == "ttg.warp_specialize")
      return p->regions.empty() || p->regions.front().get() != b->parent ? nullptr : p;
    if (!isStructured(p))
      return nullptr;
    loop = p->isLoop();
    return p;
  }

  bool backward(const ir::Operation *from, llvm::function_ref<Walk(const ir::Operation *)> visit) {
    if (!from->parentBlock)
      return true;
    push(from->parentBlock, indexOf(from));
    while (!work.empty()) {
      if (++steps > kWalkBudget)
        return false;
      auto [b, i] = work.back();
      work.pop_back();
      if (i > 0) {
        const ir::Operation *op = b->ops[i - 1].get();
        if (isStructured(op)) {
          for (const ir::Block *e : enteredBlocks(op))
            push(e, e->ops.size());
          if (op->isLoop())
            for (auto &r : op->regions)
              if (!r->blocks.empty())
                push(r->blocks.front().get(), r->blocks.front()->ops.size());
          if (maySkip(op))
            push(b, i - 1);
        } else if (visit(op) == Walk::Continue) {
          push(b, i - 1);
        }
        continue;
      }
      bool loop = false;
      const ir::Operation *p = leaving(b, loop);
      if (!p)
        continue;
      if (loop)
        for (auto &r : p->regions)
          if (!r->blocks.empty())
            push(r->blocks.front().get(), r->blocks.front()->ops.size());
      push(p->parentBlock, indexOf(p));
    }
    return true;
  }

  bool forward(const ir::Operation *from, llvm::function_ref<Walk(const ir::Operation *)> visit) {
    if (!from->parentBlock)
      return true;
    push(from->parentBlock, indexOf(from) + 1);
    while (!work.empty()) {
      if (++steps > kWalkBudget)
        return false;
      auto [b, i] = work.back();
      work.pop_back();
      if (i < b->ops.size()) {
        const ir::Operation *op = b->ops[i].get();
        if (isStructured(op)) {
          for (const ir::Block *e : enteredBlocks(op))
            push(e, 0);
          if (maySkip(op))
            push(b, i + 1);
        } else if (visit(op) == Walk::Continue) {
          push(b, i + 1);
        }
        continue;
      }
      bool loop = false;
      const ir::Operation *p = leaving(b, loop);
      if (!p) {
        visit(nullptr);
        continue;
      }
      if (loop)
        for (auto &r : p->regions)
          if (!r->blocks.empty())
            push(r->blocks.front().get(), 0);
      push(p->parentBlock, indexOf(p) + 1);
    }
    return true;
  }
};

} // namespace

bool walkBackward(const ir::Operation *from,
                  llvm::function_ref<Walk(const ir::Operation *)> visit) {
  Walker w;
  return w.backward(from, visit);
}

bool walkForward(const ir::Operation *from, llvm::function_ref<Walk(const ir::Operation *)> visit) {
  Walker w;
  return w.forward(from, visit);
}

} // namespace tilexform::lint
