// blocked: the register/lane/warp tiling of a tensor (src/layout/kinds/Blocked.cpp).
#pragma once

#include "tilexform/layout/CGALayout.h"

#include <vector>

namespace tilexform::layout {

struct BlockedEncoding {
  std::vector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  CGALayout cga;
  bool operator==(const BlockedEncoding &) const = default;
};

} // namespace tilexform::layout
