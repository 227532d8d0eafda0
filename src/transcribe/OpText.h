// What the transcriber reads from an op beyond its named operands: element
// types and shapes, Gluon's dtype names, and the few values Triton prints in
// an op's own syntax rather than as attributes (a constant's value, the
// keyword after the op name, an integer before the type).
#pragma once

#include "tilexform/ir/Module.h"

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

/// The value of a float token as MLIR prints it: decimal, or hex bits of
/// the element type (0xFF800000 for -inf in f32).
std::optional<double> parseFloatToken(llvm::StringRef tok, const std::string &type);

struct Literal {
  std::string text; // Python expression of the scalar value
  bool dense = false;
};

/// arith.constant's value from its own text (`arith.constant 1024 : i32`,
/// `arith.constant dense<0xFF800000> : tensor<...>`, `true`).
std::optional<Literal> constantValue(const ir::Operation &op);

/// The first bare word after the op name (`arith.cmpi slt, ...`,
/// `tt.get_program_id x`).
std::string keywordAfterName(const ir::Operation &op);

/// An enum attribute's keyword: as the op's format writes it (`cacheModifier =
/// ca`), or, in the generic form, the integer Triton's enum gives it (`cache =
/// 2 : i32`), named by `byNumber`; empty when absent or out of range.
std::string enumKeyword(const ir::Operation &op, llvm::StringRef keyword, llvm::StringRef attrName,
                        llvm::ArrayRef<const char *> byNumber);

/// A memory op's cache modifier as Gluon spells it (`.ca`, `.cg`, `.cs`, ...),
/// from `cacheModifier = ca` or the generic form's integer; empty for none.
std::string cacheModifierOf(const ir::Operation &op);
/// A memory op's eviction policy (`evict_first`, `evict_last`); empty for
/// the default.
std::string evictionPolicyOf(const ir::Operation &op);

/// The bare words right after the op name (`tt.atomic_rmw add, acq_rel, gpu, ...`).
std::vector<std::string> keywordsAfterName(const ir::Operation &op);

/// The first integer written after the op's operands in its own text, before
/// its type (`ttng.init_barrier %b, 1 : ...`, `ttng.barrier_expect %b, 32768, %p`).
std::optional<int64_t> integerInText(const ir::Operation &op);

/// The integers of an attribute written `16 : i32` or `dense<[16, 8]> :
/// tensor<2xi32>` (those before its type).
std::vector<int64_t> attrIntegers(mlir::Attribute a);

/// The integers written in the op's first `[...]` (`ttg.memdesc_subslice %a[0, 32]`).
std::vector<int64_t> bracketIntegers(const ir::Operation &op);

/// The block labels an op branches to, in order (`cf.cond_br %c, ^bb1, ^bb2`).
std::vector<std::string> successorLabels(const ir::Operation &op);

/// `[1, 0]` from an `array<i32: 1, 0>` attribute (a permutation's order).
std::string orderList(mlir::Attribute a);

} // namespace tilexform::transcribe
