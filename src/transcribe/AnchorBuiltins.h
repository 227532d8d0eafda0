// The functions an anchor defines over Triton's semantic (`@builtin`) where
// plain writes an op that Gluon 3.6 has no public spelling of. One table:
// an emitter asks for one by its name (Emitter::need), the module writes
// those asked for after its constants, and Scope reserves every name.
#pragma once

#include <llvm/ADT/ArrayRef.h>

namespace tilexform::transcribe {

struct AnchorBuiltin {
  const char *name;       // what the kernel calls: `_unsplat`
  const char *definition; // the function, decorator included
};

llvm::ArrayRef<AnchorBuiltin> anchorBuiltins();

} // namespace tilexform::transcribe
