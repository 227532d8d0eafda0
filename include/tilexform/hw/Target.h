// The one target parser: every spelling of a GPU arch that Triton, the
// toolchains and the artifacts use, to one canonical name with its vendor and
// warp size (from data/hw). Every `--arch`, the reader's module target and the
// artifact readers go through here.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>

namespace tilexform::hw {

enum class Vendor { Nvidia, Amd };

/// "nvidia" or "amd".
const char *vendorName(Vendor v);
/// "NVIDIA" or "AMD", as a sentence names the vendor.
const char *vendorTitle(Vendor v);

struct Target {
  std::string arch; // canonical: "sm_90", "gfx942"
  Vendor vendor = Vendor::Nvidia;
  /// Threads per warp (wavefront) from data/hw; none for an arch without figures.
  std::optional<unsigned> warpSize;

  /// Whether data/hw holds this arch's figures.
  bool hasFigures() const { return warpSize.has_value(); }
  /// Triton's spelling: "cuda:90", "hip:gfx942".
  std::string tritonTarget() const;
};

/// Parses any spelling: "gfx942", "hip:gfx942", "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
/// "sm_90", "sm_90a", "sm90", "cuda:90", "90", "sm_100f". None when `text` names no arch.
std::optional<Target> parseTarget(llvm::StringRef text);

/// Only the canonical name of `parseTarget` ("sm_90" from "sm_90a").
std::optional<std::string> archName(llvm::StringRef text);

/// What `--arch` accepts: any arch name, with or without figures. The error
/// names the spelling given and the arches known, the same for every command.
llvm::Expected<Target> parseTargetOption(llvm::StringRef text);

/// An `--arch` that names another vendor than the target an input states
/// (its ELF flags, `.amdgcn_target`, PTX `.target`, a dump's `ttg.target`)
/// is refused: it would read an NVIDIA binary with AMD figures. `stated` is
/// the input's arch ("sm_90") or, when it names only its instruction set,
/// that ("AMDGCN"); `what` what the input is ("binary", "listing", "dump").
/// The one line, the same for every command: "x.cubin is an sm_90 binary;
/// --arch gfx942 is AMD (...)"; none when the vendors agree (an override to
/// another chip of the same vendor is what `--arch` is for).
std::optional<std::string> vendorConflict(llvm::StringRef input, llvm::StringRef stated,
                                          Vendor statedVendor, llvm::StringRef what,
                                          const Target &option);
/// The same for an input whose target is Triton's or any spelling
/// parseTarget reads; none when `stated` names no arch.
std::optional<std::string> vendorConflict(llvm::StringRef input, llvm::StringRef stated,
                                          llvm::StringRef what, llvm::StringRef optionArch);

/// Why a figure is not given for an arch data/hw does not hold, in the same
/// words for every command: "no hardware figures for gfx1030 (known: ...); declined ...".
std::string declinedNote(const std::string &arch);

} // namespace tilexform::hw
