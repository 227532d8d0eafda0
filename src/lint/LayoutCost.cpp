// convert-in-loop and convert-identity: what a `ttg.convert_layout` costs,
// decided on the linear layouts of its two sides (src/layout): the
// conversion C = dst^-1 o src says, for every register, lane, warp and block
// bit of the source, where that element has to go. Elements that change
// block go through distributed shared memory, change warp through shared
// memory, change lane through warp shuffles; otherwise the conversion only
// renames registers.
#include "LintContext.h"

#include "tilexform/ir/Dialects.h"
#include "tilexform/layout/Encoding.h"

#include <fmt/format.h>

namespace tilexform::lint {

enum class ConversionCost { Identity, RegisterOnly, WarpShuffle, SharedMemory, CrossCta };

static const char *conversionCostName(ConversionCost c) {
  switch (c) {
  case ConversionCost::Identity:
    return "identity";
  case ConversionCost::RegisterOnly:
    return "register-only";
  case ConversionCost::WarpShuffle:
    return "warp-shuffle";
  case ConversionCost::SharedMemory:
    return "shared-memory";
  case ConversionCost::CrossCta:
    return "cross-CTA";
  }
  return "?";
}

/// Whether some element has to change its `dim` coordinate (register, lane,
/// warp or block) under the conversion `c`: a basis of another input dim with
/// a component in `dim`, or a basis of `dim` itself that does not map to its
/// own bit. All-zero bases are broadcast copies and move nothing.
static bool moves(const layout::LinearLayout &c, const std::string &dim) {
  if (!c.hasOutDim(dim))
    return false;
  int out = c.outDimIndex(dim);
  for (auto &[in, bases] : c.bases())
    for (size_t i = 0; i < bases.size(); ++i) {
      bool zero = true;
      for (int32_t x : bases[i])
        zero = zero && x == 0;
      if (zero)
        continue;
      int32_t want = in == dim ? int32_t(1) << i : 0;
      if (bases[i][size_t(out)] != want)
        return true;
    }
  return false;
}

static std::optional<ConversionCost> conversionCost(const layout::Encoding &src,
                                                    const layout::Encoding &dst,
                                                    const std::vector<int64_t> &shape) {
  auto a = layout::linearLayoutAt(src, shape);
  auto b = layout::linearLayoutAt(dst, shape);
  if (!a || !b) {
    // A layout without a linear form at this shape.
    if (!a)
      llvm::consumeError(a.takeError());
    if (!b)
      llvm::consumeError(b.takeError());
    return std::nullopt;
  }
  if (*a == *b)
    return ConversionCost::Identity;
  auto c = a->invertAndCompose(*b);
  if (!c) {
    llvm::consumeError(c.takeError());
    return std::nullopt;
  }
  if (moves(*c, "block"))
    return ConversionCost::CrossCta;
  if (moves(*c, "warp"))
    return ConversionCost::SharedMemory;
  if (moves(*c, "lane"))
    return ConversionCost::WarpShuffle;
  return ConversionCost::RegisterOnly;
}

void checkLayoutCost(LintContext &ctx) {
  for (const ir::Operation *op : allOps(ctx.module)) {
    if (op->name != "ttg.convert_layout" || !op->operand("src") || op->results.empty())
      continue;
    mlir::Type from = op->operand("src")->type, to = op->results[0]->type;
    auto src = ir::encodingOf(from), dst = ir::encodingOf(to);
    auto shape = shapeOf(to);
    if (!src || !dst || shape.empty() || shapeOf(from) != shape || !src->isDistributed() ||
        !dst->isDistributed())
      continue;
    auto cost = conversionCost(*src, *dst, shape);
    if (!cost)
      continue;
    std::string fromName =
        ctx.module.aliasFor(mlir::cast<mlir::RankedTensorType>(from).getEncoding());
    std::string toName = ctx.module.aliasFor(mlir::cast<mlir::RankedTensorType>(to).getEncoding());
    if (fromName.empty())
      fromName = src->kind();
    if (toName.empty())
      toName = dst->kind();
    std::string shapeText;
    for (int64_t d : shape)
      shapeText += (shapeText.empty() ? "" : "x") + std::to_string(d);
    if (*cost == ConversionCost::Identity) {
      // An MMA operand must be typed as a dot operand: the conversion into
      // one (the accumulator of one MMA fed to the next) cannot be dropped,
      // and it costs nothing.
      if (dst->kind() == "dot_op")
        continue;
      ctx.add(Rule::ConvertIdentity, op,
              fmt::format("{} -> {} at {} are the same linear layout: this conversion moves "
                          "nothing",
                          fromName, toName, shapeText),
              "give both sides one layout and drop the convert_layout");
      continue;
    }
    const ir::Operation *loop = enclosingLoop(op);
    if (!loop || *cost == ConversionCost::RegisterOnly)
      continue;
    int64_t elements = 1;
    for (int64_t d : shape)
      elements *= d;
    unsigned bits = elementBits(to);
    std::string how = *cost == ConversionCost::WarpShuffle
                          ? "moves elements between lanes (warp shuffles)"
                      : *cost == ConversionCost::SharedMemory
                          ? fmt::format("moves elements between warps: a round trip "
                                        "through shared memory ({} bytes) with barriers",
                                        elements * bits / 8)
                          : "moves elements between CTAs (distributed shared memory)";
    ctx.add(Rule::ConvertInLoop, op,
            fmt::format("{} -> {} at {} inside the loop at line {} {} on every iteration [cost: "
                        "{}]",
                        fromName, toName, shapeText, loop->pos.line, how,
                        conversionCostName(*cost)),
            "produce the value in the layout its consumer wants (choose the load's or the "
            "MMA's layout upstream), or move the conversion out of the loop");
  }
}

} // namespace tilexform::lint
