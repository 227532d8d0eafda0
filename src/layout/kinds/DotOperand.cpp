// dot_op: an operand of a dot whose result has the parent layout,
// `#ttg.dot_op<{...}>` and `gl.DotOperandLayout(...)`. Its linear layout is
// the parent kind's (KindInfo::dotOperandLinear).
#include "tilexform/layout/Kind.h"
#include "tilexform/layout/Validate.h"

#include "../KindSupport.h"

#include <fmt/format.h>

namespace tilexform::layout {

bool DotOperandEncoding::operator==(const DotOperandEncoding &o) const {
  return opIdx == o.opIdx && kWidth == o.kWidth && parent && o.parent && *parent == *o.parent;
}

namespace kinds {

using namespace detail;

namespace {

EncodingPtr parseAttr(AttrFields &f) {
  DotOperandEncoding e;
  bool ok = true, haveIdx = false;
  for (const std::string &k : f.keys()) {
    if (k == "opIdx")
      haveIdx = ok = f.uintValue(k, e.opIdx);
    else if (k == "kWidth")
      ok = f.uintValue(k, e.kWidth);
    else if (k == "parent") {
      e.parent = f.encoding(k);
      ok = e.parent != nullptr;
    } else if (k == "isMMAv1Row") {
      continue; // Volta's operand order, meaningful only for the unmodelled v1 parent
    } else {
      f.error("unexpected key: " + k);
      return nullptr;
    }
    if (!ok)
      return nullptr;
  }
  if (!haveIdx || !e.parent) {
    f.error("dot_op needs 'opIdx' (0 or 1) and 'parent'");
    return nullptr;
  }
  return makeEncoding(e);
}

std::string print(const Encoding &enc, const AttrPrinter &printer) {
  const auto &e = *enc.as<DotOperandEncoding>();
  std::string k = e.kWidth ? fmt::format(", kWidth = {}", e.kWidth) : "";
  return fmt::format("#ttg.dot_op<{{opIdx = {}, parent = {}{}}}>", e.opIdx,
                     printer.nested(e.parent), k);
}

EncodingPtr parseGluon(const GluonArgs &a) {
  DotOperandEncoding e;
  e.opIdx = unsigned(a.integer("operand_index"));
  e.parent = a.layout("parent");
  e.kWidth = unsigned(a.integer("k_width", 0));
  return makeEncoding(e);
}

std::optional<std::string> emitGluon(const Encoding &enc, GluonSpelling &g) {
  const auto &e = *enc.as<DotOperandEncoding>();
  auto p = g.nested(*e.parent);
  if (!p)
    return std::nullopt;
  return fmt::format("gl.DotOperandLayout(operand_index={}, parent={}, k_width={})", e.opIdx, *p,
                     e.kWidth);
}

bool canBeParent(const Encoding &parent) {
  const KindInfo *kind = kindOf(parent);
  return kind && kind->dotOperandLinear;
}

std::string validate(const Encoding &enc) {
  const auto &e = *enc.as<DotOperandEncoding>();
  if (e.opIdx > 1)
    return "dot_op opIdx must be 0 or 1";
  if (e.parent && hasUnmodelledPart(*e.parent))
    return "";
  if (!e.parent || !canBeParent(*e.parent))
    return "dot_op parent must be blocked or an MMA layout";
  if (e.parent->rank() < 2)
    return "dot_op parent must have rank >= 2";
  if (e.kWidth != 0 && !isPow2(e.kWidth))
    return "kWidth must be a power of two";
  return validateEncoding(*e.parent);
}

llvm::Expected<LinearLayout> linear(const Encoding &enc, const std::vector<int64_t> &shape) {
  const auto &e = *enc.as<DotOperandEncoding>();
  const Encoding &parent = *e.parent;
  if (const KindInfo *kind = kindOf(parent); kind && kind->dotOperandLinear)
    return kind->dotOperandLinear(parent, e, shape);
  return misfit("dot_op parent must be blocked, amd_mfma, amd_wmma or nvidia_mma, not " +
                parent.kind());
}

unsigned rank(const Encoding &enc) {
  const auto &e = *enc.as<DotOperandEncoding>();
  return e.parent ? e.parent->rank() : 0u;
}

unsigned warps(const Encoding &enc) {
  const auto &e = *enc.as<DotOperandEncoding>();
  return e.parent ? warpsInLayout(*e.parent) : 0u;
}

const EncodingPtr *parent(const Encoding &enc) { return &enc.as<DotOperandEncoding>()->parent; }

} // namespace

KindInfo dotOperandKind() {
  return {.mnemonic = "dot_op",
          .gluonClass = "DotOperandLayout",
          .gluonFields = {"operand_index", "parent", "k_width"},
          .variant = variantIndexOf<DotOperandEncoding>(),
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
