#include "tilexform/hw/Target.h"

#include "tilexform/hw/ArchData.h"

#include <llvm/ADT/StringExtras.h>

namespace tilexform::hw {

const char *vendorName(Vendor v) { return v == Vendor::Amd ? "amd" : "nvidia"; }

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
  auto t = parseTarget(text);
  if (!t)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--arch: '" + text.str() + "' is not an arch name (known: " +
                                       llvm::join(knownArchs(), ", ") + ")");
  return *t;
}

std::string declinedNote(const std::string &arch) {
  return "no hardware figures for " + arch + " (known: " + llvm::join(knownArchs(), ", ") +
         "); declined rather than guessed";
}

} // namespace tilexform::hw
