// shared_linear: a shared layout given by its offset (and block) bases,
// `#ttg.shared_linear<{offset = ..., block = ...}, alignment = N>` and
// `gl.SharedLinearLayout(...)`.
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
  Bases off, blk;
  bool ok = true;
  if (!offsetBlockBases(f, off, blk, ok))
    return nullptr;
  unsigned rank = 0;
  if (!f.basesRank({&off, &blk}, rank))
    return nullptr;
  SharedLinearEncoding e;
  auto ll = namedLinear(f, {{"offset", off}, {"block", blk}}, rank, false);
  if (!ll)
    return nullptr;
  e.ll = std::move(*ll);
  e.alignment = positiveOrZero(f.alignment());
  return makeEncoding(e);
}

std::string print(const Encoding &enc, const AttrPrinter &) {
  const auto &e = *enc.as<SharedLinearEncoding>();
  std::string s = "#ttg.shared_linear<{offset = " + basesText(e.ll.basesOf("offset"));
  if (!e.ll.basesOf("block").empty())
    s += ", block = " + basesText(e.ll.basesOf("block"));
  return s + fmt::format("}}, alignment = {}>", e.alignment);
}

EncodingPtr parseGluon(const GluonArgs &a) {
  SharedLinearEncoding e;
  Bases off = a.bases("offset_bases"), blk = a.bases("block_bases");
  unsigned rank = 0;
  if (std::string err = validateBasesRank({&off, &blk}, rank); !err.empty()) {
    a.error(err);
    return nullptr;
  }
  std::vector<LinearLayout::DimBases> bases = {
      {"offset", std::vector<LinearLayout::Basis>(off.begin(), off.end())},
      {"block", std::vector<LinearLayout::Basis>(blk.begin(), blk.end())}};
  auto ll = LinearLayout::createInferred(std::move(bases), standardOutDimNames(int(rank)), false);
  if (!ll) {
    a.error(llvm::toString(ll.takeError()));
    return nullptr;
  }
  e.ll = std::move(*ll);
  e.alignment = unsigned(a.integer("alignment", 16));
  return makeEncoding(e);
}

std::optional<std::string> emitGluon(const Encoding &enc, GluonSpelling &) {
  const auto &e = *enc.as<SharedLinearEncoding>();
  std::string s = "gl.SharedLinearLayout(offset_bases=" + basesText(e.ll.basesOf("offset"));
  if (!e.ll.basesOf("block").empty())
    s += ", block_bases=" + basesText(e.ll.basesOf("block"));
  if (e.alignment != 16)
    s += fmt::format(", alignment={}", e.alignment);
  return s + ")";
}

std::string validate(const Encoding &enc) {
  const auto &e = *enc.as<SharedLinearEncoding>();
  if (e.ll.outDims().empty())
    return "shared_linear needs offset bases";
  if (!isPow2(e.alignment))
    return "alignment must be a power of two";
  return "";
}

// The bases as written, cut to the shape: a component beyond a dim of the
// shape addresses nothing there.
llvm::Expected<LinearLayout> linear(const Encoding &enc, const std::vector<int64_t> &shape) {
  const auto &e = *enc.as<SharedLinearEncoding>();
  if (unsigned(e.ll.numOutDims()) != shape.size())
    return misfit("shared_linear rank differs from the shape rank");
  auto bases = e.ll.bases();
  std::vector<LinearLayout::OutDim> outs;
  for (size_t d = 0; d < shape.size(); ++d) {
    auto [name, size] = e.ll.outDims()[d];
    if (shape[d] > size)
      return misfit("shape is larger than the shared_linear layout");
    for (auto &[n, vecs] : bases)
      for (auto &b : vecs)
        if (b[d] >= shape[d])
          b[d] = 0;
    outs.emplace_back(name, int32_t(std::min<int64_t>(size, shape[d])));
  }
  return LinearLayout(std::move(bases), std::move(outs));
}

unsigned rank(const Encoding &enc) {
  return unsigned(enc.as<SharedLinearEncoding>()->ll.numOutDims());
}

std::string constantName(const Encoding &) { return "SHARED_LINEAR"; }

} // namespace

KindInfo sharedLinearKind() {
  return {.mnemonic = "shared_linear",
          .gluonClass = "SharedLinearLayout",
          .gluonFields = {"offset_bases", "block_bases", "alignment"},
          .variant = variantIndexOf<SharedLinearEncoding>(),
          .role = KindRole::Shared,
          .attrSyntax = AttrSyntax::DictAlignment,
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
