#include "tilexform/layout/Kind.h"
#include "tilexform/layout/Validate.h"

namespace tilexform::layout {

// One function per kind, in src/layout/kinds/<Kind>.cpp.
namespace kinds {
KindInfo blockedKind();
KindInfo sliceKind();
KindInfo dotOperandKind();
KindInfo nvidiaMmaKind();
KindInfo amdMfmaKind();
KindInfo amdWmmaKind();
KindInfo linearKind();
KindInfo genericLinearKind();
KindInfo swizzledSharedKind();
KindInfo amdRotatingSharedKind();
KindInfo nvmmaSharedKind();
KindInfo sharedLinearKind();
KindInfo paddedSharedKind();
KindInfo legacySharedKind();
} // namespace kinds

const std::vector<KindInfo> &kindTable() {
  static const std::vector<KindInfo> table = {
      kinds::blockedKind(),        kinds::sliceKind(),
      kinds::dotOperandKind(),     kinds::nvidiaMmaKind(),
      kinds::amdMfmaKind(),        kinds::amdWmmaKind(),
      kinds::linearKind(),         kinds::genericLinearKind(),
      kinds::swizzledSharedKind(), kinds::amdRotatingSharedKind(),
      kinds::nvmmaSharedKind(),    kinds::sharedLinearKind(),
      kinds::paddedSharedKind(),   kinds::legacySharedKind(),
  };
  return table;
}

const KindInfo *kindOfMnemonic(const std::string &mnemonic) {
  for (const KindInfo &k : kindTable())
    if (mnemonic == k.mnemonic)
      return &k;
  return nullptr;
}

const KindInfo *kindOfGluonClass(const std::string &cls) {
  for (const KindInfo &k : kindTable())
    if (k.gluonClass && cls == k.gluonClass)
      return &k;
  return nullptr;
}

const KindInfo *kindOf(const Encoding &enc) {
  size_t index = enc.value.index();
  for (const KindInfo &k : kindTable())
    if (k.variant == index && (!k.accepts || k.accepts(enc)))
      return &k;
  return nullptr;
}

std::vector<std::string> withGluonCgaFields(std::vector<std::string> fields) {
  for (const char *f : {"cga_layout", "ctas_per_cga", "cta_split_num", "cta_order"})
    fields.push_back(f);
  return fields;
}

bool AttrFields::basesRank(const std::vector<const Bases *> &all, unsigned &rank) {
  std::string err = validateBasesRank(all, rank);
  if (!err.empty()) {
    error(err);
    return false;
  }
  return true;
}

} // namespace tilexform::layout
