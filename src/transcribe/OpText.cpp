// The transcriber's readers of types and of the values Triton prints in an
// op's own syntax (see OpText.h).
#include "OpText.h"

#include "tilexform/ir/Dialects.h"
#include "tilexform/ir/Lexer.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>
#include <mlir/IR/BuiltinTypes.h>

#include <cmath>
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

/// The value of a float token as MLIR prints it: decimal, or hex bits of
/// the element type (0xFF800000 for -inf in f32).
std::optional<double> parseFloatToken(llvm::StringRef tok, const std::string &type) {
  if (tok.starts_with("0x") || tok.starts_with("0X")) {
    uint64_t bits = 0;
    if (tok.drop_front(2).getAsInteger(16, bits))
      return std::nullopt;
    if (type == "f32") {
      uint32_t b = uint32_t(bits);
      float f;
      std::memcpy(&f, &b, 4);
      return double(f);
    }
    if (type == "f64") {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    if (type == "f16" || type == "bf16") {
      uint32_t b = uint32_t(bits) & 0xffff;
      if (type == "bf16") {
        uint32_t w = b << 16;
        float f;
        std::memcpy(&f, &w, 4);
        return double(f);
      }
      int exp = int((b >> 10) & 0x1f), mant = int(b & 0x3ff);
      double sign = (b & 0x8000) ? -1 : 1;
      if (exp == 0x1f)
        return mant ? NAN : sign * INFINITY;
      if (exp == 0)
        return sign * std::ldexp(double(mant), -24);
      return sign * std::ldexp(double(mant + 1024), exp - 25);
    }
    return std::nullopt;
  }
  double v = 0;
  if (tok.getAsDouble(v))
    return std::nullopt;
  return v;
}

/// arith.constant's value from its own text (`arith.constant 1024 : i32`,
/// `arith.constant dense<0xFF800000> : tensor<...>`, `true`).
std::optional<Literal> constantValue(const Operation &op) {
  std::string ownText = op.text();
  llvm::StringRef text = ownText;
  ir::TokenStream ts = ir::lex(text);
  size_t i = 0;
  auto &toks = ts.tokens;
  while (i < toks.size() && !(toks[i].is(ir::TokenKind::BareId) &&
                              toks[i].spelling(text) == llvm::StringRef(op.writtenName)))
    ++i;
  if (i >= toks.size())
    return std::nullopt;
  ++i;
  Literal lit;
  mlir::Type resultType = op.results.empty() ? mlir::Type() : op.results[0]->type;
  std::string elem = resultType ? ir::typeText(elementOf(resultType)) : "";
  if (i < toks.size() && toks[i].is(ir::TokenKind::BareId) && toks[i].spelling(text) == "dense") {
    lit.dense = true;
    i += 2; // dense <
    if (i >= toks.size())
      return std::nullopt;
  }
  bool negative = false;
  if (i < toks.size() && toks[i].is(ir::TokenKind::Other) && toks[i].spelling(text) == "-") {
    negative = true;
    ++i;
  }
  if (i >= toks.size())
    return std::nullopt;
  llvm::StringRef tok = toks[i].spelling(text);
  if (tok == "true" || tok == "false") {
    lit.text = tok == "true" ? "True" : "False";
    return lit;
  }
  bool isFloatType = !elem.empty() && (elem[0] == 'f' || elem[0] == 'b');
  if (isFloatType) {
    auto v = parseFloatToken(tok, elem);
    if (!v)
      return std::nullopt;
    lit.text = floatLiteral(negative ? -*v : *v);
    return lit;
  }
  int64_t v = 0;
  if (tok.getAsInteger(0, v))
    return std::nullopt;
  if (elem == "i1")
    lit.text = v ? "True" : "False";
  else
    lit.text = fmt::format("{}{}", negative ? "-" : "", v);
  return lit;
}

/// The first bare word after the op name (`arith.cmpi slt, ...`,
/// `tt.get_program_id x`).
std::string enumKeyword(const Operation &op, llvm::StringRef keyword, llvm::StringRef attrName,
                        llvm::ArrayRef<const char *> byNumber) {
  std::string v = op.keywordValue(keyword, attrName);
  llvm::StringRef t = llvm::StringRef(v).split(' ').first; // "2 : i32" in the generic form
  unsigned n = 0;
  if (!t.getAsInteger(10, n))
    return n < byNumber.size() ? byNumber[n] : "";
  return t.str();
}

std::string cacheModifierOf(const Operation &op) {
  // Triton's CacheModifier enum, by number.
  static const char *const kCache[] = {"", "none", "ca", "cg", "wb", "cs", "wt", "cv"};
  std::string c = enumKeyword(op, "cacheModifier", "cache", kCache);
  return c.empty() || c == "none" ? "" : "." + c;
}

std::string evictionPolicyOf(const Operation &op) {
  // Triton's EvictionPolicy enum, by number.
  static const char *const kEvict[] = {"", "evict_normal", "evict_first", "evict_last"};
  std::string e = enumKeyword(op, "evictionPolicy", "evict", kEvict);
  return e == "evict_normal" || e == "normal" ? "" : e;
}

std::string keywordAfterName(const Operation &op) {
  std::string ownText = op.text();
  llvm::StringRef text = ownText;
  ir::TokenStream ts = ir::lex(text);
  for (size_t i = 0; i + 1 < ts.tokens.size(); ++i)
    if (ts.tokens[i].is(ir::TokenKind::BareId) &&
        ts.tokens[i].spelling(text) == llvm::StringRef(op.writtenName) &&
        ts.tokens[i + 1].is(ir::TokenKind::BareId))
      return ts.tokens[i + 1].spelling(text).str();
  return "";
}

/// The bare words right after the op name (`tt.atomic_rmw add, acq_rel, gpu, ...`).
std::vector<std::string> keywordsAfterName(const Operation &op) {
  std::string ownText = op.text();
  llvm::StringRef text = ownText;
  ir::TokenStream ts = ir::lex(text);
  std::vector<std::string> out;
  bool afterName = false;
  for (auto &t : ts.tokens) {
    if (!afterName) {
      afterName =
          t.is(ir::TokenKind::BareId) && t.spelling(text) == llvm::StringRef(op.writtenName);
      continue;
    }
    if (t.is(ir::TokenKind::Comma))
      continue;
    if (!t.is(ir::TokenKind::BareId))
      break;
    out.push_back(t.spelling(text).str());
  }
  return out;
}

/// The first integer written after the op's operands in its own text, before
/// its type (`ttng.init_barrier %b, 1 : ...`, `ttng.barrier_expect %b, 32768, %p`).
std::optional<int64_t> integerInText(const Operation &op) {
  std::string ownText = op.text();
  llvm::StringRef text = ownText;
  ir::TokenStream ts = ir::lex(text);
  bool afterName = false;
  for (auto &t : ts.tokens) {
    if (t.is(ir::TokenKind::BareId) && t.spelling(text) == llvm::StringRef(op.writtenName))
      afterName = true;
    else if (afterName && t.is(ir::TokenKind::Colon))
      break;
    else if (afterName && t.is(ir::TokenKind::Integer)) {
      int64_t v = 0;
      if (!t.spelling(text).getAsInteger(0, v))
        return v;
    }
  }
  return std::nullopt;
}

/// The integers of an attribute written `16 : i32` or `dense<[16, 8]> :
/// tensor<2xi32>` (those before its type).
std::vector<int64_t> attrIntegers(mlir::Attribute a) {
  std::string text = ir::attrText(a);
  ir::TokenStream ts = ir::lex(text);
  std::vector<int64_t> out;
  for (auto &t : ts.tokens) {
    if (t.is(ir::TokenKind::Colon))
      break;
    int64_t v = 0;
    if (t.is(ir::TokenKind::Integer) && !t.spelling(text).getAsInteger(0, v))
      out.push_back(v);
  }
  return out;
}

bool isTensorDesc(mlir::Type t) {
  auto tt = mlir::dyn_cast_or_null<ir::TritonType>(t);
  return tt && tt.kind() == ir::TritonTypeKind::TensorDesc;
}

std::vector<int64_t> bracketIntegers(const Operation &op) {
  std::string ownText = op.text();
  llvm::StringRef text = ownText;
  ir::TokenStream ts = ir::lex(text);
  std::vector<int64_t> out;
  bool in = false, negative = false;
  for (auto &t : ts.tokens) {
    if (!in) {
      in = t.is(ir::TokenKind::LSquare);
      continue;
    }
    if (t.is(ir::TokenKind::RSquare))
      break;
    if (t.is(ir::TokenKind::Other) && t.spelling(text) == "-") {
      negative = true;
      continue;
    }
    int64_t v = 0;
    if (t.is(ir::TokenKind::Integer) && !t.spelling(text).getAsInteger(0, v))
      out.push_back(negative ? -v : v);
    negative = false;
  }
  return out;
}

std::vector<std::string> successorLabels(const Operation &op) {
  std::string ownText = op.text();
  llvm::StringRef text = ownText;
  ir::TokenStream ts = ir::lex(text);
  std::vector<std::string> out;
  for (auto &t : ts.tokens) {
    if (t.is(ir::TokenKind::CaretId))
      out.push_back(t.spelling(text).str());
  }
  return out;
}

std::string orderList(mlir::Attribute a) {
  std::string order = a ? ir::attrText(a) : "";
  llvm::StringRef o(order);
  if (o.consume_front("array<i32:"))
    return "[" + o.rtrim(">").trim().str() + "]";
  return order;
}

} // namespace tilexform::transcribe
