// The libdevice functions of Triton's `triton.language.extra.libdevice`,
// by the extern symbol each calls (CUDA's `__nv_*`, ROCm's `__ocml_*`).
#pragma once

#include <llvm/ADT/StringRef.h>

namespace tilexform::transcribe {

/// The libdevice function that calls `symbol` (`rsqrt` for `__nv_rsqrtf`);
/// null when none does.
const char *libdeviceFunction(llvm::StringRef symbol);

} // namespace tilexform::transcribe
