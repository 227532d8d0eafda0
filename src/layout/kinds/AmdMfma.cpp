// amd_mfma: the accumulator of CDNA's MFMA instructions (gfx908 version 1
// to gfx950 version 4), `#ttg.amd_mfma<{...}>` and `gl.amd.AMDMFMALayout(...)`.
#include "tilexform/layout/Kind.h"

#include "../KindSupport.h"
#include "tilexform/support/Text.h"

#include <algorithm>
#include <fmt/format.h>

namespace tilexform::layout::kinds {

using namespace detail;

namespace {

// MLIR's K for the pre-3.6 two-element instrShape (16-bit operands).
unsigned legacyMfmaK(unsigned version, unsigned m) {
  bool cdna4 = version >= 4;
  if (m == 32)
    return cdna4 ? 16 : 8;
  if (m == 16)
    return cdna4 ? 32 : 16;
  return 4;
}

EncodingPtr parseAttr(AttrFields &f) {
  AmdMfmaEncoding e;
  bool ok = true;
  bool haveTransposed = false, haveVersion = false, haveWarps = false, haveInstr = false;
  for (const std::string &k : f.keys()) {
    if (k == "version" || k == "versionMajor")
      haveVersion = ok = f.uintValue(k, e.version);
    else if (k == "versionMinor")
      continue;
    else if (k == "warpsPerCTA")
      e.warpsPerCTA = f.uintList(k, ok), haveWarps = true;
    else if (k == "instrShape")
      e.instrShape = f.uintList(k, ok), haveInstr = true;
    else if (k == "isTransposed" || k == "isTranspose") // older hand-written spelling
      haveTransposed = ok = f.boolValue(k, e.isTransposed);
    else if (k == "tilesPerWarp")
      e.tilesPerWarp = f.uintList(k, ok);
    else if (k == "elementBitWidth")
      ok = f.uintValue(k, e.elementBitWidth);
    else if (k == "elementType")
      e.elementBitWidth = f.typeText(k) == "f64" ? 64 : 32;
    else
      f.takeCga(k, ok);
    if (!ok)
      return nullptr;
  }
  // Before `version` (and `versionMajor`) were required, Triton's parser
  // left an absent version at 0.
  if (!haveVersion && haveWarps && haveInstr)
    haveVersion = true;
  if (!haveVersion || !haveWarps || !haveInstr || !haveTransposed) {
    f.error("amd_mfma needs 'version', 'warpsPerCTA', 'instrShape' and "
            "'isTransposed'");
    return nullptr;
  }
  if (e.instrShape.size() == 2)
    e.instrShape.push_back(legacyMfmaK(e.version, e.instrShape[0]));
  if (std::all_of(e.tilesPerWarp.begin(), e.tilesPerWarp.end(), [](unsigned t) { return t == 1; }))
    e.tilesPerWarp.clear();
  auto c = f.finishCga(unsigned(e.warpsPerCTA.size()));
  if (!c)
    return nullptr;
  e.cga = *c;
  return makeEncoding(e);
}

std::string print(const Encoding &enc, const AttrPrinter &) {
  const auto &e = *enc.as<AmdMfmaEncoding>();
  std::string s = fmt::format("#ttg.amd_mfma<{{version = {}, warpsPerCTA = {}, instrShape "
                              "= {}, isTransposed = {}{}",
                              e.version, listText(e.warpsPerCTA), listText(e.instrShape),
                              e.isTransposed ? "true" : "false", cgaSuffix(e.cga));
  if (anyNotOne(e.tilesPerWarp))
    s += ", tilesPerWarp = " + listText(e.tilesPerWarp);
  if (e.elementBitWidth != 32)
    s += fmt::format(", elementBitWidth = {}", e.elementBitWidth);
  return s + "}>";
}

EncodingPtr parseGluon(const GluonArgs &a) {
  AmdMfmaEncoding e;
  e.version = unsigned(a.integer("version"));
  e.instrShape = a.ints("instr_shape");
  e.isTransposed = a.boolean("transposed", false);
  e.warpsPerCTA = a.ints("warps_per_cta");
  e.elementBitWidth = unsigned(a.integer("element_bitwidth", 32));
  e.tilesPerWarp = a.ints("tiles_per_warp", {});
  if (std::all_of(e.tilesPerWarp.begin(), e.tilesPerWarp.end(), [](unsigned t) { return t == 1; }))
    e.tilesPerWarp.clear();
  e.cga = a.cga(unsigned(e.warpsPerCTA.size()));
  return makeEncoding(e);
}

std::optional<std::string> emitGluon(const Encoding &enc, GluonSpelling &g) {
  const auto &e = *enc.as<AmdMfmaEncoding>();
  std::string s = fmt::format("gl.amd.AMDMFMALayout(version={}, instr_shape={}, "
                              "transposed={}, warps_per_cta={}",
                              e.version, listText(e.instrShape), e.isTransposed ? "True" : "False",
                              listText(e.warpsPerCTA));
  if (e.elementBitWidth != 32)
    s += fmt::format(", element_bitwidth={}", e.elementBitWidth);
  if (anyNotOne(e.tilesPerWarp))
    s += ", tiles_per_warp=" + listText(e.tilesPerWarp);
  return s + g.cga(e.cga, unsigned(e.warpsPerCTA.size())) + ")";
}

std::string validate(const Encoding &enc) {
  const auto &e = *enc.as<AmdMfmaEncoding>();
  size_t r = e.warpsPerCTA.size();
  if (e.instrShape.size() != 3)
    return "amd_mfma instrShape must be [M, N, K], powers of two";
  auto mn = std::make_pair(e.instrShape[0], e.instrShape[1]);
  if (mn != std::make_pair(32u, 32u) && mn != std::make_pair(16u, 16u) &&
      mn != std::make_pair(64u, 4u) && mn != std::make_pair(4u, 64u))
    return "amd_mfma instrShape (M, N) must be 32x32, 16x16, 64x4 or 4x64";
  if (!isPow2(e.instrShape[2]))
    return "amd_mfma instrShape must be [M, N, K], powers of two";
  if (e.elementBitWidth != 32 && e.elementBitWidth != 64)
    return "amd_mfma elementBitWidth must be 32 or 64";
  if (!e.tilesPerWarp.empty() && e.tilesPerWarp.size() != r)
    return "amd_mfma tilesPerWarp must have one entry per dim";
  if (auto err = firstError({checkCounts("warpsPerCTA", e.warpsPerCTA, r), checkCga(e.cga, r)});
      !err.empty())
    return err;
  if (r < 2 || r > 3)
    return "amd_mfma needs rank 2 or 3";
  if (!e.tilesPerWarp.empty() && !allPow2(e.tilesPerWarp))
    return "tilesPerWarp entries must be powers of two";
  // Triton's verifier: version 0 (unset, pre-3.5 tests) to 4 (gfx950).
  if (e.version > 4)
    return "amd_mfma version must be 0 to 4";
  return "";
}

llvm::Expected<LinearLayout> linear(const Encoding &enc, const std::vector<int64_t> &shape) {
  const auto &e = *enc.as<AmdMfmaEncoding>();
  unsigned rank = unsigned(shape.size());
  if (e.warpsPerCTA.size() != rank)
    return misfit("amd_mfma warpsPerCTA rank differs from the tensor rank");
  if (e.instrShape.size() < 2 || (!e.tilesPerWarp.empty() && e.tilesPerWarp.size() != rank))
    return misfit("amd_mfma instrShape or tilesPerWarp does not fit the tensor rank");
  bool batch = rank == 3;
  unsigned mIndex = batch ? 1 : 0, nIndex = batch ? 2 : 1;
  auto names = standardOutDimNames(int(rank));
  auto order = matrixOrder(rank, true);
  std::string dimM = names[order[1]], dimN = names[order[0]];
  int32_t mDim = int32_t(e.instrShape.at(0)), nDim = int32_t(e.instrShape.at(1));
  int32_t height = e.elementBitWidth == 64 ? 1 : 4;
  const int32_t warpSize = 64;
  int32_t tiles = (mDim * nDim) / (warpSize * height);
  LinearLayout tile;
  if (!e.isTransposed) {
    tile = LinearLayout::identity1D(height, "register", dimM) *
           (LinearLayout::identity1D(nDim, "lane", dimN) *
            LinearLayout::identity1D(warpSize / nDim, "lane", dimM));
    if (tiles > 0)
      tile *= LinearLayout::identity1D(tiles, "register", dimM);
  } else {
    tile = LinearLayout::identity1D(height, "register", dimN) *
           (LinearLayout::identity1D(mDim, "lane", dimM) *
            LinearLayout::identity1D(warpSize / mDim, "lane", dimN));
    if (tiles > 0)
      tile *= LinearLayout::identity1D(tiles, "register", dimN);
  }
  tile = tile.transposeOuts({dimN, dimM});
  std::vector<unsigned> tpw = e.tilesPerWarp;
  if (tpw.empty())
    tpw.assign(rank, 1);
  tile *= LinearLayout::identity1D(int32_t(tpw.at(nIndex)), "register", dimN);
  tile *= LinearLayout::identity1D(int32_t(e.warpsPerCTA[nIndex]), "warp", dimN);
  // A shape smaller than the tile over the warps gives size 0: no
  // register bases (Triton's identity1D(0) is the empty layout).
  tile *= LinearLayout::identity1D(
      int32_t(shape[nIndex] / (int64_t(nDim) * e.warpsPerCTA[nIndex] * tpw[nIndex])), "register",
      dimN);
  tile *= LinearLayout::identity1D(int32_t(tpw.at(mIndex)), "register", dimM);
  tile *= LinearLayout::identity1D(int32_t(e.warpsPerCTA[mIndex]), "warp", dimM);
  if (batch) {
    tile *= LinearLayout::identity1D(1, "register", names[order[2]]);
    tile *= LinearLayout::identity1D(1, "lane", names[order[2]]);
    tile *= LinearLayout::identity1D(int32_t(e.warpsPerCTA[0]), "warp", names[order[2]]);
  }
  auto cga = cgaToLinearLayout(e.cga, rank);
  if (!cga)
    return cga.takeError();
  return combineCtaCgaWithShape(tile, *cga, shape);
}

unsigned rank(const Encoding &enc) {
  return unsigned(enc.as<AmdMfmaEncoding>()->warpsPerCTA.size());
}

unsigned warps(const Encoding &enc) { return product(enc.as<AmdMfmaEncoding>()->warpsPerCTA); }

llvm::Expected<LinearLayout> dotOperandLinear(const Encoding &parent, const DotOperandEncoding &e,
                                              const std::vector<int64_t> &shape) {
  const auto *m = parent.as<AmdMfmaEncoding>();
  unsigned rank = unsigned(shape.size());
  auto names = standardOutDimNames(int(rank));
  if (m->warpsPerCTA.size() != rank || rank < 2)
    return misfit("dot_op parent rank differs from the tensor rank");
  if (m->instrShape.size() < 2 || (!m->tilesPerWarp.empty() && m->tilesPerWarp.size() != rank))
    return misfit("amd_mfma instrShape or tilesPerWarp does not fit the tensor rank");
  int32_t kWidth = int32_t(e.kWidth);
  if (kWidth == 0)
    return misfit("dot_op with an amd_mfma parent needs kWidth");
  unsigned nonKIdx = e.opIdx == 0 ? rank - 2 : rank - 1;
  std::vector<unsigned> tpw = m->tilesPerWarp;
  if (tpw.empty())
    tpw.assign(rank, 1);
  int32_t mDim = int32_t(m->instrShape.at(0)), nDim = int32_t(m->instrShape.at(1));
  int32_t nonKDim = e.opIdx == 0 ? mDim : nDim;
  const int32_t warpSize = 64;
  unsigned kIdx = e.opIdx == 0 ? rank - 1 : rank - 2;
  int64_t kSize = shape[kIdx];
  auto order = orderForDotOperand(e.opIdx, rank, true);
  std::string dimK = names[order[0]], dimNonK = names[order[1]];
  auto tile = LinearLayout::identity1D(kWidth, "register", dimK) *
              (LinearLayout::identity1D(nonKDim, "lane", dimNonK) *
               LinearLayout::identity1D(warpSize / nonKDim, "lane", dimK));
  int64_t kTile = int64_t(warpSize / nonKDim) * kWidth;
  if ((mDim == 64 && nDim == 4 && e.opIdx == 0) || (mDim == 4 && nDim == 64 && e.opIdx == 1)) {
    tile *= LinearLayout::identity1D(16, "register", dimK);
    kTile *= 16;
  }
  if (kSize > kTile)
    tile *= LinearLayout::identity1D(int32_t(kSize / kTile), "register", dimK);
  tile *= LinearLayout::identity1D(int32_t(tpw[nonKIdx]), "register", dimNonK);
  tile = tile.transposeOuts({dimK, dimNonK});
  if (rank == 3) {
    tile *= LinearLayout::identity1D(1, "register", names[order[2]]);
    tile *= LinearLayout::identity1D(1, "lane", names[order[2]]);
  }
  auto warps = identityStandardND("warp", toI32(m->warpsPerCTA), matrixOrder(rank, true));
  auto cta = tile * warps;
  auto cga = cgaToLinearLayout(m->cga, rank);
  if (!cga)
    return cga.takeError();
  return combineCtaCgaWithShape(cta, *cga, shape).transposeOuts(names);
}

} // namespace

KindInfo amdMfmaKind() {
  return {.mnemonic = "amd_mfma",
          .gluonClass = "AMDMFMALayout",
          .gluonFields =
              withGluonCgaFields({"version", "instr_shape", "transposed", "warps_per_cta",
                                  "element_bitwidth", "tiles_per_warp"}),
          .variant = variantIndexOf<AmdMfmaEncoding>(),
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
