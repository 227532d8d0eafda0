// The pre-3.3 `#ttg.shared<{..., hasLeadingOffset}>`: swizzled_shared or
// nvmma_shared depending on the element type, so it stands until a memdesc
// resolves it (resolveAtMemdesc); no linear layout and no Gluon class of its
// own.
#include "tilexform/layout/Kind.h"

#include "../KindSupport.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>

namespace tilexform::layout::kinds {

using namespace detail;

namespace {

EncodingPtr parseAttr(AttrFields &f) {
  LegacySharedEncoding e;
  if (!readSwizzleFields(f, /*legacy=*/true, e))
    return nullptr;
  return makeEncoding(e);
}

std::string print(const Encoding &enc, const AttrPrinter &) {
  const auto &e = *enc.as<LegacySharedEncoding>();
  return fmt::format("#ttg.shared<{{vec = {}, perPhase = {}, maxPhase = {}, order "
                     "= {}{}, hasLeadingOffset = {}}}>",
                     e.vec, e.perPhase, e.maxPhase, listText(e.order), cgaSuffix(e.cga),
                     e.hasLeadingOffset ? "true" : "false");
}

std::optional<std::string> emitGluon(const Encoding &, GluonSpelling &g) {
  g.decline("legacy #ttg.shared needs the memdesc element type to "
            "know its modern kind");
  return std::nullopt;
}

// Checked as swizzled_shared before it is resolved at its memdesc.
std::string validate(const Encoding &enc) {
  const auto &e = *enc.as<LegacySharedEncoding>();
  return checkSwizzle(e.vec, e.perPhase, e.maxPhase, e.order, e.cga);
}

llvm::Expected<LinearLayout> linear(const Encoding &, const std::vector<int64_t> &) {
  return misfit("legacy #ttg.shared needs the memdesc element type");
}

unsigned rank(const Encoding &enc) {
  return unsigned(enc.as<LegacySharedEncoding>()->order.size());
}

std::string constantName(const Encoding &enc) {
  const auto &e = *enc.as<LegacySharedEncoding>();
  return swizzleConstantName("SHARED", e.vec, e.perPhase, e.maxPhase, e.order);
}

} // namespace

KindInfo legacySharedKind() {
  return {.mnemonic = "shared",
          .variant = variantIndexOf<LegacySharedEncoding>(),
          .role = KindRole::Shared,
          .parseAttr = parseAttr,
          .print = print,
          .emitGluon = emitGluon,
          .validate = validate,
          .linear = linear,
          .rank = rank,
          .constantName = constantName};
}

} // namespace tilexform::layout::kinds
