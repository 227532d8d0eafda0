// nvmma_shared: the shared layout TMA writes and wgmma/tcgen05 read (a
// 32-, 64- or 128-byte swizzle or none), `#ttg.nvmma_shared<{...}>` and
// `gl.NVMMASharedLayout(...)`.
#include "tilexform/layout/Kind.h"
#include "tilexform/layout/Validate.h"

#include "../KindSupport.h"
#include "tilexform/support/Text.h"

#include <algorithm>
#include <fmt/format.h>

namespace tilexform::layout::kinds {

using namespace detail;

namespace {

EncodingPtr parseAttr(AttrFields &f) {
  NVMMASharedEncoding e;
  bool ok = true, haveSwizzle = false, haveBits = false, haveRank = false;
  for (const std::string &k : f.keys()) {
    if (k == "swizzlingByteWidth")
      haveSwizzle = ok = f.uintValue(k, e.swizzlingByteWidth);
    else if (k == "transposed")
      ok = f.boolValue(k, e.transposed);
    else if (k == "elementBitWidth")
      haveBits = ok = f.uintValue(k, e.elementBitWidth);
    else if (k == "fp4Padded")
      ok = f.boolValue(k, e.fp4Padded);
    else if (k == "rank")
      haveRank = ok = f.uintValue(k, e.rank);
    else if (!f.takeCga(k, ok)) {
      f.error("unexpected key: " + k);
      return nullptr;
    }
    if (!ok)
      return nullptr;
  }
  if (!haveSwizzle) {
    f.error("nvmma_shared needs 'swizzlingByteWidth' and 'elementBitWidth'");
    return nullptr;
  }
  if (!haveRank && f.cgaRank())
    e.rank = f.cgaRank();
  auto c = f.finishCga(e.rank);
  if (!c)
    return nullptr;
  e.cga = *c;
  if (!haveBits || e.elementBitWidth == 0) {
    // Written before elementBitWidth moved into the attribute (early
    // 2025), or as 0: the width is the element type's, known at each
    // memdesc that uses it, exactly as for the older #ttg.shared with
    // hasLeadingOffset. Its other fields are checked as written, with a
    // stand-in width.
    NVMMASharedEncoding written = e;
    written.elementBitWidth = 16;
    if (std::string invalid = validateEncoding(Encoding{written}); !invalid.empty()) {
      f.error(invalid);
      return nullptr;
    }
    return makeEncoding(legacySharedOf(e));
  }
  return makeEncoding(e);
}

std::string print(const Encoding &enc, const AttrPrinter &) {
  const auto &e = *enc.as<NVMMASharedEncoding>();
  std::string s =
      fmt::format("#ttg.nvmma_shared<{{swizzlingByteWidth = {}, transposed = "
                  "{}, elementBitWidth = {}",
                  e.swizzlingByteWidth, e.transposed ? "true" : "false", e.elementBitWidth);
  if (e.fp4Padded)
    s += ", fp4Padded = true";
  if (e.cga.bases.empty()) {
    if (e.rank != 2)
      s += fmt::format(", rank = {}", e.rank);
  } else {
    s += cgaSuffix(e.cga);
  }
  return s + "}>";
}

EncodingPtr parseGluon(const GluonArgs &a) {
  NVMMASharedEncoding e;
  e.swizzlingByteWidth = unsigned(a.integer("swizzle_byte_width"));
  e.elementBitWidth = unsigned(a.integer("element_bitwidth"));
  e.rank = unsigned(a.integer("rank", 2));
  e.transposed = a.boolean("transposed", false);
  e.fp4Padded = a.boolean("fp4_padded", false);
  e.cga = a.cga(e.rank);
  return makeEncoding(e);
}

std::optional<std::string> emitGluon(const Encoding &enc, GluonSpelling &g) {
  const auto &e = *enc.as<NVMMASharedEncoding>();
  std::string s = fmt::format("gl.NVMMASharedLayout(swizzle_byte_width={}, element_bitwidth={}",
                              e.swizzlingByteWidth, e.elementBitWidth);
  // Before 3.6 `rank` had no default.
  if (e.rank != 2 || g.api35())
    s += fmt::format(", rank={}", e.rank);
  if (e.transposed)
    s += ", transposed=True";
  if (e.fp4Padded)
    s += ", fp4_padded=True";
  return s + g.cga(e.cga, e.rank) + ")";
}

std::string validate(const Encoding &enc) {
  const auto &e = *enc.as<NVMMASharedEncoding>();
  if (e.swizzlingByteWidth != 0 && e.swizzlingByteWidth != 32 && e.swizzlingByteWidth != 64 &&
      e.swizzlingByteWidth != 128)
    return "swizzlingByteWidth must be 0, 32, 64 or 128";
  if (e.elementBitWidth == 0 || !isPow2(e.elementBitWidth) || e.elementBitWidth > 64)
    return "elementBitWidth must be 1, 2, 4, ..., 64";
  if (e.rank == 0 || e.rank > 8)
    return "nvmma_shared rank must be 1 to 8";
  return checkCga(e.cga, e.rank);
}

// Triton's nvmmaSharedToLinearLayout: the swizzled 8-row tile over the TMA
// block, reshaped to the block's dims (K-major when transposed).
llvm::Expected<LinearLayout> linear(const Encoding &enc, const std::vector<int64_t> &shape) {
  const auto &e = *enc.as<NVMMASharedEncoding>();
  unsigned rank = unsigned(shape.size());
  if (e.rank != rank)
    return misfit(
        fmt::format("nvmma_shared layout has rank {} but the shape has rank {}", e.rank, rank));
  auto spc = shapePerCTA(e.cga, shape);
  auto names = standardOutDimNames(int(rank));
  // The TMA block shape (tiled mode, packed size).
  std::vector<int64_t> bs = spc;
  unsigned contig = e.transposed ? 0 : rank - 1;
  if (e.fp4Padded)
    bs[contig] *= 2;
  for (auto &v : bs)
    v = std::min<int64_t>(v, 256);
  if (e.swizzlingByteWidth != 0) {
    int64_t need = 8 * int64_t(e.swizzlingByteWidth) / e.elementBitWidth;
    if (bs[contig] < need)
      return misfit(fmt::format("nvmma_shared with {}-byte swizzle needs at least {} "
                                "elements along the contiguous dim",
                                e.swizzlingByteWidth, need));
    bs[contig] = need;
  }
  if (e.fp4Padded)
    bs[contig] /= 2;
  for (auto v : bs)
    if (!isPow2(v))
      return misfit("nvmma_shared block shape is not a power of two");
  auto cgaOrErr = cgaToLinearLayout(e.cga, rank);
  if (!cgaOrErr)
    return cgaOrErr.takeError();
  const LinearLayout &cga = *cgaOrErr;
  auto labeledSpc = labeledShape(spc);
  if (e.swizzlingByteWidth == 0) {
    LinearLayout l = LinearLayout::identity1D(int32_t(bs[rank - 1]), "offset", names[rank - 1]);
    for (int i = int(rank) - 2; i >= 0; --i)
      l *= LinearLayout::identity1D(int32_t(bs[i]), "offset", names[i]);
    l = ensureLayoutNotSmallerThan(l, labeledSpc);
    return combineCtaCgaWithShape(l, cga, shape);
  }
  int64_t coll0 = 1, coll1 = bs.back();
  for (unsigned i = 0; i + 1 < rank; ++i)
    coll0 *= bs[i];
  if (e.transposed)
    std::swap(coll0, coll1);
  unsigned vec = 128 / e.elementBitWidth;
  unsigned perPhase = 128 / e.swizzlingByteWidth;
  unsigned maxPhase = e.swizzlingByteWidth / 16;
  int32_t tileRows = 8;
  int32_t tileCols = int32_t(8 * std::max(16u, e.swizzlingByteWidth) / e.elementBitWidth);
  Bases bases2D;
  auto pack = [&](int32_t x) { return e.fp4Padded ? x / 16 * 8 + x % 8 : x; };
  for (int32_t c = 1; c < tileCols; c *= 2)
    bases2D.push_back({0, pack(c)});
  for (int32_t r = 1; r < tileRows; r *= 2)
    bases2D.push_back({r, pack(int32_t(vec * ((r / perPhase) % maxPhase)))});
  auto tile = LinearLayout::inferred({{"offset", bases2D}}, standardOutDimNames(2));
  int64_t packing = e.fp4Padded ? 2 : 1;
  if (coll1 * packing < tile.outDimSize("dim1") || coll0 < tile.outDimSize("dim0"))
    return misfit("illegal nvmma_shared layout for this shape");
  auto l = ensureLayoutNotSmallerThan(tile, {{"dim0", coll0}, {"dim1", coll1}});
  std::vector<int64_t> m = bs;
  if (e.transposed)
    std::rotate(m.begin(), m.begin() + 1, m.end());
  l = reshapeLayout(l, m);
  if (e.transposed) {
    std::vector<int> order = {int(rank) - 1};
    for (int i = 0; i + 1 < int(rank); ++i)
      order.push_back(i);
    l = transposeLinearLayout(l, order);
  }
  l = ensureLayoutNotSmallerThan(l, labeledSpc);
  return combineCtaCgaWithShape(l, cga, shape);
}

unsigned rank(const Encoding &enc) { return enc.as<NVMMASharedEncoding>()->rank; }

/// `NVMMA_SHARED_128B`; `_T` transposed, the element width where it is not
/// 16 bits, `_FP4PADDED` and the rank where it is not 2.
std::string constantName(const Encoding &enc) {
  const auto &e = *enc.as<NVMMASharedEncoding>();
  std::string name = fmt::format("NVMMA_SHARED_{}B", e.swizzlingByteWidth);
  if (e.transposed)
    name += "_T";
  if (e.elementBitWidth != 16)
    name += fmt::format("_{}BIT", e.elementBitWidth);
  if (e.fp4Padded)
    name += "_FP4PADDED";
  if (e.rank != 2)
    name += fmt::format("_{}D", e.rank);
  return name;
}

} // namespace

KindInfo nvmmaSharedKind() {
  return {.mnemonic = "nvmma_shared",
          .gluonClass = "NVMMASharedLayout",
          .gluonFields = withGluonCgaFields(
              {"swizzle_byte_width", "element_bitwidth", "rank", "transposed", "fp4_padded"}),
          .variant = variantIndexOf<NVMMASharedEncoding>(),
          .role = KindRole::Shared,
          .parseAttr = parseAttr,
          .print = print,
          .parseGluon = parseGluon,
          .emitGluon = emitGluon,
          .validate = validate,
          .linear = linear,
          .rank = rank,
          .constantName = constantName};
}

} // namespace tilexform::layout::kinds
