// amd_wmma: the accumulator of RDNA's WMMA instructions (gfx11 version 1,
// gfx12 version 2, gfx1250 version 3), `#ttg.amd_wmma<{...}>` and
// `gl.amd.AMDWMMALayout(...)`.
#include "tilexform/layout/Kind.h"

#include "../KindSupport.h"
#include "tilexform/support/Text.h"

#include <algorithm>
#include <fmt/format.h>

namespace tilexform::layout::kinds {

using namespace detail;

namespace {

const std::vector<unsigned> kDefaultInstr = {16, 16, 16};

// Absent tilesPerWarp and instrShape mean all ones and [16, 16, 16]: kept
// empty, so every spelling of one layout is one value.
void normalise(AmdWmmaEncoding &e) {
  if (!anyNotOne(e.tilesPerWarp))
    e.tilesPerWarp.clear();
  if (e.instrShape == kDefaultInstr)
    e.instrShape.clear();
}

// The later `ctaLayout` spelling: a linear layout over whole tiles. It maps
// back to warpsPerCTA/tilesPerWarp when it is the identity that
// chooseWmmaCTALinearLayout builds (dims innermost-first).
bool readCtaLayout(AttrFields &f, AttrFields &ctaLayout, unsigned rank, AmdWmmaEncoding &e) {
  bool ok = true;
  Bases regs, warps;
  if (ctaLayout.has("register"))
    regs = ctaLayout.basesList("register", ok);
  if (ctaLayout.has("warp"))
    warps = ctaLayout.basesList("warp", ok);
  if (!ok)
    return false;
  unsigned r = 0;
  if (!f.basesRank({&regs, &warps}, r))
    return false;
  if (r)
    rank = r;
  e.warpsPerCTA.assign(rank, 1);
  e.tilesPerWarp.assign(rank, 1);
  std::vector<int32_t> seen(rank, 1);
  bool identity = true;
  // Bases must run over dims innermost-first (dim r-1 down to dim 0),
  // doubling along one dim at a time, as chooseWmmaCTALinearLayout emits.
  auto absorb = [&](const Bases &bs, std::vector<unsigned> &count) {
    int lastDim = int(rank);
    for (auto &b : bs) {
      int nz = -1;
      for (unsigned d = 0; d < rank; ++d)
        if (b[d]) {
          if (nz >= 0)
            identity = false;
          nz = int(d);
        }
      if (nz < 0 || b[nz] != seen[nz] || nz > lastDim) {
        identity = false;
        continue;
      }
      lastDim = nz;
      seen[nz] *= 2;
      count[nz] *= 2;
    }
  };
  absorb(regs, e.tilesPerWarp);
  absorb(warps, e.warpsPerCTA);
  if (!identity) {
    f.error("amd_wmma ctaLayout is not expressible as warpsPerCTA/tilesPerWarp (Triton 3.6 "
            "form)");
    return false;
  }
  return true;
}

EncodingPtr parseAttr(AttrFields &f) {
  AmdWmmaEncoding e;
  std::unique_ptr<AttrFields> ctaLayout;
  unsigned rank = 2;
  bool haveWarps = false, ok = true;
  for (const std::string &k : f.keys()) {
    if (k == "version")
      ok = f.uintValue(k, e.version);
    else if (k == "isTranspose" || k == "isTransposed")
      ok = f.boolValue(k, e.isTranspose);
    else if (k == "warpsPerCTA")
      e.warpsPerCTA = f.uintList(k, ok), haveWarps = true;
    else if (k == "tilesPerWarp")
      e.tilesPerWarp = f.uintList(k, ok);
    else if (k == "instrShape")
      e.instrShape = f.uintList(k, ok);
    else if (k == "ctaLayout")
      ctaLayout = f.dictionary(k);
    else if (k == "rank")
      ok = f.uintValue(k, rank);
    else
      f.takeCga(k, ok);
    if (!ok)
      return nullptr;
  }
  if (ctaLayout && !readCtaLayout(f, *ctaLayout, rank, e))
    return nullptr;
  if (!haveWarps && !ctaLayout) {
    f.error("amd_wmma needs 'warpsPerCTA' or 'ctaLayout'");
    return nullptr;
  }
  normalise(e);
  auto c = f.finishCga(unsigned(e.warpsPerCTA.size()));
  if (!c)
    return nullptr;
  e.cga = *c;
  return makeEncoding(e);
}

std::string print(const Encoding &enc, const AttrPrinter &) {
  const auto &e = *enc.as<AmdWmmaEncoding>();
  std::string s =
      fmt::format("#ttg.amd_wmma<{{version = {}, isTranspose = {}, warpsPerCTA = {}{}", e.version,
                  e.isTranspose ? "true" : "false", listText(e.warpsPerCTA), cgaSuffix(e.cga));
  if (anyNotOne(e.tilesPerWarp))
    s += ", tilesPerWarp = " + listText(e.tilesPerWarp);
  if (!e.instrShape.empty() && e.instrShape != kDefaultInstr)
    s += ", instrShape = " + listText(e.instrShape);
  return s + "}>";
}

EncodingPtr parseGluon(const GluonArgs &a) {
  AmdWmmaEncoding e;
  e.version = unsigned(a.integer("version"));
  e.isTranspose = a.boolean("transposed", false);
  e.warpsPerCTA = a.ints("warps_per_cta");
  e.instrShape = a.ints("instr_shape", {});
  e.tilesPerWarp = a.ints("tiles_per_warp", {});
  normalise(e);
  e.cga = a.cga(unsigned(e.warpsPerCTA.size()));
  return makeEncoding(e);
}

std::optional<std::string> emitGluon(const Encoding &enc, GluonSpelling &g) {
  const auto &e = *enc.as<AmdWmmaEncoding>();
  std::string s = fmt::format(
      "gl.amd.AMDWMMALayout(version={}, transposed={}, warps_per_cta={}, instr_shape={}", e.version,
      e.isTranspose ? "True" : "False", listText(e.warpsPerCTA),
      listText(e.instrShape.empty() ? kDefaultInstr : e.instrShape));
  if (anyNotOne(e.tilesPerWarp))
    s += ", tiles_per_warp=" + listText(e.tilesPerWarp);
  return s + g.cga(e.cga, unsigned(e.warpsPerCTA.size())) + ")";
}

std::string validate(const Encoding &enc) {
  const auto &e = *enc.as<AmdWmmaEncoding>();
  size_t r = e.warpsPerCTA.size();
  if (e.version < 1 || e.version > 3)
    return "amd_wmma version must be 1, 2 or 3";
  if (auto err = firstError({checkCounts("warpsPerCTA", e.warpsPerCTA, r), checkCga(e.cga, r)});
      !err.empty())
    return err;
  if (r < 2 || r > 3)
    return "amd_wmma needs rank 2 or 3";
  if (!e.tilesPerWarp.empty())
    if (auto err = checkCounts("tilesPerWarp", e.tilesPerWarp, r); !err.empty())
      return err;
  if (!e.instrShape.empty() && (e.instrShape.size() != 3 || !allPow2(e.instrShape)))
    return "amd_wmma instrShape must be [M, N, K], powers of two";
  return "";
}

// The linear layout Triton 3.6 computes for amd_wmma: one 16x16 tile per
// warp (version 1 and later versions place registers and lanes differently),
// warps over the tiles, then the CGA part.
llvm::Expected<LinearLayout> linear(const Encoding &enc, const std::vector<int64_t> &shape) {
  const auto &e = *enc.as<AmdWmmaEncoding>();
  unsigned rank = unsigned(shape.size());
  if (e.warpsPerCTA.size() != rank || rank < 2)
    return misfit("amd_wmma warpsPerCTA rank differs from the tensor rank");
  auto names = standardOutDimNames(int(rank));
  auto threadOrder = matrixOrder(rank, !e.isTranspose);
  std::vector<std::string> tileOuts = {names[threadOrder[0]], names[threadOrder[1]]};
  LinearLayout tile =
      e.version == 1 ? LinearLayout::inferred({{"register", {{0, 2}, {0, 4}, {0, 8}}},
                                               {"lane", {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}}}},
                                              tileOuts)
                     : LinearLayout::inferred({{"register", {{0, 1}, {0, 2}, {0, 4}}},
                                               {"lane", {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}}}},
                                              tileOuts);
  if (rank == 3) {
    tile *= LinearLayout::identity1D(1, "register", names[0]);
    tile *= LinearLayout::identity1D(1, "lane", names[0]);
  }
  auto warpOrder = matrixOrder(rank, true);
  auto warps = identityStandardND("warp", toI32(e.warpsPerCTA), warpOrder);
  auto repNames = permuteNames(names, matrixOrder(rank, true));
  auto cta = tile.transposeOuts(repNames) * warps.transposeOuts(repNames);
  auto cga = cgaToLinearLayout(e.cga, rank);
  if (!cga)
    return cga.takeError();
  return combineCtaCgaWithShape(cta, *cga, shape);
}

unsigned rank(const Encoding &enc) {
  return unsigned(enc.as<AmdWmmaEncoding>()->warpsPerCTA.size());
}

unsigned warps(const Encoding &enc) { return product(enc.as<AmdWmmaEncoding>()->warpsPerCTA); }

// An operand of a WMMA: kWidth registers along K, the tile's non-K dim over
// lanes (version 1 repeats the K half over the upper lanes, later versions
// split K between them), warps broadcast along K.
llvm::Expected<LinearLayout> dotOperandLinear(const Encoding &parent, const DotOperandEncoding &e,
                                              const std::vector<int64_t> &shape) {
  const auto *w = parent.as<AmdWmmaEncoding>();
  unsigned rank = unsigned(shape.size());
  auto names = standardOutDimNames(int(rank));
  if (w->warpsPerCTA.size() != rank || rank < 2)
    return misfit("dot_op parent rank differs from the tensor rank");
  auto order = orderForDotOperand(e.opIdx, rank, true);
  std::string dimK = names[order[0]], dimNonK = names[order[1]];
  std::vector<unsigned> instr = w->instrShape.empty() ? kDefaultInstr : w->instrShape;
  int32_t kDim = int32_t(instr.at(2));
  int32_t nonKDim = int32_t(e.opIdx == 0 ? instr.at(0) : instr.at(1));
  int32_t kWidth = int32_t(e.kWidth);
  if (kWidth == 0)
    return misfit("dot_op with an amd_wmma parent needs kWidth");
  if (nonKDim <= 0 || nonKDim > 32)
    return misfit(fmt::format("amd_wmma's instruction ({}x{}x{}) has no operand tile", instr.at(0),
                              instr.at(1), kDim));
  int32_t depth = 32 / nonKDim;
  auto tile = LinearLayout::identity1D(kWidth, "register", dimK) *
              LinearLayout::identity1D(nonKDim, "lane", dimNonK);
  tile *= w->version == 1 ? LinearLayout::zeros1D(depth, "lane", dimK)
                          : LinearLayout::identity1D(depth, "lane", dimK);
  tile *= LinearLayout::identity1D(kDim / (depth * kWidth), "register", dimK);
  if (rank == 3) {
    tile *= LinearLayout::identity1D(1, "register", names[order[2]]);
    tile *= LinearLayout::identity1D(1, "lane", names[order[2]]);
  }
  unsigned kIdx = e.opIdx == 0 ? rank - 1 : rank - 2;
  auto warps = broadcastedDotOperandLayout(w->warpsPerCTA, matrixOrder(rank, true), kIdx, "warp");
  auto repNames = permuteNames(names, orderForDotOperand(e.opIdx, rank, true));
  auto cta = tile.transposeOuts(repNames) * warps.transposeOuts(repNames);
  auto cga = dotOperandCga(w->cga, e.opIdx, rank);
  if (!cga)
    return cga.takeError();
  return combineCtaCgaWithShape(cta, *cga, shape);
}

} // namespace

KindInfo amdWmmaKind() {
  return {.mnemonic = "amd_wmma",
          .gluonClass = "AMDWMMALayout",
          .gluonFields = withGluonCgaFields(
              {"version", "transposed", "warps_per_cta", "instr_shape", "tiles_per_warp"}),
          .variant = variantIndexOf<AmdWmmaEncoding>(),
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
