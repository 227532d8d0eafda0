// nvidia_mma: the accumulator of Ampere's mma (version 2) and Hopper's
// wgmma (version 3), `#ttg.nvidia_mma<{...}>` and
// `gl.NVMMADistributedLayout(...)`.
#include "tilexform/layout/Kind.h"

#include "../KindSupport.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>

namespace tilexform::layout::kinds {

using namespace detail;

namespace {

EncodingPtr parseAttr(AttrFields &f) {
  NvidiaMmaEncoding e;
  bool ok = true;
  for (const std::string &k : f.keys()) {
    if (k == "versionMajor")
      ok = f.uintValue(k, e.versionMajor);
    else if (k == "versionMinor")
      ok = f.uintValue(k, e.versionMinor);
    else if (k == "warpsPerCTA")
      e.warpsPerCTA = f.uintList(k, ok);
    else if (k == "instrShape")
      e.instrShape = f.uintList(k, ok);
    else
      f.takeCga(k, ok); // Triton ignores unknown keys here
    if (!ok)
      return nullptr;
  }
  // Volta's MMA (version 1) was removed from Triton in 2024 and is not
  // modelled: kept by name, as another backend's layout is.
  if (e.versionMajor == 1)
    return makeEncoding(OpaqueEncoding{"ttg.nvidia_mma_v1", f.text()});
  // Before instrShape was written, version 2 meant Ampere's m16n8 tile
  // (Triton's getMMAv2InstrShape then), with a leading 1 per batch dim.
  if (e.instrShape.empty() && e.versionMajor == 2 && !e.warpsPerCTA.empty()) {
    e.instrShape.assign(e.warpsPerCTA.size() - std::min<size_t>(e.warpsPerCTA.size(), 2), 1);
    e.instrShape.push_back(16);
    e.instrShape.push_back(8);
  }
  auto c = f.finishCga(unsigned(e.warpsPerCTA.size()));
  if (!c)
    return nullptr;
  e.cga = *c;
  return makeEncoding(e);
}

std::string print(const Encoding &enc, const AttrPrinter &) {
  const auto &e = *enc.as<NvidiaMmaEncoding>();
  return fmt::format("#ttg.nvidia_mma<{{versionMajor = {}, versionMinor = {}, "
                     "warpsPerCTA = {}{}, instrShape = {}}}>",
                     e.versionMajor, e.versionMinor, listText(e.warpsPerCTA), cgaSuffix(e.cga),
                     listText(e.instrShape));
}

EncodingPtr parseGluon(const GluonArgs &a) {
  NvidiaMmaEncoding e;
  auto ver = a.ints("version");
  if (ver.size() != 2) {
    a.error("NVMMADistributedLayout: version is [major, minor]");
    return nullptr;
  }
  e.versionMajor = ver[0];
  e.versionMinor = ver[1];
  e.warpsPerCTA = a.ints("warps_per_cta");
  e.instrShape = a.ints("instr_shape");
  e.cga = a.cga(unsigned(e.warpsPerCTA.size()));
  return makeEncoding(e);
}

std::optional<std::string> emitGluon(const Encoding &enc, GluonSpelling &g) {
  const auto &e = *enc.as<NvidiaMmaEncoding>();
  return fmt::format("gl.NVMMADistributedLayout(version=[{}, {}], "
                     "warps_per_cta={}, instr_shape={}{})",
                     e.versionMajor, e.versionMinor, listText(e.warpsPerCTA),
                     listText(e.instrShape), g.cga(e.cga, unsigned(e.warpsPerCTA.size())));
}

std::string validate(const Encoding &enc) {
  const auto &e = *enc.as<NvidiaMmaEncoding>();
  size_t r = e.warpsPerCTA.size();
  if (r == 0 || e.instrShape.empty())
    return "nvidia_mma needs 'warpsPerCTA' and 'instrShape'";
  if (auto err = firstError({checkCounts("warpsPerCTA", e.warpsPerCTA, r), checkCga(e.cga, r)});
      !err.empty())
    return err;
  if (r < 2)
    return "nvidia_mma needs rank >= 2";
  if (!allPow2(e.instrShape) ||
      (e.versionMajor == 3 ? e.instrShape.size() != 3 : e.instrShape.size() != r))
    return "nvidia_mma instrShape must be [M, N] per dim (v2) or [M, N, K] (v3), powers of two";
  return "";
}

// Triton's nvidiaMmaTile: one mma tile of `tile` elements, kWidth registers
// along the inner dim.
llvm::Expected<LinearLayout> mmaTile(const std::vector<unsigned> &tile, unsigned kWidth,
                                     const std::vector<unsigned> &order,
                                     const std::vector<unsigned> &repOrder) {
  unsigned rank = unsigned(repOrder.size());
  auto names = standardOutDimNames(int(rank));
  LinearLayout l = identityStandardND("register", std::vector<int32_t>(rank, 1), repOrder);
  unsigned inner = order[0], outer = order[1];
  int32_t m = int32_t(tile[outer]), n = int32_t(tile[inner]);
  if (m < 8 || m % 8 || n < int32_t(kWidth * 4) || n % int32_t(kWidth * 4))
    return misfit("MMA tile does not fit the instruction shape");
  l = l * LinearLayout::identity1D(int32_t(kWidth), "register", names[inner]) *
      LinearLayout::identity1D(4, "lane", names[inner]) *
      LinearLayout::identity1D(8, "lane", names[outer]) *
      LinearLayout::identity1D(m / 8, "register", names[outer]) *
      LinearLayout::identity1D(n / int32_t(kWidth * 4), "register", names[inner]);
  return l;
}

llvm::Expected<LinearLayout> linear(const Encoding &enc, const std::vector<int64_t> &shape) {
  const auto &e = *enc.as<NvidiaMmaEncoding>();
  if (e.warpsPerCTA.size() != shape.size())
    return misfit("nvidia_mma rank differs from the tensor rank");
  unsigned rank = unsigned(shape.size());
  bool hopper = e.versionMajor == 3;
  std::vector<unsigned> tile;
  if (e.versionMajor == 2)
    tile = e.instrShape;
  else if (hopper)
    tile = {e.instrShape.size() > 1 ? e.instrShape[0] : 0u,
            e.instrShape.size() > 1 ? e.instrShape[1] : 0u};
  else
    return misfit(fmt::format("nvidia_mma version {} has no linear layout", e.versionMajor));
  if (tile.size() != rank)
    return misfit("nvidia_mma instrShape rank differs from the tensor rank");
  auto order = matrixOrder(rank, true);
  auto tileLayout = mmaTile(tile, 2, order, order);
  if (!tileLayout)
    return tileLayout.takeError();
  LinearLayout l = *tileLayout;
  l *= identityStandardND("warp", toI32(e.warpsPerCTA), matrixOrder(rank, !hopper))
           .transposeOuts(l.outDimNames());
  auto cga = cgaToLinearLayout(e.cga, rank);
  if (!cga)
    return cga.takeError();
  return combineCtaCgaWithShape(l, *cga, shape);
}

unsigned rank(const Encoding &enc) {
  return unsigned(enc.as<NvidiaMmaEncoding>()->warpsPerCTA.size());
}

unsigned warps(const Encoding &enc) { return product(enc.as<NvidiaMmaEncoding>()->warpsPerCTA); }

llvm::Expected<LinearLayout> dotOperandLinear(const Encoding &parent, const DotOperandEncoding &e,
                                              const std::vector<int64_t> &shape) {
  const auto *n = parent.as<NvidiaMmaEncoding>();
  unsigned rank = unsigned(shape.size());
  if (n->warpsPerCTA.size() != rank)
    return misfit("dot_op parent rank differs from the tensor rank");
  bool hopper = n->versionMajor == 3;
  if (e.kWidth == 0)
    return misfit("dot_op with an nvidia_mma parent needs kWidth");
  if (hopper && e.opIdx != 0)
    return misfit("a Hopper (nvidia_mma v3) dot operand must be operand A");
  std::vector<unsigned> tile(rank, 1);
  unsigned instrM =
      n->instrShape.at(n->instrShape.size() >= 2 ? (hopper ? 0 : n->instrShape.size() - 2) : 0);
  unsigned mult = instrM == 8 ? 4 : 8;
  if (e.opIdx == 0) {
    tile[rank - 2] = instrM;
    tile[rank - 1] = e.kWidth * mult;
  } else {
    tile[rank - 2] = e.kWidth * mult;
    tile[rank - 1] = 8;
  }
  auto order = orderForDotOperand(e.opIdx, rank, true);
  auto tileLayout = mmaTile(tile, e.kWidth, order, order);
  if (!tileLayout)
    return tileLayout.takeError();
  LinearLayout l = *tileLayout;
  unsigned kDim = e.opIdx == 0 ? rank - 1 : rank - 2;
  l *= broadcastedDotOperandLayout(n->warpsPerCTA, matrixOrder(rank, !hopper), kDim, "warp")
           .transposeOuts(l.outDimNames());
  auto cga = dotOperandCga(n->cga, e.opIdx, rank);
  if (!cga)
    return cga.takeError();
  return combineCtaCgaWithShape(l, *cga, shape);
}

} // namespace

KindInfo nvidiaMmaKind() {
  return {.mnemonic = "nvidia_mma",
          .gluonClass = "NVMMADistributedLayout",
          .gluonFields = withGluonCgaFields({"version", "warps_per_cta", "instr_shape"}),
          .variant = variantIndexOf<NvidiaMmaEncoding>(),
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
