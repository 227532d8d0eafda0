// shared_linear: a shared layout given by its bases
// (src/layout/kinds/SharedLinear.cpp).
#pragma once

#include "tilexform/layout/LinearLayout.h"

namespace tilexform::layout {

struct SharedLinearEncoding {
  LinearLayout ll; // offset, block -> dim0..
  unsigned alignment = 16;
  bool operator==(const SharedLinearEncoding &) const = default;
};

} // namespace tilexform::layout
