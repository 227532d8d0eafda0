// linear and generic_linear: a distributed layout given by its bases
// (src/layout/kinds/Linear.cpp).
#pragma once

#include "tilexform/layout/LinearLayout.h"

namespace tilexform::layout {

struct LinearEncoding {
  LinearLayout ll; // register, lane, warp, block -> dim0..
  bool generic = false;
  bool operator==(const LinearEncoding &) const = default;
};

} // namespace tilexform::layout
