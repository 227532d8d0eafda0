// The CTA-cluster part every layout kind may carry.
#pragma once

#include <cstdint>
#include <vector>

namespace tilexform::layout {

using Bases = std::vector<std::vector<int32_t>>;

/// The CTA-cluster part of a layout: the `block` bases (one per log2 CTA).
struct CGALayout {
  Bases bases;
  bool operator==(const CGALayout &) const = default;
};

} // namespace tilexform::layout
