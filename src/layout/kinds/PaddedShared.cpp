// padded_shared: shared memory with `padding` elements after every
// `interval`, its offsets given by bases or (the short form) an identity in
// some order over a shape, `#ttg.padded_shared<[interval:+padding, ...]
// {...}>` and `gl.PaddedSharedLayout(...)`. 3.5's `{order}` form without a
// shape is completed at the memdesc (resolveAtMemdesc).
#include "tilexform/layout/Kind.h"

#include "../KindSupport.h"
#include "tilexform/support/Text.h"

#include <algorithm>
#include <fmt/format.h>

namespace tilexform::layout::kinds {

using namespace detail;

namespace {

EncodingPtr parseAttr(AttrFields &f) {
  PaddedSharedEncoding e;
  bool ok = true;
  for (auto [interval, pad] : f.paddings())
    e.intervalPaddings.emplace_back(positiveOrZero(interval), positiveOrZero(pad));
  if (f.has("offset") || f.has("block")) {
    Bases off, blk;
    if (!offsetBlockBases(f, off, blk, ok))
      return nullptr;
    unsigned rank = 0;
    if (!ok || !f.basesRank({&off, &blk}, rank))
      return nullptr;
    auto ll = namedLinear(f, {{"offset", off}, {"block", blk}}, rank, false);
    if (!ll)
      return nullptr;
    e.linear = std::move(*ll);
    return makeEncoding(e);
  }
  std::vector<unsigned> order, shape;
  for (const std::string &k : f.keys()) {
    if (k == "order")
      order = f.uintList(k, ok);
    else if (k == "shape")
      shape = f.uintList(k, ok);
    else if (k == "CTAsPerCGA" || k == "CTASplitNum" || k == "CTAOrder")
      continue; // pre-3.6 padded layouts only allowed one CTA
    else {
      f.error("unexpected key: " + k);
      return nullptr;
    }
  }
  if (!ok)
    return nullptr;
  if (shape.empty() && !order.empty()) {
    // The 3.5 form: the shape comes from the memdesc that uses it.
    e.orderOnly = order;
    return makeEncoding(e);
  }
  if (order.size() != shape.size() || order.empty()) {
    f.error("padded_shared needs 'order' and 'shape' of the same rank");
    return nullptr;
  }
  for (unsigned d : shape)
    if (d == 0 || (d & (d - 1)) != 0) {
      f.error("padded_shared 'shape' entries must be powers of two");
      return nullptr;
    }
  if (!isPermutation(order, shape.size())) {
    f.error("padded_shared 'order' must be a permutation of the dims");
    return nullptr;
  }
  e.linear = paddedIdentity(std::vector<int32_t>(shape.begin(), shape.end()), order);
  return makeEncoding(e);
}

std::string print(const Encoding &enc, const AttrPrinter &) {
  const auto &e = *enc.as<PaddedSharedEncoding>();
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
      return s + fmt::format("{{order = {}, shape = {}}}>", listText(order), listText(ushape));
    }
  }
  return s + fmt::format("{{offset = {}, block = {}}}>", basesText(off),
                         basesText(e.linear.basesOf("block")));
}

EncodingPtr parseGluon(const GluonArgs &a) {
  PaddedSharedEncoding e;
  std::vector<std::optional<std::pair<int64_t, int64_t>>> pairs;
  if (!a.intPairs("interval_padding_pairs", pairs)) {
    a.error("PaddedSharedLayout: interval_padding_pairs must be a list");
    return nullptr;
  }
  for (auto &p : pairs) {
    if (!p) {
      a.error("PaddedSharedLayout: pairs are [interval, padding]");
      return nullptr;
    }
    // Out of range as 0, refused by validateEncoding as the attribute's is.
    e.intervalPaddings.emplace_back(positiveOrZero(p->first), positiveOrZero(p->second));
  }
  Bases blk = a.has("block_bases") ? a.bases("block_bases") : a.bases("cga_layout");
  e.linear =
      basesOverShape(a, {{"offset", a.bases("offset_bases")}, {"block", blk}}, a.ints("shape"));
  return makeEncoding(e);
}

std::optional<std::string> emitGluon(const Encoding &enc, GluonSpelling &g) {
  const auto &e = *enc.as<PaddedSharedEncoding>();
  if (!e.orderOnly.empty()) {
    g.decline("padded_shared in its {order}-only form needs the memdesc's shape");
    return std::nullopt;
  }
  std::vector<std::string> pairs;
  for (auto &[i, p] : e.intervalPaddings)
    pairs.push_back(fmt::format("[{}, {}]", i, p));
  std::vector<unsigned> shape;
  for (auto &[n, s] : e.linear.outDims())
    shape.push_back(unsigned(s));
  return fmt::format("gl.PaddedSharedLayout(interval_padding_pairs=[{}], "
                     "offset_bases={}, block_bases={}, shape={})",
                     fmt::join(pairs, ", "), basesText(e.linear.basesOf("offset")),
                     basesText(e.linear.basesOf("block")), listText(shape));
}

std::string validate(const Encoding &enc) {
  const auto &e = *enc.as<PaddedSharedEncoding>();
  if (e.intervalPaddings.empty())
    return "padded_shared needs at least one interval:padding pair";
  for (auto &[i, p] : e.intervalPaddings)
    if (!isPow2(i) || !isPow2(p))
      return "padded_shared intervals and paddings must be powers of two";
  if (e.orderOnly.empty() && e.linear.outDims().empty())
    return "padded_shared needs offset bases";
  if (!e.orderOnly.empty() && !isPermutation(e.orderOnly, e.orderOnly.size()))
    return "padded_shared 'order' must be a permutation of the dims";
  return "";
}

llvm::Expected<LinearLayout> linear(const Encoding &enc, const std::vector<int64_t> &shape) {
  const auto &e = *enc.as<PaddedSharedEncoding>();
  if (!e.orderOnly.empty())
    return misfit("padded_shared in its {order}-only form needs the memdesc's shape");
  if (unsigned(e.linear.numOutDims()) != shape.size())
    return misfit("padded_shared rank differs from the shape rank");
  return e.linear;
}

unsigned rank(const Encoding &enc) {
  const auto &e = *enc.as<PaddedSharedEncoding>();
  return e.orderOnly.empty() ? unsigned(e.linear.numOutDims()) : unsigned(e.orderOnly.size());
}

/// `PADDED_SHARED_512P16`: each interval and its padding.
std::string constantName(const Encoding &enc) {
  std::string name = "PADDED_SHARED";
  for (auto [interval, padding] : enc.as<PaddedSharedEncoding>()->intervalPaddings)
    name += fmt::format("_{}P{}", interval, padding);
  return name;
}

} // namespace

KindInfo paddedSharedKind() {
  return {.mnemonic = "padded_shared",
          .gluonClass = "PaddedSharedLayout",
          .gluonFields = {"interval_padding_pairs", "offset_bases", "block_bases", "cga_layout",
                          "shape"},
          .variant = variantIndexOf<PaddedSharedEncoding>(),
          .role = KindRole::Shared,
          .attrSyntax = AttrSyntax::PaddingsDict,
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
