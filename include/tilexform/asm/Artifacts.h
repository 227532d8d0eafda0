// Readers for the compile artifacts Triton writes per kernel: AMDGCN text,
// HSA code objects (.hsaco), CUDA binaries (.cubin), PTX and SASS text, and
// the metadata JSON. Each reader returns what one file says about each kernel
// it holds; joining the files of one kernel is probe's job.
#pragma once

#include "tilexform/support/InputKind.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilexform::asmfile {

enum class ArtifactKind { Amdgcn, Hsaco, Cubin, Ptx, Sass, MetadataJson };

/// "amdgcn", "hsaco", "cubin", "ptx", "sass", "json".
const char *artifactKindName(ArtifactKind kind);
/// The artifact kind of an input kind (a CUDA ELF is a .cubin, JSON a
/// metadata sidecar, ...); none for kinds that are no artifact.
std::optional<ArtifactKind> artifactKindOf(InputKind kind);
/// The kind a file name implies by its extension; none for other files.
std::optional<ArtifactKind> artifactKindOf(const std::string &path);

/// One figure and where it was read: `file` plus the field or directive that
/// carried it (e.g. "; NumVGPRsForWavesPerEU", "EIATTR_REGCOUNT").
struct Figure {
  int64_t value = 0;
  std::string file;
  std::string field;
};
using OptFigure = std::optional<Figure>;

/// What one artifact says about one kernel. Every field is optional: each
/// kind of file carries a different subset.
struct KernelFacts {
  std::string kernel; // entry symbol
  std::string file;
  ArtifactKind kind = ArtifactKind::Amdgcn;
  std::optional<std::string> arch;     // normalised: "gfx942", "sm_90"
  std::optional<std::string> archFrom; // field the arch was read from
  OptFigure numWarps, warpSize, sharedBytes, tmemColumns, wavesPerEu;
  // NVIDIA
  OptFigure registers, localBytes, staticSharedBytes, maxThreads, spillInstructions;
  // AMD (CDNA/RDNA)
  OptFigure vgprsForOccupancy, sgprsForOccupancy, archVgprs, agprs, totalVgprs, totalSgprs,
      vgprSpills, sgprSpills, scratchBytes, compilerOccupancy, maxFlatWorkgroupSize;
  // Metadata JSON (Triton's runtime figures, when the tuner stored them)
  OptFigure jsonRegisters, jsonSpills;
  std::vector<std::string> notes; // non-fatal remarks about this file
};

/// An error that names a file and, where it applies, a line and column.
llvm::Error artifactError(const std::string &file, unsigned line, unsigned col,
                          const std::string &message);

llvm::Expected<std::vector<KernelFacts>> readAmdgcn(const std::string &file, llvm::StringRef text);
llvm::Expected<std::vector<KernelFacts>> readHsaco(const std::string &file, llvm::StringRef bytes);
llvm::Expected<std::vector<KernelFacts>> readCubin(const std::string &file, llvm::StringRef bytes);
llvm::Expected<std::vector<KernelFacts>> readPtx(const std::string &file, llvm::StringRef text);
llvm::Expected<std::vector<KernelFacts>> readSass(const std::string &file, llvm::StringRef text);
/// A Triton metadata JSON; an error for JSON that is not Triton's.
llvm::Expected<std::vector<KernelFacts>> readMetadataJson(const std::string &file,
                                                          llvm::StringRef text);

/// What AMD readers derive alike once a kernel's fields are read: the
/// occupancy register counts fall back to the totals, and the warps per
/// workgroup come from .max_flat_workgroup_size and the wavefront size.
void completeAmdFacts(KernelFacts &k);

/// Dispatches on `kind`.
llvm::Expected<std::vector<KernelFacts>> readArtifact(ArtifactKind kind, const std::string &file,
                                                      llvm::StringRef contents);

/// "gfx942" from "amdgcn-amd-amdhsa--gfx942" or "gfx942:sramecc+:xnack-";

} // namespace tilexform::asmfile
