#include "KindSupport.h"

#include "tilexform/layout/Validate.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tilexform::layout::detail {

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

llvm::Expected<LinearLayout> dotOperandCga(const CGALayout &cga, unsigned opIdx, unsigned rank) {
  CGALayout r = cga;
  unsigned kDim = opIdx == 0 ? rank - 1 : rank - 2;
  for (auto &b : r.bases)
    if (kDim < b.size())
      b[kDim] = 0;
  return cgaToLinearLayout(r, rank);
}

unsigned product(const std::vector<unsigned> &v) {
  unsigned p = 1;
  for (unsigned x : v)
    p *= x;
  return p;
}

unsigned positiveOrZero(int64_t v) { return v > 0 && v < (int64_t(1) << 30) ? unsigned(v) : 0u; }

std::optional<LinearLayout> namedLinear(AttrFields &f,
                                        std::vector<std::pair<std::string, Bases>> dims,
                                        unsigned rank, bool requireSurjective) {
  std::vector<LinearLayout::DimBases> bases;
  for (auto &[n, b] : dims)
    bases.emplace_back(n, std::vector<LinearLayout::Basis>(b.begin(), b.end()));
  auto l = LinearLayout::createInferred(std::move(bases), standardOutDimNames(int(rank)),
                                        requireSurjective);
  if (!l) {
    f.error(llvm::toString(l.takeError()));
    return std::nullopt;
  }
  return std::move(*l);
}

bool offsetBlockBases(AttrFields &f, Bases &off, Bases &blk, bool &ok) {
  for (const std::string &k : f.keys()) {
    if (k == "offset")
      off = f.basesList(k, ok);
    else if (k == "block")
      blk = f.basesList(k, ok);
    else {
      f.error("unexpected key: " + k);
      return false;
    }
    if (!ok)
      return false;
  }
  return true;
}

bool readSwizzleFields(AttrFields &f, bool legacy, LegacySharedEncoding &e) {
  bool ok = true;
  for (const std::string &k : f.keys()) {
    if (k == "vec")
      ok = f.uintValue(k, e.vec);
    else if (k == "perPhase")
      ok = f.uintValue(k, e.perPhase);
    else if (k == "maxPhase")
      ok = f.uintValue(k, e.maxPhase);
    else if (k == "order")
      e.order = f.uintList(k, ok);
    else if (k == "hasLeadingOffset" && legacy)
      ok = f.boolValue(k, e.hasLeadingOffset);
    else if (!f.takeCga(k, ok)) {
      f.error("unexpected key: " + k);
      return false;
    }
    if (!ok)
      return false;
  }
  auto c = f.finishCga(unsigned(e.order.size()));
  if (!c)
    return false;
  e.cga = *c;
  return true;
}

LinearLayout basesOverShape(const GluonArgs &a, std::vector<std::pair<std::string, Bases>> dims,
                            const std::vector<unsigned> &shape) {
  std::vector<const Bases *> all;
  for (auto &[n, b] : dims)
    all.push_back(&b);
  unsigned rank = 0;
  if (std::string err = validateBasesRank(all, rank); !err.empty()) {
    a.error(err);
    return LinearLayout();
  }
  std::vector<LinearLayout::DimBases> bases;
  for (auto &[n, b] : dims)
    bases.emplace_back(n, std::vector<LinearLayout::Basis>(b.begin(), b.end()));
  std::vector<LinearLayout::OutDim> outs;
  for (size_t i = 0; i < shape.size(); ++i)
    outs.emplace_back("dim" + std::to_string(i), int32_t(shape[i]));
  for (auto &[n, vecs] : bases)
    for (auto &v : vecs) {
      if (v.size() != shape.size()) {
        a.error("basis length differs from the shape rank");
        return LinearLayout();
      }
      for (size_t d = 0; d < v.size(); ++d)
        if (v[d] < 0 || v[d] >= int32_t(shape[d])) {
          a.error("basis component outside the shape");
          return LinearLayout();
        }
    }
  auto l = LinearLayout::create(std::move(bases), std::move(outs), /*requireSurjective=*/false);
  if (!l) {
    a.error(llvm::toString(l.takeError()));
    return LinearLayout();
  }
  return std::move(*l);
}

std::string swizzleConstantName(const char *prefix, unsigned vec, unsigned perPhase,
                                unsigned maxPhase, const std::vector<unsigned> &order) {
  std::string name = fmt::format("{}_V{}_P{}_M{}", prefix, vec, perPhase, maxPhase);
  bool rowMajor = true;
  for (size_t i = 0; i < order.size(); ++i)
    rowMajor = rowMajor && order[i] == order.size() - 1 - i;
  if (!rowMajor)
    name += fmt::format("_ORDER{}", fmt::join(order, ""));
  return name;
}

} // namespace tilexform::layout::detail
