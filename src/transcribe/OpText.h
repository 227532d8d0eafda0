// What the transcriber reads from types and attributes beyond what the op
// table gives: element types and shapes, Gluon's dtype names, a constant's
// value as Python writes it, the memory ops' cache and eviction options.
#pragma once

#include "tilexform/ir/Module.h"

#include <llvm/ADT/APFloat.h>
#include <mlir/IR/Types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilexform::transcribe {

/// The element type of a tensor, memdesc, pointer or scalar type.
mlir::Type elementOf(mlir::Type t);
std::vector<int64_t> shapeOf(mlir::Type t);
bool isTensor(mlir::Type t);
bool isPointer(mlir::Type t);
bool isToken(mlir::Type t);
bool isTensorDesc(mlir::Type t);

/// Gluon's name for a scalar type; empty when it has none.
std::string dtypeName(mlir::Type t);

/// A float as Python writes it so that it rounds to the same value of its
/// type: infinities and NaN by name, the rest with enough digits.
std::string floatLiteral(double v);
/// The shortest decimal that rounds back to the value in its own type
/// (`1.44269502` for an f32, not `1.4426950216293335`).
std::string floatLiteral(const llvm::APFloat &v);

struct Literal {
  std::string text; // Python expression of the scalar value
  bool dense = false;
};

/// arith.constant's value as a Python literal, in either form the op was
/// written (`1024 : i32`, `dense<0xFF800000> : tensor<...>`, `true`); none for
/// a tensor of several values.
std::optional<Literal> constantValue(const ir::Operation &op);

/// A memory op's cache modifier as Gluon spells it (`.ca`, `.cg`, `.cs`, ...),
/// from `cacheModifier = ca` or the generic form's integer; empty for none.
std::string cacheModifierOf(const ir::Operation &op);
/// A memory op's eviction policy (`evict_first`, `evict_last`); empty for
/// the default.
std::string evictionPolicyOf(const ir::Operation &op);

/// `[1, 0]` from an `array<i32: 1, 0>` attribute (a permutation's order).
std::string orderList(mlir::Attribute a);

} // namespace tilexform::transcribe
