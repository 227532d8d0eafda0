// slice: a distributed parent with one dim removed, `#ttg.slice<{...}>` and
// `gl.SliceLayout(...)`.
#include "tilexform/layout/Kind.h"
#include "tilexform/layout/Validate.h"

#include "../KindSupport.h"

#include <algorithm>
#include <fmt/format.h>

namespace tilexform::layout {

bool SliceEncoding::operator==(const SliceEncoding &o) const {
  return dim == o.dim && parent && o.parent && *parent == *o.parent;
}

namespace kinds {

using namespace detail;

namespace {

EncodingPtr parseAttr(AttrFields &f) {
  SliceEncoding e;
  bool ok = true, haveDim = false;
  for (const std::string &k : f.keys()) {
    if (k == "dim")
      haveDim = ok = f.uintValue(k, e.dim);
    else if (k == "parent") {
      e.parent = f.encoding(k);
      ok = ok && e.parent;
    } else {
      f.error("unexpected key: " + k);
      return nullptr;
    }
    if (!ok)
      return nullptr;
  }
  if (!haveDim || !e.parent) {
    f.error("slice needs 'dim' and 'parent'");
    return nullptr;
  }
  return makeEncoding(e);
}

std::string print(const Encoding &enc, const AttrPrinter &printer) {
  const auto &e = *enc.as<SliceEncoding>();
  return fmt::format("#ttg.slice<{{dim = {}, parent = {}}}>", e.dim, printer.nested(e.parent));
}

EncodingPtr parseGluon(const GluonArgs &a) {
  SliceEncoding e;
  e.dim = unsigned(a.integer("dim"));
  e.parent = a.layout("parent");
  return makeEncoding(e);
}

std::optional<std::string> emitGluon(const Encoding &enc, GluonSpelling &g) {
  const auto &e = *enc.as<SliceEncoding>();
  auto p = g.nested(*e.parent);
  if (!p)
    return std::nullopt;
  return fmt::format("gl.SliceLayout(dim={}, parent={})", e.dim, *p);
}

std::string validate(const Encoding &enc) {
  const auto &e = *enc.as<SliceEncoding>();
  if (e.parent && hasUnmodelledPart(*e.parent))
    return ""; // another backend's or a newer layout, kept by name
  if (!e.parent || !e.parent->isDistributed())
    return "slice needs a distributed parent";
  if (e.parent->rank() < 2 || e.dim >= e.parent->rank())
    return "slice dim must be below the parent rank (>= 2)";
  return validateEncoding(*e.parent);
}

// The parent's layout at the shape with a size-1 dim inserted, that dim
// removed, and the registers it left all-zero dropped.
llvm::Expected<LinearLayout> linear(const Encoding &enc, const std::vector<int64_t> &shape) {
  const auto &e = *enc.as<SliceEncoding>();
  std::vector<int64_t> parentShape = shape;
  if (e.dim > shape.size())
    return misfit("slice dim exceeds the parent rank");
  parentShape.insert(parentShape.begin() + e.dim, 1);
  auto p = linearLayoutAt(*e.parent, parentShape);
  if (!p)
    return p.takeError();
  LinearLayout s = removeStandardDim(*p, int(e.dim));
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

unsigned rank(const Encoding &enc) {
  const auto &e = *enc.as<SliceEncoding>();
  return e.parent ? e.parent->rank() - 1 : 0u;
}

unsigned warps(const Encoding &enc) {
  const auto &e = *enc.as<SliceEncoding>();
  return e.parent ? warpsInLayout(*e.parent) : 0u;
}

const EncodingPtr *parent(const Encoding &enc) { return &enc.as<SliceEncoding>()->parent; }

} // namespace

KindInfo sliceKind() {
  return {.mnemonic = "slice",
          .gluonClass = "SliceLayout",
          .gluonFields = {"dim", "parent"},
          .variant = variantIndexOf<SliceEncoding>(),
          .parseAttr = parseAttr,
          .print = print,
          .parseGluon = parseGluon,
          .emitGluon = emitGluon,
          .validate = validate,
          .linear = linear,
          .rank = rank,
          .warps = warps,
          .parent = parent};
}

} // namespace kinds

} // namespace tilexform::layout
