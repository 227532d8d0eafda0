// padded_shared: a shared layout with padding after each interval
// (src/layout/kinds/PaddedShared.cpp).
#pragma once

#include "tilexform/layout/LinearLayout.h"

#include <utility>
#include <vector>

namespace tilexform::layout {

struct PaddedSharedEncoding {
  std::vector<std::pair<unsigned, unsigned>> intervalPaddings;
  LinearLayout linear; // offset, block -> dim0..
  /// The 3.5 form `{order = [...]}` without a shape: the identity in this
  /// order over the memdesc's shape, built where a memdesc uses it.
  std::vector<unsigned> orderOnly;
  bool operator==(const PaddedSharedEncoding &) const = default;
};

} // namespace tilexform::layout
