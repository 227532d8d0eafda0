// nan-rows: a masked copy into shared memory without `other=` leaves the
// masked-off elements undefined (Triton's semantics of a load without
// `other`; NVIDIA's cp.async happens to zero-fill them). Where those dead
// elements reach a reduction across them, or the reduction axis (K) of an
// MMA, garbage or NaN poisons every row they meet, and zeros displace a
// maximum or minimum.
#include "LintContext.h"

#include <mlir/IR/BuiltinAttributes.h>

#include <fmt/format.h>

namespace tilexform::lint {

namespace {

using DimMask = uint32_t;
constexpr unsigned kMaxRank = 8;

DimMask allDims(size_t rank) { return rank >= 32 ? ~0u : (DimMask(1) << rank) - 1; }

/// The dims of its shape along which a mask can change: a splat varies along
/// none, a broadcast only along the dims its source had, `tt.make_range`
/// along its one dim, and elementwise ops along those of their operands.
DimMask varyingDims(const ir::Value *v, unsigned depth = 0) {
  size_t rank = shapeOf(v->type).size();
  const ir::Operation *d = v->definingOp;
  if (!d || depth > 64)
    return allDims(rank);
  const std::string &n = d->name;
  if (n == "arith.constant" || n == "tt.splat")
    return 0;
  if (n == "tt.make_range")
    return 1;
  if (n == "tt.broadcast" && d->operand("src")) {
    auto from = shapeOf(d->operand("src")->type);
    DimMask m = varyingDims(d->operand("src"), depth + 1);
    for (size_t i = 0; i < from.size(); ++i)
      if (from[i] == 1)
        m &= ~(DimMask(1) << i);
    return m;
  }
  if (n == "tt.expand_dims" && d->operand("src")) {
    auto axis = d->intAttr("axis");
    if (!axis || *axis < 0 || *axis >= int64_t(kMaxRank))
      return allDims(rank);
    DimMask m = varyingDims(d->operand("src"), depth + 1);
    DimMask low = m & ((DimMask(1) << *axis) - 1);
    return low | ((m & ~low) << 1);
  }
  if (n.rfind("arith.", 0) == 0 || n == "ttg.convert_layout") {
    DimMask m = 0;
    for (const ir::Value *o : d->operands)
      m |= shapeOf(o->type).size() == rank ? varyingDims(o, depth + 1) : 0;
    return m;
  }
  return allDims(rank);
}

/// The permutation attribute `order` of a transpose, or none.
std::optional<std::vector<int>> orderOf(const ir::Operation *op) {
  auto a = mlir::dyn_cast_or_null<mlir::DenseI32ArrayAttr>(op->attr("order"));
  if (!a)
    return std::nullopt;
  return std::vector<int>(a.asArrayRef().begin(), a.asArrayRef().end());
}

/// For each dim of `view`, the dim of a slot of `root` (the copy's
/// destination) it is, or -1 for the ring index; none when the chain from
/// the root has a view this rule does not follow.
std::optional<std::vector<int>> slotDims(ir::Value *view, ir::Value *root, size_t slotRank) {
  std::vector<const ir::Operation *> chain;
  ir::Value *v = view;
  for (unsigned step = 0; v != root; ++step) {
    if (!v || step > 256)
      return std::nullopt;
    if (ir::Operation *d = v->definingOp) {
      if (!d->schema || !d->schema->is(ir::OpFlagMemdescView) || d->operands.empty())
        return std::nullopt;
      chain.push_back(d);
      v = d->operands[0];
      continue;
    }
    ir::Value *in = bufferRoot(v);
    if (in == v)
      return std::nullopt;
    // One capture or loop argument at a time: bufferRoot went to the root;
    // views between captures are followed only when there are none.
    if (in != root)
      return std::nullopt;
    v = in;
  }
  size_t rootRank = shapeOf(root->type).size();
  std::vector<int> map;
  if (rootRank == slotRank + 1)
    map.push_back(-1);
  else if (rootRank != slotRank)
    return std::nullopt;
  for (size_t i = 0; i < slotRank; ++i)
    map.push_back(int(i));
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const ir::Operation *op = *it;
    if (op->name == "ttg.memdesc_index") {
      if (map.empty())
        return std::nullopt;
      map.erase(map.begin());
    } else if (op->name == "ttg.memdesc_trans") {
      auto order = orderOf(op);
      if (!order || order->size() != map.size())
        return std::nullopt;
      std::vector<int> next;
      for (int o : *order) {
        if (o < 0 || size_t(o) >= map.size())
          return std::nullopt;
        next.push_back(map[size_t(o)]);
      }
      map = next;
    } else if (op->name != "ttg.memdesc_subslice") {
      return std::nullopt;
    }
  }
  return map;
}

DimMask deadInView(const std::vector<int> &map, DimMask deadSlot) {
  DimMask m = 0;
  for (size_t i = 0; i < map.size(); ++i)
    if (map[i] >= 0 && (deadSlot >> map[i]) & 1)
      m |= DimMask(1) << i;
  return m;
}

bool combinesByExtremum(const ir::Operation *reduce) {
  bool found = false;
  for (auto &r : reduce->regions)
    for (auto &b : r->blocks)
      for (auto &o : b->ops) {
        llvm::StringRef n(o->name);
        found = found || n.contains("max") || n.contains("min");
      }
  return found;
}

bool elementwise(const ir::Operation *op) {
  llvm::StringRef n(op->name);
  if (n == "arith.select" || n == "arith.constant" || n.starts_with("arith.cmp"))
    return false; // a select masks again
  return n.starts_with("arith.") || n.starts_with("math.") || n == "ttg.convert_layout" ||
         n == "tt.fp_to_fp";
}

struct Sink {
  const ir::Operation *op;
  std::string what;
};

/// Where dead elements of `value` (dead along `dead`) end up harmful.
std::optional<Sink> followTensor(ir::Value *value, DimMask dead, bool zeroFilled) {
  std::vector<std::pair<ir::Value *, DimMask>> work{{value, dead}};
  llvm::DenseSet<ir::Value *> seen;
  while (!work.empty()) {
    auto [v, m] = work.back();
    work.pop_back();
    if (!m || !seen.insert(v).second || seen.size() > 4096)
      continue;
    for (auto &[user, index] : v->uses) {
      if (user->name == "tt.reduce") {
        auto axis = user->intAttr("axis");
        if (axis && *axis >= 0 && *axis < 32 && ((m >> *axis) & 1) &&
            (!zeroFilled || combinesByExtremum(user)))
          return Sink{user, fmt::format("the reduction along axis {}", *axis)};
        continue;
      }
      if (user->name == "tt.dot" && !zeroFilled) {
        if ((index == 0 && (m & 2)) || (index == 1 && (m & 1)))
          return Sink{user, "the MMA's reduction (K) axis"};
        continue;
      }
      if (user->name == "tt.trans" && !user->results.empty()) {
        auto order = orderOf(user);
        if (!order)
          continue;
        DimMask next = 0;
        for (size_t i = 0; i < order->size(); ++i)
          if ((*order)[i] >= 0 && (*order)[i] < 32 && ((m >> (*order)[i]) & 1))
            next |= DimMask(1) << i;
        work.push_back({user->results[0], next});
        continue;
      }
      if (elementwise(user))
        for (ir::Value *r : user->results)
          if (shapeOf(r->type).size() == shapeOf(v->type).size())
            work.push_back({r, m});
    }
  }
  return std::nullopt;
}

} // namespace

void checkNanRows(LintContext &ctx) {
  auto ops = allOps(ctx.module);
  for (const ir::Operation *copy : ops) {
    bool asyncCopy = copy->name == "ttg.async_copy_global_to_local";
    bool bufferCopy = copy->name == "amdg.buffer_load_to_local";
    if ((!asyncCopy && !bufferCopy) || !copy->operand("mask") || copy->operand("other"))
      continue;
    ir::Value *dest = copy->operand(asyncCopy ? "result" : "dest");
    if (!dest)
      continue;
    // cp.async copies zeros for masked-off bytes; a buffer load returns zero
    // out of range (Triton masks by sending the lane out of range).
    bool zeroFilled = bufferCopy || ctx.nvidia();
    size_t rank = shapeOf(dest->type).size();
    DimMask dead = varyingDims(copy->operand("mask")) & allDims(rank);
    if (!dead || rank == 0 || rank > kMaxRank)
      continue;
    ir::Value *root = bufferRoot(dest);
    auto destMap = slotDims(dest, root, rank);
    if (!destMap)
      continue;
    // Dead dims in slot coordinates.
    DimMask deadSlot = 0;
    for (size_t i = 0; i < destMap->size(); ++i)
      if ((*destMap)[i] >= 0 && ((dead >> i) & 1))
        deadSlot |= DimMask(1) << (*destMap)[i];
    std::optional<Sink> sink;
    for (const ir::Operation *op : ops) {
      if (sink)
        break;
      if (op->name == "ttg.local_load" && op->operand("src") &&
          bufferRoot(op->operand("src")) == root && !op->results.empty()) {
        auto map = slotDims(op->operand("src"), root, rank);
        if (map)
          sink = followTensor(op->results[0], deadInView(*map, deadSlot), zeroFilled);
      } else if (!zeroFilled &&
                 (op->name == "ttng.warp_group_dot" || op->name == "ttng.tc_gen5_mma")) {
        for (int k = 0; k < 2 && !sink; ++k) {
          ir::Value *operand = op->operand(k == 0 ? "a" : "b");
          if (!operand || bufferRoot(operand) != root)
            continue;
          auto map = slotDims(operand, root, rank);
          if (map && (deadInView(*map, deadSlot) & (k == 0 ? 2u : 1u)))
            sink = Sink{op, "the MMA's reduction (K) axis"};
        }
      }
    }
    if (!sink)
      continue;
    std::string dims;
    for (size_t i = 0; i < rank; ++i)
      if ((dead >> i) & 1)
        dims += (dims.empty() ? "" : ", ") + std::to_string(i);
    ctx.add(Rule::NanRows, copy,
            fmt::format("masked copy into {} without other=: the elements its mask (varying "
                        "along dim {}) turns off are {}, and they reach {} ({} at line {})",
                        root->name, dims,
                        zeroFilled ? "zeros, which replace the true maximum or minimum"
                                   : "undefined (garbage or NaN from earlier contents)",
                        sink->what, sink->op->name, sink->op->pos.line),
            zeroFilled ? "pass other= the reduction's identity (-inf for a max, +inf for a min), "
                         "or mask the loaded tile with gl.where before the reduction"
                       : "pass other=0 to the copy (or the reduction's identity), or mask the "
                         "loaded tile with gl.where before it is reduced or multiplied");
  }
}

} // namespace tilexform::lint
