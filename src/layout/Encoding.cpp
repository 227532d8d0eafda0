#include "tilexform/layout/Encoding.h"
#include "tilexform/layout/Kind.h"

#include "KindSupport.h"
#include "tilexform/support/Text.h"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace tilexform::layout {

bool SliceEncoding::operator==(const SliceEncoding &o) const {
  return dim == o.dim && parent && o.parent && *parent == *o.parent;
}

bool DotOperandEncoding::operator==(const DotOperandEncoding &o) const {
  return opIdx == o.opIdx && kWidth == o.kWidth && parent && o.parent && *parent == *o.parent;
}

namespace detail {

[[noreturn]] void fail(const std::string &msg) { throw std::invalid_argument(msg); }

bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

std::vector<unsigned> matrixOrder(unsigned rank, bool rowMajor) {
  std::vector<unsigned> order;
  for (int i = int(rank) - 1; i >= 0; --i)
    order.push_back(unsigned(i));
  if (!rowMajor && rank >= 2)
    std::swap(order[0], order[1]);
  return order;
}

std::vector<std::string> permuteNames(const std::vector<std::string> &names,
                                      const std::vector<unsigned> &order) {
  std::vector<std::string> r;
  for (unsigned i : order)
    r.push_back(names.at(i));
  return r;
}

std::vector<int32_t> toI32(const std::vector<unsigned> &v) {
  return std::vector<int32_t>(v.begin(), v.end());
}

std::string cgaSuffix(const CGALayout &cga) {
  if (cga.bases.empty())
    return "";
  return ", CGALayout = " + basesText(cga.bases);
}

bool anyNotOne(const std::vector<unsigned> &v) {
  return std::any_of(v.begin(), v.end(), [](unsigned t) { return t != 1; });
}

} // namespace detail

namespace {

using namespace detail;

std::vector<unsigned> orderForDotOperand(unsigned opIdx, unsigned rank, bool kContig) {
  return matrixOrder(rank, (opIdx == 1) != kContig);
}

LinearLayout broadcastedDotOperandLayout(const std::vector<unsigned> &sizes,
                                         const std::vector<unsigned> &order, unsigned kDim,
                                         const std::string &in) {
  auto names = standardOutDimNames(int(sizes.size()));
  LinearLayout l;
  for (unsigned d : order) {
    if (d == kDim)
      l *= LinearLayout::zeros1D(int32_t(sizes[d]), in, names[d]);
    else
      l *= LinearLayout::identity1D(int32_t(sizes[d]), in, names[d]);
  }
  return l;
}

std::vector<unsigned> ctaSplitNum(const CGALayout &cga, unsigned rank) {
  std::vector<unsigned> split(rank, 1);
  for (auto &b : cga.bases)
    for (size_t d = 0; d < b.size() && d < rank; ++d)
      if (b[d] != 0) {
        split[d] *= 2;
        break;
      }
  return split;
}

std::vector<int64_t> shapePerCTA(const CGALayout &cga, const std::vector<int64_t> &shape) {
  auto split = ctaSplitNum(cga, unsigned(shape.size()));
  std::vector<int64_t> r;
  for (size_t i = 0; i < shape.size(); ++i)
    r.push_back(shape[i] / std::min<int64_t>(shape[i], split[i]));
  return r;
}

// ---- printing ---------------------------------------------------------------

struct Printer {
  AliasLookup aliasOf = nullptr;
  const void *ctx = nullptr;

  std::string nested(const EncodingPtr &p) const {
    if (!p)
      return "<null>";
    if (aliasOf) {
      std::string a = aliasOf(*p, ctx);
      if (!a.empty())
        return a;
    }
    return print(*p);
  }

  std::string print(const Encoding &enc) const {
    if (const KindInfo *kind = kindOf(enc))
      return kind->print(enc);
    return std::visit(
        Overloaded{
            [&](const BlockedEncoding &e) {
              return fmt::format("#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, "
                                 "warpsPerCTA = {}, order = {}{}}}>",
                                 listText(e.sizePerThread), listText(e.threadsPerWarp),
                                 listText(e.warpsPerCTA), listText(e.order), cgaSuffix(e.cga));
            },
            [&](const SliceEncoding &e) {
              return fmt::format("#ttg.slice<{{dim = {}, parent = {}}}>", e.dim, nested(e.parent));
            },
            [&](const DotOperandEncoding &e) {
              std::string k = e.kWidth ? fmt::format(", kWidth = {}", e.kWidth) : "";
              return fmt::format("#ttg.dot_op<{{opIdx = {}, parent = {}{}}}>", e.opIdx,
                                 nested(e.parent), k);
            },
            [&](const NvidiaMmaEncoding &e) {
              return fmt::format("#ttg.nvidia_mma<{{versionMajor = {}, versionMinor = {}, "
                                 "warpsPerCTA = {}{}, instrShape = {}}}>",
                                 e.versionMajor, e.versionMinor, listText(e.warpsPerCTA),
                                 cgaSuffix(e.cga), listText(e.instrShape));
            },
            [&](const AmdMfmaEncoding &e) {
              std::string s =
                  fmt::format("#ttg.amd_mfma<{{version = {}, warpsPerCTA = {}, instrShape "
                              "= {}, isTransposed = {}{}",
                              e.version, listText(e.warpsPerCTA), listText(e.instrShape),
                              e.isTransposed ? "true" : "false", cgaSuffix(e.cga));
              if (std::any_of(e.tilesPerWarp.begin(), e.tilesPerWarp.end(),
                              [](unsigned t) { return t != 1; }))
                s += ", tilesPerWarp = " + listText(e.tilesPerWarp);
              if (e.elementBitWidth != 32)
                s += fmt::format(", elementBitWidth = {}", e.elementBitWidth);
              return s + "}>";
            },
            [&](const LinearEncoding &e) {
              std::vector<std::string> parts;
              for (auto &[name, bases] : e.ll.bases())
                parts.push_back(name + " = " + basesText(bases));
              return fmt::format("#ttg.{}<{{{}}}>", e.generic ? "generic_linear" : "linear",
                                 fmt::join(parts, ", "));
            },
            [&](const SwizzledSharedEncoding &e) {
              return fmt::format("#ttg.{}<{{vec = {}, perPhase = {}, maxPhase = {}, order = "
                                 "{}{}}}>",
                                 e.rotating ? "amd_rotating_shared" : "swizzled_shared", e.vec,
                                 e.perPhase, e.maxPhase, listText(e.order), cgaSuffix(e.cga));
            },
            [&](const NVMMASharedEncoding &e) {
              std::string s = fmt::format(
                  "#ttg.nvmma_shared<{{swizzlingByteWidth = {}, transposed = "
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
            },
            [&](const SharedLinearEncoding &e) {
              std::string s = "#ttg.shared_linear<{offset = " + basesText(e.ll.basesOf("offset"));
              if (!e.ll.basesOf("block").empty())
                s += ", block = " + basesText(e.ll.basesOf("block"));
              return s + fmt::format("}}, alignment = {}>", e.alignment);
            },
            [&](const PaddedSharedEncoding &e) {
              std::vector<std::string> pairs;
              for (auto &[i, p] : e.intervalPaddings)
                pairs.push_back(fmt::format("{}:+{}", i, p));
              std::string s = fmt::format("#ttg.padded_shared<[{}] ", fmt::join(pairs, ", "));
              if (!e.orderOnly.empty())
                return s + fmt::format("{{order = {}}}>", listText(e.orderOnly));
              // The short form when the offsets are an identity in some order.
              const auto &off = e.linear.basesOf("offset");
              unsigned rank = unsigned(e.linear.numOutDims());
              if (e.linear.basesOf("block").empty()) {
                std::vector<unsigned> order;
                std::vector<int32_t> shape(rank, 1);
                bool ok = true;
                int expectDim = -1;
                int32_t expectVal = 1;
                for (auto &b : off) {
                  int nz = -1;
                  for (unsigned d = 0; d < rank; ++d)
                    if (b[d] != 0) {
                      if (nz >= 0)
                        ok = false;
                      nz = int(d);
                    }
                  if (nz < 0 || !ok) {
                    ok = false;
                    break;
                  }
                  if (nz != expectDim) {
                    if (std::find(order.begin(), order.end(), unsigned(nz)) != order.end()) {
                      ok = false;
                      break;
                    }
                    order.push_back(unsigned(nz));
                    expectDim = nz;
                    expectVal = 1;
                  }
                  if (b[nz] != expectVal) {
                    ok = false;
                    break;
                  }
                  expectVal *= 2;
                  shape[nz] = expectVal;
                }
                if (ok) {
                  for (unsigned d = 0; d < rank; ++d)
                    if (std::find(order.begin(), order.end(), d) == order.end())
                      order.push_back(d);
                  std::vector<unsigned> ushape;
                  for (auto &[n, sz] : e.linear.outDims())
                    ushape.push_back(unsigned(sz));
                  return s + fmt::format("{{order = {}, shape = {}}}>", listText(order),
                                         listText(ushape));
                }
              }
              return s + fmt::format("{{offset = {}, block = {}}}>", basesText(off),
                                     basesText(e.linear.basesOf("block")));
            },
            [&](const LegacySharedEncoding &e) {
              std::vector<unsigned> ord = e.order;
              return fmt::format("#ttg.shared<{{vec = {}, perPhase = {}, maxPhase = {}, order "
                                 "= {}{}, hasLeadingOffset = {}}}>",
                                 e.vec, e.perPhase, e.maxPhase, listText(ord), cgaSuffix(e.cga),
                                 e.hasLeadingOffset ? "true" : "false");
            },
            [&](const OpaqueEncoding &e) { return e.text; },
            // The kinds of kindTable(), printed above.
            [&](const auto &) { return std::string(); }},
        enc.value);
  }
};

// ---- linear layouts ---------------------------------------------------------

std::vector<std::pair<std::string, int64_t>> labeledShape(const std::vector<int64_t> &shape) {
  std::vector<std::pair<std::string, int64_t>> r;
  for (size_t i = 0; i < shape.size(); ++i)
    r.emplace_back("dim" + std::to_string(i), shape[i]);
  return r;
}

LinearLayout blockedLL(const BlockedEncoding &e, const std::vector<int64_t> &shape) {
  auto cta = identityStandardND("register", toI32(e.sizePerThread), e.order) *
             identityStandardND("lane", toI32(e.threadsPerWarp), e.order) *
             identityStandardND("warp", toI32(e.warpsPerCTA), e.order);
  return combineCtaCgaWithShape(cta, cgaToLinearLayout(e.cga, unsigned(shape.size())), shape);
}

LinearLayout nvidiaMmaTile(const std::vector<unsigned> &tile, unsigned kWidth,
                           const std::vector<unsigned> &order,
                           const std::vector<unsigned> &repOrder) {
  unsigned rank = unsigned(repOrder.size());
  auto names = standardOutDimNames(int(rank));
  LinearLayout l = identityStandardND("register", std::vector<int32_t>(rank, 1), repOrder);
  unsigned inner = order[0], outer = order[1];
  int32_t m = int32_t(tile[outer]), n = int32_t(tile[inner]);
  if (m % 8 || n % int32_t(kWidth * 4))
    fail("MMA tile does not fit the instruction shape");
  l = l * LinearLayout::identity1D(int32_t(kWidth), "register", names[inner]) *
      LinearLayout::identity1D(4, "lane", names[inner]) *
      LinearLayout::identity1D(8, "lane", names[outer]) *
      LinearLayout::identity1D(m / 8, "register", names[outer]) *
      LinearLayout::identity1D(n / int32_t(kWidth * 4), "register", names[inner]);
  return l;
}

LinearLayout nvidiaMmaLL(const NvidiaMmaEncoding &e, const std::vector<int64_t> &shape) {
  unsigned rank = unsigned(shape.size());
  bool hopper = e.versionMajor == 3;
  std::vector<unsigned> tile;
  if (e.versionMajor == 2)
    tile = e.instrShape;
  else if (hopper)
    tile = {e.instrShape.at(0), e.instrShape.at(1)};
  else
    fail(fmt::format("nvidia_mma version {} has no linear layout", e.versionMajor));
  if (tile.size() != rank)
    fail("nvidia_mma instrShape rank differs from the tensor rank");
  auto order = matrixOrder(rank, true);
  auto l = nvidiaMmaTile(tile, 2, order, order);
  l *= identityStandardND("warp", toI32(e.warpsPerCTA), matrixOrder(rank, !hopper))
           .transposeOuts(l.outDimNames());
  return combineCtaCgaWithShape(l, cgaToLinearLayout(e.cga, rank), shape);
}

LinearLayout mfmaLL(const AmdMfmaEncoding &e, const std::vector<int64_t> &shape) {
  unsigned rank = unsigned(shape.size());
  if (e.warpsPerCTA.size() != rank)
    fail("amd_mfma warpsPerCTA rank differs from the tensor rank");
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
  return combineCtaCgaWithShape(tile, cgaToLinearLayout(e.cga, rank), shape);
}

LinearLayout dotLL(const DotOperandEncoding &e, const std::vector<int64_t> &shape) {
  unsigned rank = unsigned(shape.size());
  auto names = standardOutDimNames(int(rank));
  const Encoding &parent = *e.parent;
  // Operands are multicast along K: the parent's CGA with K zeroed.
  auto dotCga = [&](const CGALayout &cga) {
    CGALayout r = cga;
    unsigned kDim = e.opIdx == 0 ? rank - 1 : rank - 2;
    for (auto &b : r.bases)
      if (kDim < b.size())
        b[kDim] = 0;
    return cgaToLinearLayout(r, rank);
  };
  if (auto *b = parent.as<BlockedEncoding>()) {
    if (b->order.size() != rank)
      fail("dot_op parent rank differs from the tensor rank");
    unsigned kIdx = e.opIdx == 0 ? rank - 1 : rank - 2;
    std::vector<int32_t> threadSize = toI32(b->sizePerThread);
    threadSize[kIdx] = int32_t(shape[kIdx]);
    auto repNames = permuteNames(names, b->order);
    auto regs = identityStandardND("register", threadSize, b->order);
    auto lanes = broadcastedDotOperandLayout(b->threadsPerWarp, b->order, kIdx, "lane");
    auto warps = broadcastedDotOperandLayout(b->warpsPerCTA, b->order, kIdx, "warp");
    auto cta = regs.transposeOuts(repNames) * lanes.transposeOuts(repNames) *
               warps.transposeOuts(repNames);
    return combineCtaCgaWithShape(cta, dotCga(b->cga), shape);
  }
  if (auto *m = parent.as<AmdMfmaEncoding>()) {
    if (m->warpsPerCTA.size() != rank)
      fail("dot_op parent rank differs from the tensor rank");
    int32_t kWidth = int32_t(e.kWidth);
    if (kWidth == 0)
      fail("dot_op with an amd_mfma parent needs kWidth");
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
    return combineCtaCgaWithShape(cta, cgaToLinearLayout(m->cga, rank), shape).transposeOuts(names);
  }
  if (auto *w = parent.as<AmdWmmaEncoding>()) {
    if (w->warpsPerCTA.size() != rank)
      fail("dot_op parent rank differs from the tensor rank");
    auto order = orderForDotOperand(e.opIdx, rank, true);
    std::string dimK = names[order[0]], dimNonK = names[order[1]];
    std::vector<unsigned> instr =
        w->instrShape.empty() ? std::vector<unsigned>{16, 16, 16} : w->instrShape;
    int32_t kDim = int32_t(instr.at(2));
    int32_t nonKDim = int32_t(e.opIdx == 0 ? instr.at(0) : instr.at(1));
    int32_t kWidth = int32_t(e.kWidth);
    if (kWidth == 0)
      fail("dot_op with an amd_wmma parent needs kWidth");
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
    return combineCtaCgaWithShape(cta, dotCga(w->cga), shape);
  }
  if (auto *n = parent.as<NvidiaMmaEncoding>()) {
    if (n->warpsPerCTA.size() != rank)
      fail("dot_op parent rank differs from the tensor rank");
    bool hopper = n->versionMajor == 3;
    if (e.kWidth == 0)
      fail("dot_op with an nvidia_mma parent needs kWidth");
    if (hopper && e.opIdx != 0)
      fail("a Hopper (nvidia_mma v3) dot operand must be operand A");
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
    auto l = nvidiaMmaTile(tile, e.kWidth, order, order);
    unsigned kDim = e.opIdx == 0 ? rank - 1 : rank - 2;
    l *= broadcastedDotOperandLayout(n->warpsPerCTA, matrixOrder(rank, !hopper), kDim, "warp")
             .transposeOuts(l.outDimNames());
    return combineCtaCgaWithShape(l, dotCga(n->cga), shape);
  }
  fail("dot_op parent must be blocked, amd_mfma, amd_wmma or nvidia_mma, not " + parent.kind());
}

LinearLayout sliceLL(const SliceEncoding &e, const std::vector<int64_t> &shape) {
  std::vector<int64_t> parentShape = shape;
  if (e.dim > shape.size())
    fail("slice dim exceeds the parent rank");
  parentShape.insert(parentShape.begin() + e.dim, 1);
  LinearLayout p = toLinearLayout(*e.parent, parentShape);
  LinearLayout s = removeStandardDim(p, int(e.dim));
  auto bases = s.bases();
  for (auto &[n, vecs] : bases)
    if (n == "register") {
      std::vector<LinearLayout::Basis> kept;
      for (auto &b : vecs)
        if (std::any_of(b.begin(), b.end(), [](int32_t v) { return v != 0; }))
          kept.push_back(b);
      vecs = std::move(kept);
    }
  return LinearLayout::inferred(std::move(bases), s.outDimNames());
}

std::vector<unsigned> linearRegisterOrder(const LinearLayout &ll) {
  unsigned rank = unsigned(ll.numOutDims());
  std::vector<unsigned> order;
  for (auto &b : ll.basesOf("register"))
    for (unsigned d = 0; d < rank; ++d)
      if (b[d] != 0 && std::find(order.begin(), order.end(), d) == order.end())
        order.push_back(d);
  for (unsigned d : matrixOrder(rank, true))
    if (std::find(order.begin(), order.end(), d) == order.end())
      order.push_back(d);
  return order;
}

LinearLayout linearLL(const LinearEncoding &e, const std::vector<int64_t> &shape) {
  unsigned rank = unsigned(e.ll.numOutDims());
  if (rank != shape.size())
    fail(fmt::format("linear layout has rank {} but the shape has rank {}", rank, shape.size()));
  auto names = standardOutDimNames(int(rank));
  auto repNames = permuteNames(names, linearRegisterOrder(e.ll));
  auto l = e.ll.transposeOuts(repNames);
  auto labeled = labeledShape(shape);
  l = ensureLayoutNotSmallerThan(l, labeled);
  l = ensureLayoutNotLargerThan(l, labeled, /*broadcastRegisters=*/false);
  return l.transposeOuts(names);
}

LinearLayout swizzledLL(const SwizzledSharedEncoding &e, const std::vector<int64_t> &shape) {
  unsigned rank = unsigned(shape.size());
  if (e.order.size() != rank)
    fail(fmt::format("shared layout has rank {} but the shape has rank {}", e.order.size(), rank));
  auto cga = cgaToLinearLayout(e.cga, rank);
  auto spc = e.rotating ? shape : shapePerCTA(e.cga, shape);
  auto names = standardOutDimNames(int(rank));
  if (rank == 1)
    return combineCtaCgaWithShape(LinearLayout::identity1D(int32_t(spc[0]), "offset", "dim0"), cga,
                                  shape);
  unsigned colDim = e.order[0], rowDim = e.order[1];
  int32_t numCols = int32_t(spc[colDim]), numRows = int32_t(spc[rowDim]);
  Bases bases2D;
  for (int32_t c = 1; c < numCols; c *= 2)
    bases2D.push_back({0, c});
  for (int32_t r = 1; r < numRows; r *= 2) {
    int32_t phase = (r / int32_t(e.perPhase)) % int32_t(e.maxPhase);
    if (e.rotating) {
      int32_t blockNo = r / int32_t(e.maxPhase) / int32_t(e.perPhase) % int32_t(e.maxPhase);
      phase ^= blockNo;
    }
    bases2D.push_back({r, (int32_t(e.vec) * phase) % numCols});
  }
  auto cta = LinearLayout::inferred({{"offset", bases2D}}, {names[rowDim], names[colDim]});
  for (unsigned i = 2; i < rank; ++i)
    cta *= LinearLayout::identity1D(int32_t(spc[e.order[i]]), "offset", names[e.order[i]]);
  return combineCtaCgaWithShape(cta, cga, shape);
}

LinearLayout nvmmaLL(const NVMMASharedEncoding &e, const std::vector<int64_t> &shape) {
  unsigned rank = unsigned(shape.size());
  if (e.rank != rank)
    fail(fmt::format("nvmma_shared layout has rank {} but the shape has rank {}", e.rank, rank));
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
      fail(fmt::format("nvmma_shared with {}-byte swizzle needs at least {} "
                       "elements along the contiguous dim",
                       e.swizzlingByteWidth, need));
    bs[contig] = need;
  }
  if (e.fp4Padded)
    bs[contig] /= 2;
  for (auto v : bs)
    if (!isPow2(v))
      fail("nvmma_shared block shape is not a power of two");
  LinearLayout cga = cgaToLinearLayout(e.cga, rank);
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
    fail("illegal nvmma_shared layout for this shape");
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

LinearLayout sharedLinearLL(const SharedLinearEncoding &e, const std::vector<int64_t> &shape) {
  if (unsigned(e.ll.numOutDims()) != shape.size())
    fail("shared_linear rank differs from the shape rank");
  auto bases = e.ll.bases();
  std::vector<LinearLayout::OutDim> outs;
  for (size_t d = 0; d < shape.size(); ++d) {
    auto [name, size] = e.ll.outDims()[d];
    if (shape[d] > size)
      fail("shape is larger than the shared_linear layout");
    for (auto &[n, vecs] : bases)
      for (auto &b : vecs)
        if (b[d] >= shape[d])
          b[d] = 0;
    outs.emplace_back(name, int32_t(std::min<int64_t>(size, shape[d])));
  }
  return LinearLayout(std::move(bases), std::move(outs));
}

} // namespace

std::string Encoding::kind() const {
  return std::visit(
      Overloaded{[](const BlockedEncoding &) { return std::string("blocked"); },
                 [](const SliceEncoding &) { return std::string("slice"); },
                 [](const DotOperandEncoding &) { return std::string("dot_op"); },
                 [](const NvidiaMmaEncoding &) { return std::string("nvidia_mma"); },
                 [](const AmdMfmaEncoding &) { return std::string("amd_mfma"); },
                 [](const AmdWmmaEncoding &) { return std::string("amd_wmma"); },
                 [](const LinearEncoding &e) {
                   return std::string(e.generic ? "generic_linear" : "linear");
                 },
                 [](const SwizzledSharedEncoding &e) {
                   return std::string(e.rotating ? "amd_rotating_shared" : "swizzled_shared");
                 },
                 [](const NVMMASharedEncoding &) { return std::string("nvmma_shared"); },
                 [](const SharedLinearEncoding &) { return std::string("shared_linear"); },
                 [](const PaddedSharedEncoding &) { return std::string("padded_shared"); },
                 [](const LegacySharedEncoding &) { return std::string("shared"); },
                 [](const OpaqueEncoding &e) { return e.kind; }},
      value);
}

bool Encoding::isShared() const {
  return is<SwizzledSharedEncoding>() || is<NVMMASharedEncoding>() || is<SharedLinearEncoding>() ||
         is<PaddedSharedEncoding>() || is<LegacySharedEncoding>();
}

bool Encoding::isLayout() const {
  if (auto *o = as<OpaqueEncoding>())
    return o->kind == "tensor_memory_encoding" || o->kind == "tensor_memory_scales_encoding";
  return true;
}

bool Encoding::isDistributed() const {
  return is<BlockedEncoding>() || is<SliceEncoding>() || is<DotOperandEncoding>() ||
         is<NvidiaMmaEncoding>() || is<AmdMfmaEncoding>() || is<AmdWmmaEncoding>() ||
         is<LinearEncoding>();
}

unsigned Encoding::rank() const {
  return std::visit(
      Overloaded{[](const BlockedEncoding &e) { return unsigned(e.order.size()); },
                 [](const SliceEncoding &e) { return e.parent ? e.parent->rank() - 1 : 0u; },
                 [](const DotOperandEncoding &e) { return e.parent ? e.parent->rank() : 0u; },
                 [](const NvidiaMmaEncoding &e) { return unsigned(e.warpsPerCTA.size()); },
                 [](const AmdMfmaEncoding &e) { return unsigned(e.warpsPerCTA.size()); },
                 [](const AmdWmmaEncoding &e) { return unsigned(e.warpsPerCTA.size()); },
                 [](const LinearEncoding &e) { return unsigned(e.ll.numOutDims()); },
                 [](const SwizzledSharedEncoding &e) { return unsigned(e.order.size()); },
                 [](const NVMMASharedEncoding &e) { return e.rank; },
                 [](const SharedLinearEncoding &e) { return unsigned(e.ll.numOutDims()); },
                 [](const PaddedSharedEncoding &e) {
                   return e.orderOnly.empty() ? unsigned(e.linear.numOutDims())
                                              : unsigned(e.orderOnly.size());
                 },
                 [](const LegacySharedEncoding &e) { return unsigned(e.order.size()); },
                 [](const OpaqueEncoding &) { return 0u; }},
      value);
}

std::string printEncoding(const Encoding &enc) { return Printer{}.print(enc); }

std::string printEncoding(const Encoding &enc, AliasLookup aliasOf, const void *ctx) {
  return Printer{aliasOf, ctx}.print(enc);
}

LinearLayout cgaToLinearLayout(const CGALayout &cga, unsigned rank) {
  auto names = standardOutDimNames(int(rank));
  for (auto &b : cga.bases)
    if (b.size() != rank)
      fail("CGALayout basis length differs from the layout rank");
  return LinearLayout::inferred({{"block", cga.bases}}, names);
}

CGALayout cgaFromSplitParams(const std::vector<unsigned> &ctasPerCGA,
                             const std::vector<unsigned> &ctaSplitNum,
                             const std::vector<unsigned> &ctaOrder) {
  unsigned rank = unsigned(ctaOrder.size());
  if (ctasPerCGA.size() != rank || ctaSplitNum.size() != rank)
    fail("CTAsPerCGA, CTASplitNum and CTAOrder must have the same length");
  auto names = standardOutDimNames(int(rank));
  LinearLayout l;
  for (unsigned i = 0; i < rank; ++i) {
    unsigned d = ctaOrder[i];
    if (d >= rank)
      fail("CTAOrder is not a permutation");
    unsigned split = ctaSplitNum[d], ctas = ctasPerCGA[d];
    if (!isPow2(split) || !isPow2(ctas) || ctas % split)
      fail("CTAsPerCGA must be a power-of-two multiple of CTASplitNum");
    l *= LinearLayout::identity1D(int32_t(split), "block", names[d]) *
         LinearLayout::zeros1D(int32_t(ctas / split), "block", names[d]);
  }
  if (rank == 0)
    return {};
  // Out dims not touched above (size-1 CTA counts) still need a column.
  for (auto &n : names)
    if (!l.hasOutDim(n))
      l *= LinearLayout::identity1D(1, "block", n);
  l = l.transposeOuts(names);
  return CGALayout{l.basesOf("block")};
}

SplitParams cgaToSplitParams(const CGALayout &cga, unsigned rank) {
  SplitParams p;
  p.ctaSplitNum = ctaSplitNum(cga, rank);
  p.ctasPerCGA.assign(rank, 1);
  unsigned last = 0;
  std::vector<unsigned> order;
  for (auto &b : cga.bases) {
    int nz = -1;
    for (unsigned d = 0; d < rank && d < b.size(); ++d)
      if (b[d] != 0) {
        nz = int(d);
        break;
      }
    if (nz >= 0) {
      last = unsigned(nz);
      if (std::find(order.begin(), order.end(), last) == order.end())
        order.push_back(last);
    }
    p.ctasPerCGA[last] *= 2;
  }
  for (unsigned d = 0; d < rank; ++d)
    if (std::find(order.begin(), order.end(), d) == order.end())
      order.push_back(d);
  p.ctaOrder = order;
  return p;
}

bool needsMemdesc(const Encoding &enc) {
  if (enc.is<LegacySharedEncoding>())
    return true;
  auto *padded = enc.as<PaddedSharedEncoding>();
  return padded && !padded->orderOnly.empty();
}

LinearLayout paddedIdentity(const std::vector<int32_t> &shape, const std::vector<unsigned> &order) {
  LinearLayout ll =
      identityStandardND("offset", shape, order) * LinearLayout::identity1D(1, "block", "dim0");
  return ll.transposeOuts(standardOutDimNames(int(shape.size())));
}

LegacySharedEncoding legacySharedOf(const NVMMASharedEncoding &e) {
  LegacySharedEncoding l;
  l.hasLeadingOffset = true;
  l.maxPhase = std::max(1u, e.swizzlingByteWidth / 16);
  l.vec = e.swizzlingByteWidth == 0 ? 1 : 8;
  l.perPhase = 1;
  for (unsigned d = 0; d < e.rank; ++d)
    l.order.push_back(e.transposed ? d : e.rank - 1 - d);
  l.cga = e.cga;
  return l;
}

namespace {

EncodingPtr resolveLegacyShared(const LegacySharedEncoding &l, unsigned elementBits) {
  if (!l.hasLeadingOffset) {
    SwizzledSharedEncoding s;
    s.vec = l.vec;
    s.perPhase = l.perPhase;
    s.maxPhase = l.maxPhase;
    s.order = l.order;
    s.cga = l.cga;
    return makeEncoding(s);
  }
  NVMMASharedEncoding n;
  n.swizzlingByteWidth = 16 * l.maxPhase;
  if (l.maxPhase == 1 && l.vec == 1 && l.perPhase == 1)
    n.swizzlingByteWidth = 0;
  n.elementBitWidth = elementBits;
  n.transposed = l.order.size() >= 2 && l.order[0] == 0;
  n.rank = unsigned(l.order.size());
  n.cga = l.cga;
  return makeEncoding(n);
}

// 3.5's padded_shared {order}: the identity in that order over the trailing
// dims of the allocation. A shape the linear model cannot hold (1x255) keeps
// the {order} form, reported rather than refused.
EncodingPtr resolvePaddedOrder(const EncodingPtr &enc, const PaddedSharedEncoding &padded,
                               const std::vector<int64_t> &dims) {
  size_t rank = padded.orderOnly.size();
  if (dims.size() < rank)
    return enc;
  bool pow2 = std::all_of(dims.end() - long(rank), dims.end(), [](int64_t v) {
    return v > 0 && v <= (int64_t(1) << 30) && !(v & (v - 1));
  });
  if (!pow2)
    return enc;
  PaddedSharedEncoding e;
  e.intervalPaddings = padded.intervalPaddings;
  e.linear =
      paddedIdentity(std::vector<int32_t>(dims.end() - long(rank), dims.end()), padded.orderOnly);
  return makeEncoding(e);
}

} // namespace

EncodingPtr resolveAtMemdesc(const EncodingPtr &enc, unsigned elementBits,
                             const std::vector<int64_t> &dims) {
  if (!enc)
    return enc;
  if (auto *l = enc->as<LegacySharedEncoding>())
    return resolveLegacyShared(*l, elementBits);
  if (auto *padded = enc->as<PaddedSharedEncoding>(); padded && !padded->orderOnly.empty())
    return resolvePaddedOrder(enc, *padded, dims);
  return enc;
}

std::vector<int64_t> bufferShape(const Encoding &enc, std::vector<int64_t> shape) {
  unsigned rank = enc.rank();
  if (enc.isShared() && rank && rank < shape.size())
    shape.erase(shape.begin(), shape.end() - rank);
  return shape;
}

LinearLayout toLinearLayout(const Encoding &enc, const std::vector<int64_t> &shape) {
  for (auto s : shape)
    if (!isPow2(s))
      fail(fmt::format("shape dim {} is not a power of two", s));
  if (shape.empty())
    fail("a layout needs a shape of rank >= 1");
  return std::visit(
      Overloaded{
          [&](const BlockedEncoding &e) {
            if (e.order.size() != shape.size())
              fail(fmt::format("blocked layout has rank {} but the shape has rank {}",
                               e.order.size(), shape.size()));
            return blockedLL(e, shape);
          },
          [&](const SliceEncoding &e) { return sliceLL(e, shape); },
          [&](const DotOperandEncoding &e) { return dotLL(e, shape); },
          [&](const NvidiaMmaEncoding &e) {
            if (e.warpsPerCTA.size() != shape.size())
              fail("nvidia_mma rank differs from the tensor rank");
            return nvidiaMmaLL(e, shape);
          },
          [&](const AmdMfmaEncoding &e) { return mfmaLL(e, shape); },
          [&](const LinearEncoding &e) { return linearLL(e, shape); },
          [&](const SwizzledSharedEncoding &e) { return swizzledLL(e, shape); },
          [&](const NVMMASharedEncoding &e) { return nvmmaLL(e, shape); },
          [&](const SharedLinearEncoding &e) { return sharedLinearLL(e, shape); },
          [&](const PaddedSharedEncoding &e) -> LinearLayout {
            if (!e.orderOnly.empty())
              fail("padded_shared in its {order}-only form needs the memdesc's shape");
            if (unsigned(e.linear.numOutDims()) != shape.size())
              fail("padded_shared rank differs from the shape rank");
            return e.linear;
          },
          [&](const LegacySharedEncoding &e) -> LinearLayout {
            fail("legacy #ttg.shared needs the memdesc element type");
          },
          [&](const OpaqueEncoding &e) -> LinearLayout { fail("no linear layout for " + e.kind); },
          [&](const auto &) -> LinearLayout { return kindOf(enc)->linear(enc, shape); }},
      enc.value);
}

bool equivalentAt(const Encoding &a, const Encoding &b, const std::vector<int64_t> &shape) {
  if (a == b)
    return true;
  return toLinearLayout(a, shape) == toLinearLayout(b, shape);
}

bool hasUnmodelledPart(const Encoding &enc) {
  if (auto *o = enc.as<OpaqueEncoding>())
    return o->unmodelledLayout();
  if (auto *s = enc.as<SliceEncoding>())
    return s->parent && hasUnmodelledPart(*s->parent);
  if (auto *d = enc.as<DotOperandEncoding>())
    return d->parent && hasUnmodelledPart(*d->parent);
  return false;
}

unsigned warpsInLayout(const Encoding &enc) {
  auto prod = [](const std::vector<unsigned> &v) {
    unsigned p = 1;
    for (auto x : v)
      p *= x;
    return p;
  };
  return std::visit(
      Overloaded{
          [&](const BlockedEncoding &e) { return prod(e.warpsPerCTA); },
          [&](const SliceEncoding &e) { return e.parent ? warpsInLayout(*e.parent) : 0u; },
          [&](const DotOperandEncoding &e) { return e.parent ? warpsInLayout(*e.parent) : 0u; },
          [&](const NvidiaMmaEncoding &e) { return prod(e.warpsPerCTA); },
          [&](const AmdMfmaEncoding &e) { return prod(e.warpsPerCTA); },
          [&](const AmdWmmaEncoding &e) { return prod(e.warpsPerCTA); },
          [&](const LinearEncoding &e) { return 1u << e.ll.inDimSizeLog2("warp"); },
          [&](const auto &) { return 0u; }},
      enc.value);
}

} // namespace tilexform::layout
