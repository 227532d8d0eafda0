// Occupancy models: how many blocks (NVIDIA, per SM) or workgroups (AMD, per
// CU) fit, with every limiter computed on its own, because registers and
// shared memory/LDS cap residency independently. All constants come from
// data/hw/<arch>.json; an arch without the needed figures is declined.
#pragma once

#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilexform::hw {

struct OccupancyInput {
  std::string arch;     // "gfx942", "sm_90"
  int64_t numWarps = 0; // warps (NVIDIA) or wavefronts (AMD) per block/workgroup
  /// NVIDIA: registers per thread. AMD: VGPRs the wave is allocated
  /// (NumVGPRsForWavesPerEU; arch VGPRs and AGPRs together on CDNA).
  std::optional<int64_t> registers;
  std::optional<int64_t> sgprs; // AMD only
  /// Per block/workgroup as the launch passes it (Triton's dynamic "shared").
  std::optional<int64_t> sharedBytes;
  std::optional<int64_t> tmemColumns; // NVIDIA sm_100 family
  /// NVIDIA: the size of the cubin's .nv.shared.<kernel>, when known.
  std::optional<int64_t> binarySharedBytes;
};

/// One limiter: how many blocks/workgroups it alone allows, and how.
struct Limiter {
  std::string name;              // "registers", "shared", "warps", "blocks", "tmem", "workgroups"
  std::optional<int64_t> allows; // none: this limiter does not limit (or is unknown; see detail)
  bool known = true;             // false: an input was missing, `detail` says which
  std::string detail;            // the arithmetic, e.g. "floor(4 x floor(16384/6912) / 4) = 2"
};

struct Occupancy {
  std::string vendor; // "amd" or "nvidia"
  std::vector<Limiter> limits;
  /// AMD: waves per SIMD the registers allow (VGPR and SGPR terms).
  std::optional<int64_t> wavesPerSimd, wavesByVgpr, wavesBySgpr;
  /// blocks/SM (NVIDIA) or workgroups/CU (AMD); none when a limiter is unknown
  /// or the arch has no per-CU model (RDNA, GFX1250).
  std::optional<int64_t> resident;
  /// The limiter(s) with the smallest allowance, "+"-joined on a tie.
  std::string binding;
  /// Resident warps (waves) over the maximum per SM (CU).
  std::optional<double> fraction;
  std::vector<std::string> figuresUsed; // "arch.figure = value (source)"
  std::vector<std::string> notes;
};

/// Computes occupancy, or an error naming the arch (and figure) that is missing.
llvm::Expected<Occupancy> computeOccupancy(const OccupancyInput &in);

} // namespace tilexform::hw
