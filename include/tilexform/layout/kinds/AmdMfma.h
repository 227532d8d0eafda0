// amd_mfma: CDNA's MFMA accumulator layout (src/layout/kinds/AmdMfma.cpp).
#pragma once

#include "tilexform/layout/CGALayout.h"

#include <vector>

namespace tilexform::layout {

struct AmdMfmaEncoding {
  unsigned version = 0;
  std::vector<unsigned> warpsPerCTA;
  std::vector<unsigned> instrShape; // [M, N, K]
  bool isTransposed = false;
  CGALayout cga;
  std::vector<unsigned> tilesPerWarp; // empty = all ones
  unsigned elementBitWidth = 32;
  bool operator==(const AmdMfmaEncoding &) const = default;
};

} // namespace tilexform::layout
