// libFuzzer entry point for the artifact readers and the Python parser: any
// bytes read as AMDGCN, HSA code object, CUDA binary, PTX, SASS, metadata
// JSON or Python source must give a result or an error, never a crash or a
// hang. The first byte picks the reader, so one corpus covers all of them.
#include "FuzzSupport.h"

#include "tilexform/asm/Artifacts.h"
#include "tilexform/hw/Occupancy.h"
#include "tilexform/source/Survey.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilexform::fuzz::keepLastInput(data, size);
  if (size == 0)
    return 0;
  using tilexform::asmfile::ArtifactKind;
  static const ArtifactKind kinds[] = {ArtifactKind::Amdgcn, ArtifactKind::Hsaco,
                                       ArtifactKind::Cubin,  ArtifactKind::Ptx,
                                       ArtifactKind::Sass,   ArtifactKind::MetadataJson};
  llvm::StringRef bytes(reinterpret_cast<const char *>(data) + 1, size - 1);
  unsigned pick = data[0] % 7;
  if (pick < 6) {
    auto r = tilexform::asmfile::readArtifact(kinds[pick], "fuzz", bytes);
    if (!r) {
      llvm::consumeError(r.takeError());
      return 0;
    }
    // Whatever was read must also survive the occupancy models.
    for (const auto &k : *r) {
      auto value = [](const tilexform::asmfile::OptFigure &f) -> std::optional<int64_t> {
        return f ? std::optional<int64_t>(f->value) : std::nullopt;
      };
      for (const char *arch : {"gfx942", "gfx950", "gfx1201", "sm_90", "sm_100"}) {
        tilexform::hw::OccupancyInput in;
        in.arch = k.arch.value_or(arch);
        in.numWarps = k.numWarps ? k.numWarps->value : 4;
        in.registers = k.registers ? value(k.registers) : value(k.vgprsForOccupancy);
        in.sgprs = value(k.sgprsForOccupancy);
        in.sharedBytes = value(k.sharedBytes);
        in.binarySharedBytes = value(k.staticSharedBytes);
        in.tmemColumns = value(k.tmemColumns);
        auto occ = tilexform::hw::computeOccupancy(in);
        if (!occ)
          llvm::consumeError(occ.takeError());
      }
    }
  } else {
    auto r = tilexform::source::surveySource(bytes, "fuzz.py");
    if (!r)
      llvm::consumeError(r.takeError());
  }
  return 0;
}
