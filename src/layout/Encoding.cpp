#include "tilexform/layout/Encoding.h"
#include "tilexform/layout/Kind.h"

#include "KindSupport.h"
#include "tilexform/support/Text.h"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace tilexform::layout {

namespace detail {

llvm::Error misfit(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", msg.c_str());
}

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

std::vector<std::pair<std::string, int64_t>> labeledShape(const std::vector<int64_t> &shape) {
  std::vector<std::pair<std::string, int64_t>> r;
  for (size_t i = 0; i < shape.size(); ++i)
    r.emplace_back("dim" + std::to_string(i), shape[i]);
  return r;
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

} // namespace detail

using namespace detail;

namespace {

// Nested layouts (a slice's or dot_op's parent) by their alias where the
// caller names one, else inline.
struct Printer : AttrPrinter {
  AliasLookup aliasOf = nullptr;
  const void *ctx = nullptr;

  Printer(AliasLookup aliasOf, const void *ctx) : aliasOf(aliasOf), ctx(ctx) {}

  std::string nested(const EncodingPtr &p) const override {
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
      return kind->print(enc, *this);
    return enc.as<OpaqueEncoding>()->text;
  }
};

} // namespace

std::string Encoding::kind() const {
  if (const KindInfo *k = kindOf(*this))
    return k->mnemonic;
  return as<OpaqueEncoding>()->kind;
}

bool Encoding::isShared() const {
  const KindInfo *k = kindOf(*this);
  return k && k->role == KindRole::Shared;
}

bool Encoding::isLayout() const {
  if (auto *o = as<OpaqueEncoding>())
    return o->kind == "tensor_memory_encoding" || o->kind == "tensor_memory_scales_encoding";
  return true;
}

bool Encoding::isDistributed() const {
  const KindInfo *k = kindOf(*this);
  return k && k->role == KindRole::Distributed;
}

unsigned Encoding::rank() const {
  const KindInfo *k = kindOf(*this);
  return k ? k->rank(*this) : 0u;
}

std::string printEncoding(const Encoding &enc) { return Printer(nullptr, nullptr).print(enc); }

std::string printEncoding(const Encoding &enc, AliasLookup aliasOf, const void *ctx) {
  return Printer(aliasOf, ctx).print(enc);
}

llvm::Expected<LinearLayout> cgaToLinearLayout(const CGALayout &cga, unsigned rank) {
  auto names = standardOutDimNames(int(rank));
  for (auto &b : cga.bases)
    if (b.size() != rank)
      return misfit("CGALayout basis length differs from the layout rank");
  return LinearLayout::createInferred({{"block", cga.bases}}, names, /*requireSurjective=*/false);
}

llvm::Expected<CGALayout> cgaFromSplitParams(const std::vector<unsigned> &ctasPerCGA,
                                             const std::vector<unsigned> &ctaSplitNum,
                                             const std::vector<unsigned> &ctaOrder) {
  unsigned rank = unsigned(ctaOrder.size());
  if (ctasPerCGA.size() != rank || ctaSplitNum.size() != rank)
    return misfit("CTAsPerCGA, CTASplitNum and CTAOrder must have the same length");
  auto names = standardOutDimNames(int(rank));
  LinearLayout l;
  for (unsigned i = 0; i < rank; ++i) {
    unsigned d = ctaOrder[i];
    if (d >= rank)
      return misfit("CTAOrder is not a permutation");
    unsigned split = ctaSplitNum[d], ctas = ctasPerCGA[d];
    if (!isPow2(split) || !isPow2(ctas) || ctas % split)
      return misfit("CTAsPerCGA must be a power-of-two multiple of CTASplitNum");
    l *= LinearLayout::identity1D(int32_t(split), "block", names[d]) *
         LinearLayout::zeros1D(int32_t(ctas / split), "block", names[d]);
  }
  if (rank == 0)
    return CGALayout{};
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

llvm::Expected<LinearLayout> linearLayoutAt(const Encoding &enc,
                                            const std::vector<int64_t> &shape) {
  for (auto s : shape)
    if (!isPow2(s) || s > (int64_t(1) << 30))
      return misfit(fmt::format("shape dim {} is not a power of two", s));
  if (shape.empty())
    return misfit("a layout needs a shape of rank >= 1");
  const KindInfo *kind = kindOf(enc);
  if (!kind)
    return misfit("no linear layout for " + enc.kind());
  return kind->linear(enc, shape);
}

bool equivalentAt(const Encoding &a, const Encoding &b, const std::vector<int64_t> &shape) {
  if (a == b)
    return true;
  auto la = linearLayoutAt(a, shape);
  auto lb = linearLayoutAt(b, shape);
  bool same = la && lb && *la == *lb;
  if (!la)
    llvm::consumeError(la.takeError());
  if (!lb)
    llvm::consumeError(lb.takeError());
  return same;
}

bool hasUnmodelledPart(const Encoding &enc) {
  if (auto *o = enc.as<OpaqueEncoding>())
    return o->unmodelledLayout();
  const KindInfo *kind = kindOf(enc);
  if (!kind || !kind->parent)
    return false;
  const EncodingPtr &parent = *kind->parent(enc);
  return parent && hasUnmodelledPart(*parent);
}

unsigned warpsInLayout(const Encoding &enc) {
  const KindInfo *kind = kindOf(enc);
  return kind && kind->warps ? kind->warps(enc) : 0u;
}

} // namespace tilexform::layout
