// The transcriber's readers of types and of the values Triton prints in an
// op's own syntax (see OpText.h).
#include "OpText.h"

#include "tilexform/ir/Dialects.h"
#include "tilexform/ir/Lexer.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>
#include <mlir/IR/BuiltinTypes.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

namespace tilexform::transcribe {

using ir::Operation;

mlir::Type elementOf(mlir::Type t) {
  if (!t)
    return t;
  if (auto r = mlir::dyn_cast<mlir::RankedTensorType>(t))
    return r.getElementType();
  if (auto tt = mlir::dyn_cast<ir::TritonType>(t))
    if (tt.kind() == ir::TritonTypeKind::MemDesc)
      return tt.info().elementType;
  return t;
}

std::vector<int64_t> shapeOf(mlir::Type t) {
  if (!t)
    return {};
  if (auto r = mlir::dyn_cast<mlir::RankedTensorType>(t))
    return std::vector<int64_t>(r.getShape().begin(), r.getShape().end());
  if (auto tt = mlir::dyn_cast<ir::TritonType>(t))
    return tt.info().shape;
  return {};
}

bool isTensor(mlir::Type t) { return t && mlir::isa<mlir::RankedTensorType>(t); }

bool isPointer(mlir::Type t) {
  auto tt = mlir::dyn_cast_or_null<ir::TritonType>(t);
  return tt && tt.kind() == ir::TritonTypeKind::Pointer;
}

bool isToken(mlir::Type t) { return t && ir::typeText(t).find("token") != std::string::npos; }

/// Gluon's name for a scalar type; empty when it has none.
std::string dtypeName(mlir::Type t) {
  if (!t)
    return "";
  if (isPointer(t)) {
    std::string inner = dtypeName(mlir::cast<ir::TritonType>(t).info().elementType);
    return inner.empty() ? "" : "gl.pointer_type(" + inner + ")";
  }
  std::string s = ir::typeText(t);
  static const std::map<std::string, std::string> names = {{"f32", "gl.float32"},
                                                           {"f16", "gl.float16"},
                                                           {"bf16", "gl.bfloat16"},
                                                           {"f64", "gl.float64"},
                                                           {"i1", "gl.int1"},
                                                           {"i8", "gl.int8"},
                                                           {"i16", "gl.int16"},
                                                           {"i32", "gl.int32"},
                                                           {"i64", "gl.int64"},
                                                           {"f8E4M3FN", "gl.float8e4nv"},
                                                           {"f8E5M2", "gl.float8e5"},
                                                           {"f8E4M3FNUZ", "gl.float8e4b8"},
                                                           {"f8E5M2FNUZ", "gl.float8e5b16"},
                                                           {"f8E4M3B11FNUZ", "gl.float8e4b15"}};
  auto it = names.find(s);
  return it == names.end() ? "" : it->second;
}

/// A float as Python writes it so that it rounds to the same value of its
/// type: infinities and NaN by name, the rest with enough digits.
std::string floatLiteral(double v) {
  if (std::isnan(v))
    return "float(\"nan\")";
  if (std::isinf(v))
    return v < 0 ? "float(\"-inf\")" : "float(\"inf\")";
  std::string s = fmt::format("{:.17g}", v);
  if (s.find_first_of(".en") == std::string::npos)
    s += ".0";
  return s;
}

/// The shortest decimal that Python reads as a double which, rounded to the
/// value's own type (as Triton rounds a Python float to f32 or f16), is that
/// value again: `1.442695` for the f32 nearest 1.44269502, not
/// `1.4426950216293335`.
std::string floatLiteral(const llvm::APFloat &value) {
  llvm::APFloat d = value;
  bool lost = false;
  d.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  double v = d.convertToDouble();
  if (std::isnan(v) || std::isinf(v))
    return floatLiteral(v);
  for (int digits = 1; digits < 17; ++digits) {
    std::string s = fmt::format("{:.{}g}", v, digits);
    llvm::APFloat back(std::strtod(s.c_str(), nullptr));
    back.convert(value.getSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost);
    if (back.bitwiseIsEqual(value)) {
      if (s.find_first_of(".en") == std::string::npos)
        s += ".0";
      return s;
    }
  }
  return floatLiteral(v);
}

/// arith.constant's value, as the reader typed it (`3 : i32`, `dense<0xFF800000>
/// : tensor<...>`, `true`), in either form the op was written.
std::optional<Literal> constantValue(const Operation &op) {
  mlir::Attribute a = op.attr("value");
  Literal lit;
  if (auto dense = mlir::dyn_cast_or_null<mlir::DenseElementsAttr>(a)) {
    if (!dense.isSplat())
      return std::nullopt;
    lit.dense = true;
    a = dense.getSplatValue<mlir::Attribute>();
  }
  if (auto i = mlir::dyn_cast_or_null<mlir::IntegerAttr>(a)) {
    if (i.getType().isInteger(1))
      lit.text = i.getValue().isZero() ? "False" : "True";
    else
      lit.text = std::to_string(i.getValue().getSExtValue());
    return lit;
  }
  if (auto f = mlir::dyn_cast_or_null<mlir::FloatAttr>(a)) {
    lit.text = floatLiteral(f.getValue());
    return lit;
  }
  return std::nullopt;
}

std::string cacheModifierOf(const Operation &op) {
  std::string c = op.enumAttr("cache");
  return c.empty() || c == "none" ? "" : "." + c;
}

std::string evictionPolicyOf(const Operation &op) {
  std::string e = op.enumAttr("evict");
  return e == "evict_normal" ? "" : e;
}

bool isTensorDesc(mlir::Type t) {
  auto tt = mlir::dyn_cast_or_null<ir::TritonType>(t);
  return tt && tt.kind() == ir::TritonTypeKind::TensorDesc;
}

std::string orderList(mlir::Attribute a) {
  std::string order = a ? ir::attrText(a) : "";
  llvm::StringRef o(order);
  if (o.consume_front("array<i32:"))
    return "[" + o.rtrim(">").trim().str() + "]";
  return order;
}

} // namespace tilexform::transcribe
