// nvmma_shared: the shared layout of TMA and wgmma/tcgen05 operands
// (src/layout/kinds/NvmmaShared.cpp).
#pragma once

#include "tilexform/layout/CGALayout.h"

namespace tilexform::layout {

struct NVMMASharedEncoding {
  unsigned swizzlingByteWidth = 0;
  bool transposed = false;
  unsigned elementBitWidth = 16;
  bool fp4Padded = false;
  unsigned rank = 2;
  CGALayout cga;
  bool operator==(const NVMMASharedEncoding &) const = default;
};

} // namespace tilexform::layout
