// tma-alignment: what the hardware requires of a TMA descriptor and the dump
// shows: the block's innermost extent a multiple of 16 bytes and every box
// dimension at most 256 elements (the descriptor's type), global strides
// multiples of 16 bytes with a unit innermost stride, and a base pointer
// known 16-byte aligned (`tt.make_tensor_descriptor` operands).
#include "LintContext.h"

#include <llvm/ADT/DenseSet.h>
#include <mlir/IR/BuiltinAttributes.h>

#include <fmt/format.h>

namespace tilexform::lint {

namespace {

bool isTensorDesc(const ir::Value *v) {
  auto t = v ? mlir::dyn_cast_or_null<ir::TritonType>(v->type) : ir::TritonType();
  return t && t.kind() == ir::TritonTypeKind::TensorDesc;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s;
  for (int64_t d : shape)
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

void checkBlock(LintContext &ctx, const ir::Operation *anchor, const ir::Value *desc) {
  auto shape = shapeOf(desc->type);
  unsigned bits = elementBits(desc->type);
  if (shape.empty() || bits == 0)
    return;
  int64_t innerBits = shape.back() * int64_t(bits);
  if (innerBits % 128 != 0)
    ctx.add(Rule::TmaAlignment, anchor,
            fmt::format("the TMA block {} of {}-bit elements of {} has an innermost extent of {} "
                        "bytes, not a multiple of 16",
                        shapeText(shape), bits, desc->name, double(innerBits) / 8),
            "make the block's last dimension a multiple of 16 bytes (e.g. 8 fp16 or 4 fp32 "
            "elements)");
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] > 256) {
      ctx.add(Rule::TmaAlignment, anchor,
              fmt::format("the TMA block {} of {} has dimension {} of {} elements; a TMA box "
                          "dimension is at most 256",
                          shapeText(shape), desc->name, i, shape[i]),
              "split the block into boxes of at most 256 elements per dimension");
      break;
    }
}

} // namespace

void checkTmaAlignment(LintContext &ctx) {
  if (ctx.amd())
    return; // TMA descriptors are NVIDIA's
  llvm::DenseSet<const ir::Value *> checked;
  for (const ir::Operation *op : allOps(ctx.module)) {
    if (op->name == "tt.make_tensor_descriptor" && !op->results.empty()) {
      ir::Value *desc = op->results[0];
      checked.insert(desc);
      checkBlock(ctx, op, desc);
      unsigned bits = elementBits(desc->type);
      // `base, [shape...], [strides...]`, rank operands in each list: the
      // strides are the last rank operands (the reader may give both lists
      // to one segment).
      size_t rank = shapeOf(desc->type).size();
      std::vector<ir::Value *> strides;
      if (rank && op->operands.size() == 1 + 2 * rank)
        strides.assign(op->operands.begin() + 1 + rank, op->operands.end());
      for (size_t i = 0; i < strides.size() && bits; ++i) {
        auto s = constantInt(strides[i]);
        if (!s)
          continue;
        bool last = i + 1 == strides.size();
        if (last && *s != 1)
          ctx.add(Rule::TmaAlignment, op,
                  fmt::format("the innermost stride of the descriptor is {}; TMA needs it to be "
                              "1 (contiguous rows)",
                              *s),
                  "make the last dimension contiguous, or transpose the tensor and the block");
        else if (!last && (*s * int64_t(bits)) % 128 != 0)
          ctx.add(Rule::TmaAlignment, op,
                  fmt::format("stride {} of the descriptor is {} elements of {} bits = {} bytes, "
                              "not a multiple of 16",
                              i, *s, bits, double(*s * int64_t(bits)) / 8),
                  "pad the rows so every stride but the last is a multiple of 16 bytes");
      }
      if (ir::Value *base = op->operand("base"))
        if (!base->definingOp && base->attributes)
          if (auto div = mlir::dyn_cast_or_null<mlir::IntegerAttr>(
                  base->attributes.get("tt.divisibility")))
            if (div.getInt() % 16 != 0)
              ctx.add(Rule::TmaAlignment, op,
                      fmt::format("the base pointer {} is known aligned to {} bytes only; a TMA "
                                  "descriptor's global address must be 16-byte aligned",
                                  base->name, div.getInt()),
                      "pass a 16-byte aligned base (the allocation's start, or an offset that "
                      "is a multiple of 16 bytes)");
      continue;
    }
    // Descriptors made on the host: the block is in the argument's type.
    ir::Value *desc = op->operand("desc");
    if (!desc || !isTensorDesc(desc))
      continue;
    ir::Value *root = bufferRoot(desc);
    if (!checked.insert(root).second)
      continue;
    checkBlock(ctx, op, root);
  }
}

} // namespace tilexform::lint
