// blocked: registers, lanes and warps tiling a tensor in `order`,
// `#ttg.blocked<{...}>` and `gl.BlockedLayout(...)`.
#include "tilexform/layout/Kind.h"

#include "../KindSupport.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>

namespace tilexform::layout::kinds {

using namespace detail;

namespace {

EncodingPtr parseAttr(AttrFields &f) {
  BlockedEncoding e;
  bool ok = true;
  for (const std::string &k : f.keys()) {
    if (k == "sizePerThread")
      e.sizePerThread = f.uintList(k, ok);
    else if (k == "threadsPerWarp")
      e.threadsPerWarp = f.uintList(k, ok);
    else if (k == "warpsPerCTA")
      e.warpsPerCTA = f.uintList(k, ok);
    else if (k == "order")
      e.order = f.uintList(k, ok);
    else if (!f.takeCga(k, ok)) {
      f.error("unexpected key: " + k);
      return nullptr;
    }
  }
  size_t r = e.order.size();
  auto c = ok ? f.finishCga(unsigned(r)) : std::nullopt;
  if (!c)
    return nullptr;
  e.cga = *c;
  return makeEncoding(e);
}

std::string print(const Encoding &enc, const AttrPrinter &) {
  const auto &e = *enc.as<BlockedEncoding>();
  return fmt::format("#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, "
                     "warpsPerCTA = {}, order = {}{}}}>",
                     listText(e.sizePerThread), listText(e.threadsPerWarp), listText(e.warpsPerCTA),
                     listText(e.order), cgaSuffix(e.cga));
}

EncodingPtr parseGluon(const GluonArgs &a) {
  BlockedEncoding e;
  e.sizePerThread = a.ints("size_per_thread");
  e.threadsPerWarp = a.ints("threads_per_warp");
  e.warpsPerCTA = a.ints("warps_per_cta");
  e.order = a.ints("order");
  e.cga = a.cga(unsigned(e.order.size()));
  return makeEncoding(e);
}

std::optional<std::string> emitGluon(const Encoding &enc, GluonSpelling &g) {
  const auto &e = *enc.as<BlockedEncoding>();
  return fmt::format("gl.BlockedLayout(size_per_thread={}, "
                     "threads_per_warp={}, warps_per_cta={}, "
                     "order={}{})",
                     listText(e.sizePerThread), listText(e.threadsPerWarp), listText(e.warpsPerCTA),
                     listText(e.order), g.cga(e.cga, unsigned(e.order.size())));
}

std::string validate(const Encoding &enc) {
  const auto &e = *enc.as<BlockedEncoding>();
  size_t r = e.order.size();
  if (r == 0 || e.sizePerThread.size() != r || e.threadsPerWarp.size() != r ||
      e.warpsPerCTA.size() != r)
    return "blocked needs sizePerThread, threadsPerWarp, warpsPerCTA and order of one rank";
  for (auto *v : {&e.sizePerThread, &e.threadsPerWarp, &e.warpsPerCTA})
    if (!allPow2(*v))
      return "blocked layout entries must be powers of two";
  if (!isPermutation(e.order, r))
    return "blocked order must be a permutation of the dims";
  if (auto err = checkCga(e.cga, r); !err.empty())
    return err;
  // One CTA tile must be addressable by the (32-bit) layout algebra. Each
  // factor is at most 2^30 (the readers' bound): stop as soon as the product
  // passes 2^30, before it can overflow.
  uint64_t tile = 1;
  for (size_t d = 0; d < r && tile <= (uint64_t(1) << 30); ++d)
    for (unsigned f : {e.sizePerThread[d], e.threadsPerWarp[d], e.warpsPerCTA[d]})
      if (tile <= (uint64_t(1) << 30))
        tile *= f;
  if (tile > (uint64_t(1) << 30))
    return "blocked layout covers more than 2^30 elements per CTA";
  return "";
}

llvm::Expected<LinearLayout> linear(const Encoding &enc, const std::vector<int64_t> &shape) {
  const auto &e = *enc.as<BlockedEncoding>();
  if (e.order.size() != shape.size())
    return misfit(fmt::format("blocked layout has rank {} but the shape has rank {}",
                              e.order.size(), shape.size()));
  auto cta = identityStandardND("register", toI32(e.sizePerThread), e.order) *
             identityStandardND("lane", toI32(e.threadsPerWarp), e.order) *
             identityStandardND("warp", toI32(e.warpsPerCTA), e.order);
  auto cga = cgaToLinearLayout(e.cga, unsigned(shape.size()));
  if (!cga)
    return cga.takeError();
  return combineCtaCgaWithShape(cta, *cga, shape);
}

unsigned rank(const Encoding &enc) { return unsigned(enc.as<BlockedEncoding>()->order.size()); }

unsigned warps(const Encoding &enc) { return product(enc.as<BlockedEncoding>()->warpsPerCTA); }

// A blocked parent's operand holds the whole K extent in each thread and is
// broadcast along K over lanes and warps.
llvm::Expected<LinearLayout> dotOperandLinear(const Encoding &parent, const DotOperandEncoding &e,
                                              const std::vector<int64_t> &shape) {
  const auto *b = parent.as<BlockedEncoding>();
  unsigned rank = unsigned(shape.size());
  auto names = standardOutDimNames(int(rank));
  if (b->order.size() != rank)
    return misfit("dot_op parent rank differs from the tensor rank");
  unsigned kIdx = e.opIdx == 0 ? rank - 1 : rank - 2;
  std::vector<int32_t> threadSize = toI32(b->sizePerThread);
  threadSize[kIdx] = int32_t(shape[kIdx]);
  auto repNames = permuteNames(names, b->order);
  auto regs = identityStandardND("register", threadSize, b->order);
  auto lanes = broadcastedDotOperandLayout(b->threadsPerWarp, b->order, kIdx, "lane");
  auto warps = broadcastedDotOperandLayout(b->warpsPerCTA, b->order, kIdx, "warp");
  auto cta =
      regs.transposeOuts(repNames) * lanes.transposeOuts(repNames) * warps.transposeOuts(repNames);
  auto cga = dotOperandCga(b->cga, e.opIdx, rank);
  if (!cga)
    return cga.takeError();
  return combineCtaCgaWithShape(cta, *cga, shape);
}

} // namespace

KindInfo blockedKind() {
  return {.mnemonic = "blocked",
          .gluonClass = "BlockedLayout",
          .gluonFields =
              withGluonCgaFields({"size_per_thread", "threads_per_warp", "warps_per_cta", "order"}),
          .variant = variantIndexOf<BlockedEncoding>(),
          .parseAttr = parseAttr,
          .print = print,
          .parseGluon = parseGluon,
          .emitGluon = emitGluon,
          .validate = validate,
          .linear = linear,
          .rank = rank,
          .warps = warps,
          .dotOperandLinear = dotOperandLinear};
}

} // namespace tilexform::layout::kinds
