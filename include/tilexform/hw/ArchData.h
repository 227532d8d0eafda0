// Per-arch hardware figures. The numbers live once, in data/hw/<arch>.json,
// each with its source; they are compiled into the binary so a run needs no
// data files beside it.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tilexform::hw {

struct Figure {
  long long value = 0;
  std::string source;
};

/// The arch names with data, e.g. "gfx942", "sm_90".
std::vector<std::string> knownArchs();
/// One figure of one arch ("lds_per_cu_bytes", "shared_memory_per_block_optin_bytes", ...);
/// none when the arch or the figure is unknown — never another arch's number.
std::optional<Figure> figure(const std::string &arch, const std::string &key);
/// A named fact that is a word, not a number ("family": "cdna3"), with its
/// source; none when the arch or the fact is unknown.
struct Fact {
  std::string value;
  std::string source;
};
std::optional<Fact> fact(const std::string &arch, const std::string &key);
/// The archs whose data names them of `family` ("cdna3": gfx942).
std::vector<std::string> archsOfFamily(const std::string &family);
/// Threads per warp (wavefront) of a known arch; none when unknown.
std::optional<unsigned> warpSize(const std::string &arch);
/// The shared memory / LDS one block (workgroup) may use on this arch.
std::optional<Figure> sharedCapacity(const std::string &arch);

} // namespace tilexform::hw
