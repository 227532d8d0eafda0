// The pre-3.3 `#ttg.shared` (src/layout/kinds/LegacyShared.cpp).
#pragma once

#include "tilexform/layout/CGALayout.h"

#include <vector>

namespace tilexform::layout {

/// Pre-3.3 `#triton_gpu.shared<{..., hasLeadingOffset}>`: which modern kind
/// it means depends on the element type, so it is resolved at the memdesc.
struct LegacySharedEncoding {
  unsigned vec = 1, perPhase = 1, maxPhase = 1;
  std::vector<unsigned> order;
  CGALayout cga;
  bool hasLeadingOffset = false;
  bool operator==(const LegacySharedEncoding &) const = default;
};

} // namespace tilexform::layout
