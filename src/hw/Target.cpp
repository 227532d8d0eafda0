#include "tilexform/hw/Target.h"

#include "tilexform/hw/ArchData.h"
#include "tilexform/hw/Products.h"

#include <llvm/ADT/StringExtras.h>

namespace tilexform::hw {

const char *vendorName(Vendor v) { return v == Vendor::Amd ? "amd" : "nvidia"; }
const char *vendorTitle(Vendor v) { return v == Vendor::Amd ? "AMD" : "NVIDIA"; }

std::string Target::tritonTarget() const {
  if (vendor == Vendor::Amd)
    return "hip:" + arch;
  return "cuda:" + llvm::StringRef(arch).drop_front(3).str();
}

namespace {

std::optional<std::string> canonicalArch(llvm::StringRef text) {
  text = text.trim().trim('"').trim();
  // "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", "hip:gfx942", "gfx90a"
  size_t gfx = text.find("gfx");
  if (gfx != llvm::StringRef::npos) {
    llvm::StringRef rest = text.substr(gfx);
    size_t digits = rest.drop_front(3).find_first_not_of("0123456789abcdef");
    llvm::StringRef name = digits == llvm::StringRef::npos ? rest : rest.take_front(3 + digits);
    // What follows may be target features (":sramecc+"), a quote, the end;
    // never more of a word ("gfx942x").
    llvm::StringRef after = rest.drop_front(name.size());
    if (name.size() <= 3 || name.size() > 8 ||
        (!after.empty() && (llvm::isAlnum(after.front()) || after.front() == '_')))
      return std::nullopt;
    return name.lower();
  }
  // "sm_90a", "sm90", "cuda:90", "90", "compute_90"
  llvm::StringRef digits = text;
  if (!digits.consume_front("cuda:") && !digits.consume_front("sm_") &&
      !digits.consume_front("sm") && !digits.consume_front("compute_")) {
  }
  llvm::StringRef num = digits.take_front(digits.find_first_not_of("0123456789"));
  llvm::StringRef suffix = digits.drop_front(num.size());
  if (num.empty() || num.size() > 3 || num.front() == '0' ||
      !(suffix.empty() || suffix == "a" || suffix == "f"))
    return std::nullopt;
  return "sm_" + num.str();
}

} // namespace

std::optional<std::string> archName(llvm::StringRef text) { return canonicalArch(text); }

std::optional<Target> parseTarget(llvm::StringRef text) {
  auto arch = canonicalArch(text);
  if (!arch)
    return std::nullopt;
  Target t;
  t.arch = *arch;
  t.vendor = llvm::StringRef(t.arch).starts_with("gfx") ? Vendor::Amd : Vendor::Nvidia;
  t.warpSize = warpSize(t.arch);
  return t;
}

llvm::Expected<Target> parseTargetOption(llvm::StringRef text) {
  // What a person types: any case ("SM90", "sm_90A", "GFX942"), or a GPU's
  // name (data/hw/products.json: "H100", "MI300X", "RTX 5090"). Artifacts
  // state their target in the toolchains' own spelling (parseTarget).
  auto t = parseTarget(text);
  if (!t)
    t = parseTarget(text.lower());
  if (!t)
    if (auto product = findProduct(text.str()))
      t = parseTarget(product->arch);
  if (!t)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--arch: '" + text.str() + "' is not an arch name (known: " +
                                       llvm::join(knownArchs(), ", ") + ")");
  return *t;
}

std::optional<std::string> vendorConflict(llvm::StringRef input, llvm::StringRef stated,
                                          Vendor statedVendor, llvm::StringRef what,
                                          const Target &option) {
  if (statedVendor == option.vendor)
    return std::nullopt;
  // "an sm_90", "an AMDGCN", "a gfx942", "a PTX": the article as the name is read aloud.
  bool vowelSound =
      stated.starts_with("sm") || stated.starts_with("AMD") || stated.starts_with("NVIDIA");
  return (input + " is " + (vowelSound ? "an " : "a ") + stated + " " + what + "; --arch " +
          option.arch + " is " + vendorTitle(option.vendor) + " (--arch reads an input as " +
          "another chip of its own vendor: give an " + vendorTitle(statedVendor) +
          " arch, or none)")
      .str();
}

std::optional<std::string> vendorConflict(llvm::StringRef input, llvm::StringRef stated,
                                          llvm::StringRef what, llvm::StringRef optionArch) {
  auto s = parseTarget(stated);
  auto o = parseTarget(optionArch);
  if (!s || !o)
    return std::nullopt;
  return vendorConflict(input, s->arch, s->vendor, what, *o);
}

std::string declinedNote(const std::string &arch) {
  return "no hardware figures for " + arch + " (known: " + llvm::join(knownArchs(), ", ") +
         "); declined rather than guessed";
}

} // namespace tilexform::hw
