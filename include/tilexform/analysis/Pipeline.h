// The software pipeline of a dump's hot loop, read from the IR: the loop
// that holds the most matrix multiplies, and what plain's pipeliner left in
// it (staging buffers indexed per iteration, async copies, values loaded
// for a later iteration, an unlowered tt.num_stages).
#pragma once

#include "tilexform/ir/Module.h"

#include <optional>
#include <string>
#include <vector>

namespace tilexform::analysis {

struct LoopPipeline {
  bool found = false; // the module has a loop
  unsigned line = 0;  // of the loop op
  std::string function;
  size_t dots = 0;
  std::optional<int64_t> numStages; // tt.num_stages on the loop
  size_t memdescIndex = 0;          // ttg.memdesc_index in the body
  size_t asyncCopies = 0;           // global → shared copies in the body
  size_t asyncWaits = 0;            // async_wait / wait_barrier in the body
  size_t localStores = 0;
  size_t carriedLoads = 0;        // loop-carried values defined by a load or copy in the body
  std::optional<int64_t> buffers; // leading dim of the buffers indexed in the body
  /// Whether the loop shows plain's pipeliner at work (never iter_args alone).
  bool pipelined() const;
  /// One sentence per fact that makes it pipelined (or says it is not).
  std::vector<std::string> evidence() const;
};

/// The loop with the most dots (innermost on a tie; the first loop when no
/// loop has a dot).
LoopPipeline hotLoopPipeline(const ir::Module &m);

} // namespace tilexform::analysis
