// Triton's text views of a layout, cell for cell as triton-tensor-layout and
// Gluon's get_distributed_view() print them: the tensor as a grid, one row
// per line, each cell the threads holding that element (`T37:3`: thread id
// across the CTA, register; replicas joined by `|`), or for a shared layout
// the coordinates stored at each offset; and the hardware view, each warp's
// registers per lane (each block's offsets for shared).
#pragma once

#include "tilexform/layout/LinearLayout.h"

#include <string>

namespace tilexform::layout {

/// The view of a distributed (register, lane, warp, block) layout.
std::string distributedView(const LinearLayout &ll, bool hwView);
/// The view of a shared (offset, block) layout.
std::string sharedView(const LinearLayout &ll, bool hwView);
/// Either, by the layout's input dimensions.
std::string layoutView(const LinearLayout &ll, bool hwView);

} // namespace tilexform::layout
