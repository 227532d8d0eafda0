// swizzled_shared and amd_rotating_shared: shared memory swizzled by vec,
// perPhase and maxPhase (src/layout/kinds/SwizzledShared.cpp).
#pragma once

#include "tilexform/layout/CGALayout.h"

#include <vector>

namespace tilexform::layout {

/// swizzled_shared and amd_rotating_shared share their fields.
struct SwizzledSharedEncoding {
  unsigned vec = 1, perPhase = 1, maxPhase = 1;
  std::vector<unsigned> order;
  CGALayout cga;
  bool rotating = false; // amd_rotating_shared
  bool operator==(const SwizzledSharedEncoding &) const = default;
};

} // namespace tilexform::layout
