// tilexform's own MLIR dialects for Triton's textual IR: `tt`, `ttg`, `ttng`,
// `amdg`, `gluon` (and `nvg`), plus the pre-3.3/3.6 prefixes `triton_gpu`,
// `triton_nvidia_gpu`, `amdgpu`, `nvgpu`, which parse into the same
// attributes and types. Layout attributes are typed (they carry a
// layout::Encoding) and print with Triton's exact syntax.
#pragma once

#include "tilexform/layout/Encoding.h"

#include <mlir/IR/Attributes.h>
#include <mlir/IR/BuiltinTypes.h>
#include <mlir/IR/Dialect.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/Types.h>

#include <memory>
#include <string>
#include <vector>

namespace tilexform::ir {

namespace detail {
struct LayoutAttrStorage;
struct TritonTypeStorage;
} // namespace detail

/// Any `#ttg.*`, `#ttng.*`, `#amdg.*`, `#gluon.*` attribute. Layout kinds
/// carry their Encoding; the others (memory spaces, tensor-memory encodings,
/// scheduling hints) are kept as OpaqueEncoding with their text.
class LayoutEncodingAttr : public mlir::Attribute::AttrBase<LayoutEncodingAttr, mlir::Attribute,
                                                            detail::LayoutAttrStorage> {
public:
  using Base::Base;
  static constexpr llvm::StringLiteral name = "ttg.encoding";
  static LayoutEncodingAttr get(mlir::MLIRContext *ctx, layout::EncodingPtr enc,
                                std::string text = {});
  const layout::EncodingPtr &getEncoding() const;
  /// Canonical text, e.g. `#ttg.blocked<{...}>`.
  llvm::StringRef getText() const;
};

enum class TritonTypeKind { Pointer, MemDesc, TensorDesc, Other };

/// Triton's own types: `!tt.ptr<T[, as]>`, `!ttg.memdesc<...>`,
/// `!tt.tensordesc<...>`, and others kept by text (`!ttg.async.token`).
struct TritonTypeInfo {
  TritonTypeKind kind = TritonTypeKind::Other;
  mlir::Type elementType;          // pointee / element type
  int addressSpace = 1;            // pointer
  std::vector<int64_t> shape;      // memdesc / tensordesc block
  std::vector<int64_t> allocShape; // memdesc; equals shape when absent
  mlir::Attribute encoding;        // memdesc / tensordesc
  mlir::Attribute memorySpace;     // memdesc
  bool isMutable = false;          // memdesc
  std::string text;                // canonical text
};

class TritonType : public mlir::Type::TypeBase<TritonType, mlir::Type, detail::TritonTypeStorage> {
public:
  using Base::Base;
  static constexpr llvm::StringLiteral name = "tt.type";
  static TritonType get(mlir::MLIRContext *ctx, TritonTypeInfo info);
  const TritonTypeInfo &info() const;
  TritonTypeKind kind() const { return info().kind; }
};

/// Registers the upstream dialects that appear in dumps and tilexform's own.
void registerAllDialects(mlir::DialectRegistry &registry);
/// A context with every dialect loaded, threading off (one file at a time).
std::unique_ptr<mlir::MLIRContext> makeContext();

/// While a module is read: `#ttg.alias_ref<N>` stands for `table[N]`, an
/// alias the reader already parsed, so a layout written once is never parsed
/// again for each type that names it. Null clears it.
void setAliasAttributes(mlir::MLIRContext *ctx, const std::vector<mlir::Attribute> *table);

/// The encoding of a tensor or memdesc type, or null.
layout::EncodingPtr encodingOf(mlir::Type type);
/// The shape a layout is evaluated at: a tensor's shape, or the trailing
/// `rank` dims of a memdesc's allocation shape.
std::vector<int64_t> layoutShapeOf(mlir::Type type);
/// Text of a type or attribute as Triton prints it.
std::string typeText(mlir::Type type);
std::string attrText(mlir::Attribute attr);

} // namespace tilexform::ir
