// nvidia_mma: the accumulator of Ampere's mma and Hopper's wgmma
// (src/layout/kinds/NvidiaMma.cpp).
#pragma once

#include "tilexform/layout/CGALayout.h"

#include <vector>

namespace tilexform::layout {

struct NvidiaMmaEncoding {
  unsigned versionMajor = 2, versionMinor = 0;
  std::vector<unsigned> warpsPerCTA;
  CGALayout cga;
  std::vector<unsigned> instrShape;
  bool operator==(const NvidiaMmaEncoding &) const = default;
};

} // namespace tilexform::layout
