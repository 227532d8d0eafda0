// A loaded module printed back in MLIR's generic form
// (`%0 = "tt.load"(%1) {...} : (tensor<...>) -> tensor<...>`): what the
// reader understood, in a form any MLIR tool parses
// (`mlir-opt --allow-unregistered-dialect`).
#pragma once

#include "tilexform/ir/Module.h"

#include <llvm/Support/raw_ostream.h>

namespace tilexform::ir {

/// Prints every op with its operands, results, attributes, regions and
/// types. A type the reader could not tell prints as `none`; successors of
/// branch ops are not kept by the reader and are not printed.
void printGeneric(const Module &mod, llvm::raw_ostream &os);

} // namespace tilexform::ir
