// probe: registers, spills, shared memory/LDS and occupancy per kernel, from
// the artifacts of a Triton cache or dump tree. Files of one kernel are joined
// by directory, file stem and kernel name — never by file age.
#pragma once

#include "tilexform/asm/Artifacts.h"
#include "tilexform/hw/Occupancy.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilexform::asmfile {

struct ProbedKernel {
  std::string kernel;
  std::string directory;
  std::string stem;
  std::vector<std::string> files; // every artifact joined into this record
  std::optional<std::string> arch;
  std::string archFrom;
  /// The joined figures, each with the file and field it came from:
  /// num_warps, registers, agprs, sgprs, arch_vgprs, total_vgprs, vgpr_spills,
  /// sgpr_spills, scratch_bytes, local_bytes, spill_instructions,
  /// shared_bytes, static_shared_bytes, tmem_columns, waves_per_eu,
  /// compiler_occupancy.
  std::map<std::string, Figure> figures;
  std::optional<int64_t> spills; // AMD: VGPR + SGPR spill slots; NVIDIA: local bytes / 4
  std::optional<hw::Occupancy> occupancy;
  std::string declined; // why occupancy was not computed
  /// ProbeOptions::arch names another vendor than an artifact of this kernel
  /// states: the one line refusing it (hw::vendorConflict), else empty.
  std::string archConflict;
  std::vector<std::string> notes;

  std::optional<int64_t> get(const std::string &key) const {
    auto it = figures.find(key);
    return it == figures.end() ? std::nullopt : std::optional<int64_t>(it->second.value);
  }
};

struct ProbeOptions {
  std::optional<std::string> arch; // overrides what the artifacts say
  unsigned jobs = 0;               // 0: all cores
  /// Called as files are read (done, total), from one thread at a time.
  std::function<void(size_t, size_t)> progress;
  /// When set, each kernel is handed over in report order as soon as its
  /// files are read, and the report keeps none: a tree of any size is probed
  /// in bounded memory.
  std::function<void(ProbedKernel &&)> onKernel;
};

struct ProbeReport {
  std::vector<ProbedKernel> kernels; // empty when ProbeOptions::onKernel took them
  size_t kernelCount = 0;
  std::vector<std::string> errors; // one line per unreadable artifact: "file[:line:col]: why"
  size_t filesRead = 0;
  size_t filesSkipped = 0; // non-Triton JSON and other files met while walking a tree
};

/// Reads every artifact named or found under `paths` and joins them per
/// kernel. Fails only for a path that does not exist.
llvm::Expected<ProbeReport> probe(const std::vector<std::string> &paths,
                                  const ProbeOptions &options);

} // namespace tilexform::asmfile
