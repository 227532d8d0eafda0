// amd_wmma: RDNA's WMMA accumulator layout (src/layout/kinds/AmdWmma.cpp).
#pragma once

#include "tilexform/layout/CGALayout.h"

#include <vector>

namespace tilexform::layout {

/// amd_wmma as Triton 3.6 prints it (warpsPerCTA, optional tilesPerWarp and
/// instrShape). The later `ctaLayout` spelling is converted into this form.
struct AmdWmmaEncoding {
  unsigned version = 1;
  bool isTranspose = false;
  std::vector<unsigned> warpsPerCTA;
  CGALayout cga;
  std::vector<unsigned> tilesPerWarp; // empty = all ones
  std::vector<unsigned> instrShape;   // empty = [16, 16, 16]
  bool operator==(const AmdWmmaEncoding &) const = default;
};

} // namespace tilexform::layout
