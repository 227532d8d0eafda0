// Transcription of a plain Triton dump into a Gluon module: one Python
// statement per op, in plain's order, each layout applied where plain's op
// carries it. One table (kEmitters) knows how each op is spelled in Gluon.
#include "tilexform/transcribe/Transcribe.h"
#include "tilexform/analysis/Pipeline.h"
#include "tilexform/ir/Dialects.h"
#include "tilexform/ir/Lexer.h"
#include "tilexform/layout/Encoding.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>
#include <mlir/IR/BuiltinTypes.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <set>

namespace tilexform::transcribe {

namespace {

using ir::Operation;
using ir::Value;

const std::set<std::string> &pythonReserved() {
  static const std::set<std::string> words = {"False",
                                              "None",
                                              "True",
                                              "and",
                                              "as",
                                              "assert",
                                              "async",
                                              "await",
                                              "break",
                                              "class",
                                              "continue",
                                              "def",
                                              "del",
                                              "elif",
                                              "else",
                                              "except",
                                              "finally",
                                              "for",
                                              "from",
                                              "global",
                                              "if",
                                              "import",
                                              "in",
                                              "is",
                                              "lambda",
                                              "nonlocal",
                                              "not",
                                              "or",
                                              "pass",
                                              "raise",
                                              "return",
                                              "try",
                                              "while",
                                              "with",
                                              "yield",
                                              "gl",
                                              "gluon",
                                              "triton",
                                              "tl",
                                              "range",
                                              "float",
                                              "int",
                                              "len",
                                              "print",
                                              "launch",
                                              "async_copy",
                                              "mbarrier",
                                              "tma",
                                              "cdna3",
                                              "cdna4",
                                              "warpgroup_mma",
                                              "warpgroup_mma_wait",
                                              "warpgroup_mma_init",
                                              "fence_async_shared",
                                              "mma_v2",
                                              "NUM_WARPS"};
  return words;
}

/// The element type of a tensor, memdesc, pointer or scalar type.
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

struct Literal {
  std::string text; // Python expression of the scalar value
  bool dense = false;
};

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

class Emitter {
public:
  Emitter(const ir::Module &m, const analysis::RecoverReport &rec, const TranscribeOptions &o)
      : m_(m), rec_(rec), o_(o) {
    std::vector<std::string> names = analysis::layoutConstantNames(rec);
    for (size_t i = 0; i < rec.layouts.size(); ++i)
      layoutNames_[rec.layouts[i].attr] = i < names.size() ? names[i] : "";
  }

  llvm::Expected<TranscribeReport> run();

private:
  using Handler = std::function<void(Emitter &, const Operation &)>;
  static const std::map<std::string, Handler> &emitters();

  // ---- names and expressions ----------------------------------------------------

  std::string nameFor(const Value *v) {
    auto it = names_.find(v);
    if (it != names_.end())
      return it->second;
    std::string base = v->name;
    if (!base.empty() && base[0] == '%')
      base = base.substr(1);
    for (char &c : base)
      if (!llvm::isAlnum(c) && c != '_')
        c = '_';
    if (base.empty() || llvm::isDigit(base[0]))
      base = "v" + base;
    if (pythonReserved().count(base))
      base += "_";
    std::string name = base;
    for (int n = 1; usedNames_.count(name); ++n)
      name = fmt::format("{}_{}", base, n);
    usedNames_.insert(name);
    names_[v] = name;
    return name;
  }

  std::string expr(const Value *v) {
    if (!v)
      return "None";
    auto it = exprs_.find(v);
    if (it != exprs_.end())
      return it->second;
    return nameFor(v);
  }

  std::string layoutOf(mlir::Type t, unsigned line) {
    auto enc = t ? ir::encodingOf(t) : nullptr;
    if (!enc) {
      gap("layout", ir::typeText(t), line, "a type without a layout where Gluon needs one");
      return "None";
    }
    std::string text = layout::printEncoding(*enc);
    auto it = layoutNames_.find(text);
    if (it == layoutNames_.end() || it->second.empty()) {
      gap("layout", enc->kind(), line, "no Gluon constructor for " + text);
      return "None";
    }
    return it->second;
  }

  std::string dtypeOf(mlir::Type t, unsigned line) {
    if (!t) {
      gap("op", "an untyped value", line, "the reader could not tell this value's type");
      return "None";
    }
    std::string d = dtypeName(elementOf(t));
    if (d.empty()) {
      gap("op", ir::typeText(elementOf(t)), line, "an element type Gluon does not name");
      return "None";
    }
    return d;
  }

  void gap(const std::string &kind, const std::string &what, unsigned line,
           const std::string &reason) {
    for (auto &g : gaps_)
      if (g.what == what && g.kind == kind && g.line == line)
        return;
    gaps_.push_back({what, kind, line, reason});
    currentOk_ = false;
  }

  void line(const std::string &text) {
    body_ += std::string(size_t(indent_) * 4, ' ') + text + "\n";
  }

  /// `a, b = ` for an op's results (empty when it has none).
  std::string assign(const Operation &op) {
    if (op.results.empty())
      return "";
    std::vector<std::string> names;
    for (auto *r : op.results)
      names.push_back(nameFor(r));
    return llvm::join(names, ", ") + " = ";
  }

  void statement(const Operation &op, const std::string &rhs) {
    std::string comment = fmt::format("  # line {}", op.pos.line);
    line(assign(op) + rhs + comment);
  }

  void emitBlock(const ir::Block &b);
  void hints(const Operation &op);
  bool wellFormed(const Operation &op);
  void emitOp(const Operation &op);
  void emitFor(const Operation &op);
  void emitIf(const Operation &op);
  void emitNested(const ir::Block *b, const std::vector<std::string> &targets, bool skipUnchanged);
  std::string combineFunction(const Operation &op);
  void need(const std::string &import) { imports_.insert(import); }
  bool amd() const { return m_.facts.vendor() == "amd"; }
  /// The Gluon module of AMD's instructions for this target: cdna4 on
  /// gfx950, cdna3 otherwise.
  std::string amdModule() {
    std::string mod = m_.facts.arch() == "gfx950" ? "cdna4" : "cdna3";
    need(mod);
    return mod;
  }

  // ---- op groups ----------------------------------------------------------------

  /// Whether `op` has at least `n` operands; a gap when not.
  bool hasOperands(const Operation &op, size_t n) {
    if (op.operands.size() >= n)
      return true;
    gap("op", op.name, op.pos.line, "fewer operands than the op takes (a damaged dump?)");
    return false;
  }
  void binary(const Operation &op, const char *pyOp) {
    if (!hasOperands(op, 2))
      return;
    statement(op, fmt::format("{} {} {}", expr(op.operands[0]), pyOp, expr(op.operands[1])));
  }
  void call2(const Operation &op, const char *fn, const std::string &extra = "") {
    if (!hasOperands(op, 2))
      return;
    statement(op,
              fmt::format("{}({}, {}{})", fn, expr(op.operands[0]), expr(op.operands[1]), extra));
  }
  void call1(const Operation &op, const char *fn) {
    if (!hasOperands(op, 1))
      return;
    statement(op, fmt::format("{}({})", fn, expr(op.operands[0])));
  }
  void cast(const Operation &op, bool bitcast = false, const std::string &extra = "") {
    if (!hasOperands(op, 1))
      return;
    statement(op, fmt::format("{}.to({}{}{})", expr(op.operands[0]),
                              dtypeOf(op.results[0]->type, op.pos.line),
                              bitcast ? ", bitcast=True" : "", extra));
  }

  const ir::Module &m_;
  const analysis::RecoverReport &rec_;
  const TranscribeOptions &o_;
  std::map<std::string, std::string> layoutNames_;
  std::map<const Value *, std::string> names_, exprs_;
  std::set<std::string> usedNames_;
  std::string body_;
  std::vector<std::string> helpers_; // combine functions, emitted before the kernel
  std::map<std::string, std::string> helperByBody_;
  int indent_ = 1;
  std::vector<Gap> gaps_;
  std::set<std::string> imports_;
  bool currentOk_ = true;
  size_t opsTotal_ = 0, opsDone_ = 0;
};

std::string cmpOperator(const std::string &pred, bool isFloat) {
  if (isFloat)
    return llvm::StringSwitch<std::string>(pred)
        .Case("oeq", "==")
        .Case("une", "!=")
        .Case("olt", "<")
        .Case("ole", "<=")
        .Case("ogt", ">")
        .Case("oge", ">=")
        .Default("");
  return llvm::StringSwitch<std::string>(pred)
      .Case("eq", "==")
      .Case("ne", "!=")
      .Case("slt", "<")
      .Case("sle", "<=")
      .Case("sgt", ">")
      .Case("sge", ">=")
      .Default("");
}

const std::map<std::string, Emitter::Handler> &Emitter::emitters() {
  static const std::map<std::string, Handler> table = {
      {"arith.constant",
       [](Emitter &e, const Operation &op) {
         auto lit = constantValue(op);
         if (!lit) {
           e.gap("op", op.name, op.pos.line, "a constant tilexform cannot read");
           return;
         }
         mlir::Type t = op.results[0]->type;
         if (!isTensor(t)) {
           std::string d = ir::typeText(t);
           if (d == "i32" || d == "f32" || d == "i1" || d == "index")
             e.exprs_[op.results[0]] = lit->text;
           else
             e.statement(op, fmt::format("gl.full([], {}, {})", lit->text, e.dtypeOf(t, op.pos.line)));
           return;
         }
         e.statement(op, fmt::format("gl.full({}, {}, {}, layout={})", listText(shapeOf(t)),
                                     lit->text, e.dtypeOf(t, op.pos.line),
                                     e.layoutOf(t, op.pos.line)));
       }},
      {"tt.get_program_id",
       [](Emitter &e, const Operation &op) {
         std::string axis = keywordAfterName(op);
         int a = axis == "y" ? 1 : axis == "z" ? 2 : 0;
         e.statement(op, fmt::format("gl.program_id({})", a));
       }},
      {"tt.get_num_programs",
       [](Emitter &e, const Operation &op) {
         std::string axis = keywordAfterName(op);
         int a = axis == "y" ? 1 : axis == "z" ? 2 : 0;
         e.statement(op, fmt::format("gl.num_programs({})", a));
       }},
      {"tt.make_range",
       [](Emitter &e, const Operation &op) {
         e.statement(op, fmt::format("gl.arange({}, {}, layout={})", op.intAttr("start").value_or(0),
                                     op.intAttr("end").value_or(0),
                                     e.layoutOf(op.results[0]->type, op.pos.line)));
       }},
      {"tt.splat",
       [](Emitter &e, const Operation &op) {
         mlir::Type t = op.results[0]->type;
         const Value *src = op.operands[0];
         std::string dt = src->type && isPointer(src->type) ? e.expr(src) + ".dtype" : e.dtypeOf(t, op.pos.line);
         e.statement(op, fmt::format("gl.full({}, {}, {}, layout={})", listText(shapeOf(t)),
                                     e.expr(src), dt, e.layoutOf(t, op.pos.line)));
       }},
      {"tt.addptr", [](Emitter &e, const Operation &op) { e.binary(op, "+"); }},
      {"arith.addi", [](Emitter &e, const Operation &op) { e.binary(op, "+"); }},
      {"arith.addf", [](Emitter &e, const Operation &op) { e.binary(op, "+"); }},
      {"arith.subi", [](Emitter &e, const Operation &op) { e.binary(op, "-"); }},
      {"arith.subf", [](Emitter &e, const Operation &op) { e.binary(op, "-"); }},
      {"arith.muli", [](Emitter &e, const Operation &op) { e.binary(op, "*"); }},
      {"arith.mulf", [](Emitter &e, const Operation &op) { e.binary(op, "*"); }},
      {"arith.divf", [](Emitter &e, const Operation &op) { e.binary(op, "/"); }},
      {"arith.divsi", [](Emitter &e, const Operation &op) { e.binary(op, "//"); }},
      {"arith.remsi", [](Emitter &e, const Operation &op) { e.binary(op, "%"); }},
      {"arith.remf", [](Emitter &e, const Operation &op) { e.binary(op, "%"); }},
      {"arith.andi", [](Emitter &e, const Operation &op) { e.binary(op, "&"); }},
      {"arith.ori", [](Emitter &e, const Operation &op) { e.binary(op, "|"); }},
      {"arith.xori", [](Emitter &e, const Operation &op) { e.binary(op, "^"); }},
      {"arith.shli", [](Emitter &e, const Operation &op) { e.binary(op, "<<"); }},
      {"arith.shrsi", [](Emitter &e, const Operation &op) { e.binary(op, ">>"); }},
      {"arith.negf",
       [](Emitter &e, const Operation &op) { e.statement(op, "-" + e.expr(op.operands[0])); }},
      {"arith.maxnumf", [](Emitter &e, const Operation &op) { e.call2(op, "gl.maximum"); }},
      {"arith.minnumf", [](Emitter &e, const Operation &op) { e.call2(op, "gl.minimum"); }},
      {"arith.maxsi", [](Emitter &e, const Operation &op) { e.call2(op, "gl.maximum"); }},
      {"arith.minsi", [](Emitter &e, const Operation &op) { e.call2(op, "gl.minimum"); }},
      {"arith.maximumf",
       [](Emitter &e, const Operation &op) {
         e.need("tl");
         e.call2(op, "gl.maximum", ", propagate_nan=tl.PropagateNan.ALL");
       }},
      {"arith.minimumf",
       [](Emitter &e, const Operation &op) {
         e.need("tl");
         e.call2(op, "gl.minimum", ", propagate_nan=tl.PropagateNan.ALL");
       }},
      {"arith.cmpi",
       [](Emitter &e, const Operation &op) {
         std::string py = cmpOperator(keywordAfterName(op), false);
         if (py.empty())
           return e.gap("op", op.name + " " + keywordAfterName(op), op.pos.line,
                        "an unsigned comparison (plain compared unsigned values)");
         e.binary(op, py.c_str());
       }},
      {"arith.cmpf",
       [](Emitter &e, const Operation &op) {
         std::string py = cmpOperator(keywordAfterName(op), true);
         if (py.empty())
           return e.gap("op", op.name + " " + keywordAfterName(op), op.pos.line,
                        "a float predicate Python's operators do not spell");
         e.binary(op, py.c_str());
       }},
      {"arith.select",
       [](Emitter &e, const Operation &op) {
         e.statement(op, fmt::format("gl.where({}, {}, {})", e.expr(op.operands[0]),
                                     e.expr(op.operands[1]), e.expr(op.operands[2])));
       }},
      {"arith.extf", [](Emitter &e, const Operation &op) { e.cast(op); }},
      {"arith.truncf", [](Emitter &e, const Operation &op) { e.cast(op); }},
      {"arith.sitofp", [](Emitter &e, const Operation &op) { e.cast(op); }},
      {"arith.fptosi", [](Emitter &e, const Operation &op) { e.cast(op); }},
      {"arith.extsi", [](Emitter &e, const Operation &op) { e.cast(op); }},
      {"arith.trunci", [](Emitter &e, const Operation &op) { e.cast(op); }},
      {"arith.extui",
       [](Emitter &e, const Operation &op) {
         if (!op.operands[0]->type || ir::typeText(elementOf(op.operands[0]->type)) != "i1")
           return e.gap("op", op.name, op.pos.line, "a zero-extension of a signed integer");
         e.cast(op);
       }},
      {"arith.bitcast", [](Emitter &e, const Operation &op) { e.cast(op, true); }},
      {"tt.bitcast", [](Emitter &e, const Operation &op) { e.cast(op, true); }},
      {"tt.fp_to_fp",
       [](Emitter &e, const Operation &op) {
         auto r = op.attr("rounding");
         std::string mode;
         if (r) {
           std::string t = ir::attrText(r);
           mode = t.find('1') != std::string::npos || t.find("rtz") != std::string::npos
                      ? ", fp_downcast_rounding=\"rtz\""
                      : ", fp_downcast_rounding=\"rtne\"";
         }
         e.cast(op, false, mode);
       }},
      {"math.exp", [](Emitter &e, const Operation &op) { e.call1(op, "gl.exp"); }},
      {"math.exp2", [](Emitter &e, const Operation &op) { e.call1(op, "gl.exp2"); }},
      {"math.log", [](Emitter &e, const Operation &op) { e.call1(op, "gl.log"); }},
      {"math.log2", [](Emitter &e, const Operation &op) { e.call1(op, "gl.log2"); }},
      {"math.sqrt", [](Emitter &e, const Operation &op) { e.call1(op, "gl.sqrt"); }},
      {"math.rsqrt", [](Emitter &e, const Operation &op) { e.call1(op, "gl.rsqrt"); }},
      {"math.sin", [](Emitter &e, const Operation &op) { e.call1(op, "gl.sin"); }},
      {"math.cos", [](Emitter &e, const Operation &op) { e.call1(op, "gl.cos"); }},
      {"math.absf", [](Emitter &e, const Operation &op) { e.call1(op, "gl.abs"); }},
      {"math.absi", [](Emitter &e, const Operation &op) { e.call1(op, "gl.abs"); }},
      {"tt.precise_sqrt", [](Emitter &e, const Operation &op) { e.call1(op, "gl.sqrt_rn"); }},
      {"tt.precise_divf", [](Emitter &e, const Operation &op) { e.call2(op, "gl.div_rn"); }},
      {"math.erf", [](Emitter &e, const Operation &op) { e.call1(op, "gl.erf"); }},
      {"math.floor", [](Emitter &e, const Operation &op) { e.call1(op, "gl.floor"); }},
      {"math.ceil", [](Emitter &e, const Operation &op) { e.call1(op, "gl.ceil"); }},
      {"math.fma",
       [](Emitter &e, const Operation &op) {
         e.statement(op, fmt::format("gl.fma({}, {}, {})", e.expr(op.operands[0]),
                                     e.expr(op.operands[1]), e.expr(op.operands[2])));
       }},
      {"tt.load",
       [](Emitter &e, const Operation &op) {
         std::string args = e.expr(op.operand("ptr"));
         if (auto *mask = op.operand("mask"))
           args += ", mask=" + e.expr(mask);
         if (auto *other = op.operand("other"))
           args += ", other=" + e.expr(other);
         if (auto c = op.attr("cache"))
           args += fmt::format(", cache_modifier=\"{}\"", ir::attrText(c));
         if (auto ev = op.attr("evict"))
           args += fmt::format(", eviction_policy=\"{}\"", ir::attrText(ev));
         if (op.attr("isVolatile"))
           args += ", volatile=True";
         e.statement(op, "gl.load(" + args + ")");
       }},
      {"tt.store",
       [](Emitter &e, const Operation &op) {
         std::string args = e.expr(op.operand("ptr")) + ", " + e.expr(op.operand("value"));
         if (auto *mask = op.operand("mask"))
           args += ", mask=" + e.expr(mask);
         e.statement(op, "gl.store(" + args + ")");
       }},
      {"tt.reduce",
       [](Emitter &e, const Operation &op) {
         std::string fn = e.combineFunction(op);
         std::vector<std::string> srcs;
         for (auto *v : op.operands)
           srcs.push_back(e.expr(v));
         std::string in = srcs.size() == 1 ? srcs[0] : "(" + llvm::join(srcs, ", ") + ")";
         e.statement(op, fmt::format("gl.reduce({}, {}, {})", in, op.intAttr("axis").value_or(0), fn));
       }},
      {"tt.scan",
       [](Emitter &e, const Operation &op) {
         std::string fn = e.combineFunction(op);
         std::vector<std::string> srcs;
         for (auto *v : op.operands)
           srcs.push_back(e.expr(v));
         std::string in = srcs.size() == 1 ? srcs[0] : "(" + llvm::join(srcs, ", ") + ")";
         bool reverse = op.attr("reverse") && ir::attrText(op.attr("reverse")) == "true";
         e.statement(op, fmt::format("gl.associative_scan({}, {}, {}{})", in,
                                     op.intAttr("axis").value_or(0), fn,
                                     reverse ? ", reverse=True" : ""));
       }},
      {"tt.expand_dims",
       [](Emitter &e, const Operation &op) {
         e.statement(op, fmt::format("gl.expand_dims({}, {})", e.expr(op.operands[0]),
                                     op.intAttr("axis").value_or(0)));
       }},
      {"tt.broadcast",
       [](Emitter &e, const Operation &op) {
         e.statement(op, fmt::format("{}.broadcast_to({})", e.expr(op.operands[0]),
                                     listText(shapeOf(op.results[0]->type))));
       }},
      {"tt.reshape",
       [](Emitter &e, const Operation &op) {
         e.statement(op, fmt::format("gl.reshape({}, {}{})", e.expr(op.operands[0]),
                                     listText(shapeOf(op.results[0]->type)),
                                     op.attr("allow_reorder") ? ", can_reorder=True" : ""));
       }},
      {"tt.trans",
       [](Emitter &e, const Operation &op) {
         std::string order = op.attr("order") ? ir::attrText(op.attr("order")) : "";
         llvm::StringRef o(order);
         if (o.consume_front("array<i32:"))
           order = "[" + o.rtrim(">").trim().str() + "]";
         e.statement(op, fmt::format("gl.permute({}, {})", e.expr(op.operands[0]), order));
       }},
      {"tt.join", [](Emitter &e, const Operation &op) { e.call2(op, "gl.join"); }},
      {"tt.split", [](Emitter &e, const Operation &op) { e.call1(op, "gl.split"); }},
      {"ttg.convert_layout",
       [](Emitter &e, const Operation &op) {
         e.statement(op, fmt::format("gl.convert_layout({}, {})", e.expr(op.operands[0]),
                                     e.layoutOf(op.results[0]->type, op.pos.line)));
       }},
      {"ttg.local_alloc",
       [](Emitter &e, const Operation &op) {
         mlir::Type t = op.results[0]->type;
         auto tt = mlir::dyn_cast_or_null<ir::TritonType>(t);
         if (!tt)
           return e.gap("op", op.name, op.pos.line, "an allocation whose type is not a memdesc");
         auto info = tt.info();
         const auto &dims = info.allocShape.empty() ? info.shape : info.allocShape;
         std::string value = op.operand("src") ? ", " + e.expr(op.operand("src")) : "";
         e.statement(op, fmt::format("gl.allocate_shared_memory({}, {}, {}{})",
                                     e.dtypeOf(t, op.pos.line), listText(dims),
                                     e.layoutOf(t, op.pos.line), value));
       }},
      {"ttg.local_load",
       [](Emitter &e, const Operation &op) {
         e.statement(op, fmt::format("{}.load({})", e.expr(op.operand("src")),
                                     e.layoutOf(op.results[0]->type, op.pos.line)));
       }},
      {"ttg.local_store",
       [](Emitter &e, const Operation &op) {
         e.statement(op, fmt::format("{}.store({})", e.expr(op.operand("dst")),
                                     e.expr(op.operand("src"))));
       }},
      {"ttg.memdesc_index",
       [](Emitter &e, const Operation &op) {
         e.statement(op, fmt::format("{}.index({})", e.expr(op.operand("src")),
                                     e.expr(op.operand("index"))));
       }},
      {"ttg.memdesc_trans",
       [](Emitter &e, const Operation &op) {
         std::string order = op.attr("order") ? ir::attrText(op.attr("order")) : "";
         llvm::StringRef o(order);
         if (o.consume_front("array<i32:"))
           order = "[" + o.rtrim(">").trim().str() + "]";
         e.statement(op, fmt::format("{}.permute({})", e.expr(op.operands[0]), order));
       }},
      {"ttg.local_dealloc",
       [](Emitter &e, const Operation &op) {
         e.line(fmt::format("# {} freed here  # line {}", e.expr(op.operands[0]), op.pos.line));
       }},
      {"ttng.fence_async_shared",
       [](Emitter &e, const Operation &op) {
         e.need("hopper");
         e.line(fmt::format("fence_async_shared()  # line {}", op.pos.line));
       }},
      {"ttng.warp_group_dot",
       [](Emitter &e, const Operation &op) {
         e.need("hopper");
         bool async = op.attr("isAsync") && ir::attrText(op.attr("isAsync")) == "true";
         std::string useC = op.operand("useC") ? ", use_acc=" + e.expr(op.operand("useC")) : "";
         e.statement(op, fmt::format("warpgroup_mma({}, {}, {}{}{})", e.expr(op.operand("a")),
                                     e.expr(op.operand("b")), e.expr(op.operand("c")), useC,
                                     async ? ", is_async=True" : ""));
       }},
      {"ttng.warp_group_dot_wait",
       [](Emitter &e, const Operation &op) {
         e.need("hopper");
         std::vector<std::string> deps;
         for (auto *v : op.operands)
           deps.push_back(e.expr(v));
         // One dependency comes back as itself, several as a tuple.
         std::string lhs = e.assign(op);
         e.line(fmt::format("{}warpgroup_mma_wait({}, deps=[{}])  # line {}", lhs,
                            op.intAttr("pendings").value_or(0), llvm::join(deps, ", "),
                            op.pos.line));
       }},
      {"tt.dot",
       [](Emitter &e, const Operation &op) {
         auto enc = ir::encodingOf(op.results[0]->type);
         std::string kind = enc ? enc->kind() : "";
         std::string fn;
         if (kind == "amd_mfma") {
           fn = e.amdModule() + ".mfma";
         } else if (kind == "amd_wmma") {
           // RDNA3 (gfx11) and RDNA4 (gfx12) spell WMMA in their own modules.
           std::string arch = e.m_.facts.arch();
           std::string mod = llvm::StringRef(arch).starts_with("gfx12") ? "rdna4" : "rdna3";
           e.need(mod);
           fn = mod + ".wmma";
         } else if (kind == "nvidia_mma") {
           e.need("ampere");
           fn = "mma_v2";
         } else {
           return e.gap("op", op.name + " on " + kind, op.pos.line,
                        "a dot whose accumulator layout has no Gluon instruction here");
         }
         e.statement(op, fmt::format("{}({}, {}, {})", fn, e.expr(op.operand("a")),
                                     e.expr(op.operand("b")), e.expr(op.operand("c"))));
       }},
      {"amdg.buffer_load",
       [](Emitter &e, const Operation &op) {
         std::string args = e.expr(op.operand("ptr")) + ", " + e.expr(op.operand("offsets"));
         if (auto *mask = op.operand("mask"))
           args += ", mask=" + e.expr(mask);
         if (auto *other = op.operand("other"))
           args += ", other=" + e.expr(other);
         if (op.operand("stride"))
           return e.gap("op", op.name + " with stride", op.pos.line,
                        "Gluon's buffer_load takes no stride operand");
         e.statement(op, fmt::format("{}.buffer_load({})", e.amdModule(), args));
       }},
      {"amdg.buffer_store",
       [](Emitter &e, const Operation &op) {
         std::string args = e.expr(op.operand("value")) + ", " + e.expr(op.operand("ptr")) + ", " +
                            e.expr(op.operand("offsets"));
         if (auto *mask = op.operand("mask"))
           args += ", mask=" + e.expr(mask);
         if (op.operand("stride"))
           return e.gap("op", op.name + " with stride", op.pos.line,
                        "Gluon's buffer_store takes no stride operand");
         e.statement(op, fmt::format("{}.buffer_store({})", e.amdModule(), args));
       }},
      {"ttg.async_copy_global_to_local",
       [](Emitter &e, const Operation &op) {
         std::string args = e.expr(op.operand("result")) + ", " + e.expr(op.operand("src"));
         if (auto *mask = op.operand("mask"))
           args += ", mask=" + e.expr(mask);
         if (e.amd()) {
           // AMD's direct-to-LDS load takes the fill value.
           e.need("amd_async_copy");
           if (auto *other = op.operand("other"))
             args += ", other=" + e.expr(other);
           e.line(fmt::format("async_copy.global_load_to_shared({})  # line {}", args,
                              op.pos.line));
           for (auto *r : op.results)
             e.exprs_[r] = "None";
           return;
         }
         e.need("async_copy");
         // A masked-off cp.async writes zeros, so `other = 0` needs no
         // spelling; another fill value has none in Gluon's async copy.
         if (const Value *other = op.operand("other")) {
           const Operation *def = other->definingOp;
           auto lit = def && def->name == "arith.constant" ? constantValue(*def) : std::nullopt;
           bool zero = lit && (lit->text == "0.0" || lit->text == "0" || lit->text == "False");
           if (!zero)
             e.gap("op", op.name + " with other", op.pos.line,
                   "Gluon's async copy fills masked-off elements with zeros only");
         }
         e.line(fmt::format("async_copy.async_copy_global_to_shared({})  # line {}", args,
                            op.pos.line));
         for (auto *r : op.results)
           e.exprs_[r] = "None";
       }},
      {"ttg.async_commit_group",
       [](Emitter &e, const Operation &op) {
         e.need(e.amd() ? "amd_async_copy" : "async_copy");
         e.line(fmt::format("async_copy.commit_group()  # line {}", op.pos.line));
         for (auto *r : op.results)
           e.exprs_[r] = "None";
       }},
      {"ttg.async_wait",
       [](Emitter &e, const Operation &op) {
         e.need(e.amd() ? "amd_async_copy" : "async_copy");
         e.line(fmt::format("async_copy.wait_group({})  # line {}", op.intAttr("num").value_or(0),
                            op.pos.line));
         for (auto *r : op.results)
           e.exprs_[r] = "None";
       }},
      {"ttng.init_barrier",
       [](Emitter &e, const Operation &op) {
         e.need("mbarrier");
         e.line(fmt::format("mbarrier.init({}, count={})  # line {}", e.expr(op.operand("alloc")),
                            integerInText(op).value_or(1), op.pos.line));
       }},
      {"ttng.inval_barrier",
       [](Emitter &e, const Operation &op) {
         e.need("mbarrier");
         e.line(fmt::format("mbarrier.invalidate({})  # line {}", e.expr(op.operand("alloc")),
                            op.pos.line));
       }},
      {"ttng.barrier_expect",
       [](Emitter &e, const Operation &op) {
         e.need("mbarrier");
         e.line(fmt::format("mbarrier.expect({}, {}, pred={})  # line {}",
                            e.expr(op.operand("alloc")), integerInText(op).value_or(0),
                            e.expr(op.operand("pred")), op.pos.line));
       }},
      {"ttng.wait_barrier",
       [](Emitter &e, const Operation &op) {
         e.need("mbarrier");
         std::string extra;
         if (auto *pred = op.operand("pred"))
           extra += ", pred=" + e.expr(pred);
         auto deps = op.operandGroup("deps");
         if (!deps.empty()) {
           std::vector<std::string> d;
           for (auto *v : deps)
             d.push_back(e.expr(v));
           extra += ", deps=[" + llvm::join(d, ", ") + "]";
         }
         e.line(fmt::format("mbarrier.wait({}, {}{})  # line {}", e.expr(op.operand("alloc")),
                            e.expr(op.operand("phase")), extra, op.pos.line));
       }},
      {"ttng.arrive_barrier",
       [](Emitter &e, const Operation &op) {
         e.need("mbarrier");
         std::string pred = op.operand("pred") ? ", pred=" + e.expr(op.operand("pred")) : "";
         e.line(fmt::format("mbarrier.arrive({}, count={}{})  # line {}",
                            e.expr(op.operand("alloc")), integerInText(op).value_or(1), pred,
                            op.pos.line));
       }},
      {"ttng.async_tma_copy_global_to_local",
       [](Emitter &e, const Operation &op) {
         e.need("tma");
         std::vector<std::string> coord;
         for (auto *v : op.operandGroup("coord"))
           coord.push_back(e.expr(v));
         e.line(fmt::format("tma.async_copy_global_to_shared({}, [{}], {}, {}, pred={})  # line {}",
                            e.expr(op.operand("desc")), llvm::join(coord, ", "),
                            e.expr(op.operand("barrier")), e.expr(op.operand("result")),
                            e.expr(op.operand("pred")), op.pos.line));
       }},
      {"ttng.async_tma_copy_local_to_global",
       [](Emitter &e, const Operation &op) {
         e.need("tma");
         std::vector<std::string> coord;
         for (auto *v : op.operandGroup("coord"))
           coord.push_back(e.expr(v));
         e.line(fmt::format("tma.async_copy_shared_to_global({}, [{}], {})  # line {}",
                            e.expr(op.operand("desc")), llvm::join(coord, ", "),
                            e.expr(op.operand("src")), op.pos.line));
       }},
      {"ttng.async_tma_store_wait",
       [](Emitter &e, const Operation &op) {
         e.need("tma");
         e.line(fmt::format("tma.store_wait({})  # line {}", op.intAttr("pendings").value_or(0),
                            op.pos.line));
       }},
      {"tt.atomic_rmw",
       [](Emitter &e, const Operation &op) {
         std::vector<std::string> kw = keywordsAfterName(op);
         static const std::map<std::string, std::string> fns = {
             {"add", "gl.atomic_add"}, {"fadd", "gl.atomic_add"}, {"max", "gl.atomic_max"},
             {"min", "gl.atomic_min"}, {"and", "gl.atomic_and"},  {"or", "gl.atomic_or"},
             {"xor", "gl.atomic_xor"}, {"exch", "gl.atomic_xchg"}, {"xchg", "gl.atomic_xchg"}};
         auto fn = kw.empty() ? fns.end() : fns.find(kw[0]);
         if (fn == fns.end())
           return e.gap("op", op.name + (kw.empty() ? "" : " " + kw[0]), op.pos.line,
                        "an unsigned or unknown atomic Gluon's atomics do not spell");
         std::string args = e.expr(op.operand("ptr")) + ", " + e.expr(op.operand("val"));
         if (auto *mask = op.operand("mask"))
           args += ", mask=" + e.expr(mask);
         if (kw.size() > 1)
           args += fmt::format(", sem=\"{}\"", kw[1]);
         if (kw.size() > 2)
           args += fmt::format(", scope=\"{}\"", kw[2]);
         e.statement(op, fn->second + "(" + args + ")");
       }},
      {"tt.histogram",
       [](Emitter &e, const Operation &op) {
         auto shape = shapeOf(op.results[0]->type);
         std::string args = e.expr(op.operand("src")) + ", " +
                            std::to_string(shape.empty() ? 0 : shape[0]);
         if (auto *mask = op.operand("mask"))
           args += ", mask=" + e.expr(mask);
         e.statement(op, fmt::format("gl.histogram({}, layout={})", args,
                                     e.layoutOf(op.results[0]->type, op.pos.line)));
       }},
      {"tt.gather",
       [](Emitter &e, const Operation &op) {
         e.statement(op, fmt::format("gl.gather({}, {}, {})", e.expr(op.operand("src")),
                                     e.expr(op.operand("indices")), op.intAttr("axis").value_or(0)));
       }},
      {"ttng.tmem_alloc",
       [](Emitter &e, const Operation &op) {
         e.need("blackwell");
         mlir::Type t = op.results[0]->type;
         auto tt = mlir::dyn_cast_or_null<ir::TritonType>(t);
         if (!tt)
           return e.gap("op", op.name, op.pos.line, "an allocation whose type is not a memdesc");
         auto info = tt.info();
         const auto &dims = info.allocShape.empty() ? info.shape : info.allocShape;
         std::string value = op.operand("src") ? ", " + e.expr(op.operand("src")) : "";
         e.line(fmt::format("{} = allocate_tensor_memory({}, {}, {}{})  # line {}",
                            e.nameFor(op.results[0]), e.dtypeOf(t, op.pos.line), listText(dims),
                            e.layoutOf(t, op.pos.line), value, op.pos.line));
         for (size_t i = 1; i < op.results.size(); ++i)
           e.exprs_[op.results[i]] = "None";
       }},
      {"ttng.tmem_store",
       [](Emitter &e, const Operation &op) {
         std::string pred = op.operand("pred") ? ", pred=" + e.expr(op.operand("pred")) : "";
         e.line(fmt::format("{}.store({}{})  # line {}", e.expr(op.operand("dst")),
                            e.expr(op.operand("src")), pred, op.pos.line));
         for (auto *r : op.results)
           e.exprs_[r] = "None";
       }},
      {"ttng.tmem_load",
       [](Emitter &e, const Operation &op) {
         // The value; the async token Triton adds has no Gluon counterpart.
         e.line(fmt::format("{} = {}.load({})  # line {}", e.nameFor(op.results[0]),
                            e.expr(op.operand("src")),
                            e.layoutOf(op.results[0]->type, op.pos.line), op.pos.line));
         for (size_t i = 1; i < op.results.size(); ++i)
           e.exprs_[op.results[i]] = "None";
       }},
      {"ttng.tc_gen5_mma",
       [](Emitter &e, const Operation &op) {
         e.need("blackwell");
         std::string args = e.expr(op.operand("a")) + ", " + e.expr(op.operand("b")) + ", " +
                            e.expr(op.operand("d"));
         if (auto *useD = op.operand("useD"))
           args += ", use_acc=" + e.expr(useD);
         if (auto *pred = op.operand("pred"))
           args += ", pred=" + e.expr(pred);
         auto bars = op.operandGroup("barriers");
         if (!bars.empty()) {
           std::vector<std::string> b, p;
           for (auto *v : bars)
             b.push_back(e.expr(v));
           for (auto *v : op.operandGroup("barrier_preds"))
             p.push_back(e.expr(v));
           args += ", mbarriers=[" + llvm::join(b, ", ") + "]";
           if (!p.empty())
             args += ", mbarrier_preds=[" + llvm::join(p, ", ") + "]";
         }
         e.line(fmt::format("tcgen05_mma({})  # line {}", args, op.pos.line));
         for (auto *r : op.results)
           e.exprs_[r] = "None";
       }},
      {"ttng.tc_gen5_commit",
       [](Emitter &e, const Operation &op) {
         e.need("blackwell");
         std::string pred = op.operand("pred") ? ", pred=" + e.expr(op.operand("pred")) : "";
         e.line(fmt::format("tcgen05_commit({}{})  # line {}", e.expr(op.operand("barrier")), pred,
                            op.pos.line));
       }},
      {"tt.return", [](Emitter &, const Operation &) {}},
  };
  return table;
}

std::string Emitter::combineFunction(const Operation &op) {
  if (op.regions.empty() || op.regions[0]->blocks.empty())
    return "None";
  const ir::Block &b = *op.regions[0]->blocks[0];
  // The body in its own scope: names from the region's arguments.
  Emitter inner(m_, rec_, o_);
  inner.indent_ = 1;
  std::vector<std::string> args;
  for (auto *a : b.arguments)
    args.push_back(inner.nameFor(a));
  std::vector<std::string> rets;
  for (auto &o : b.ops) {
    if (o->name == "tt.reduce.return" || o->name == "tt.scan.return") {
      for (auto *v : o->operands)
        rets.push_back(inner.expr(v));
      continue;
    }
    inner.emitOp(*o);
  }
  for (auto &g : inner.gaps_)
    gaps_.push_back(g);
  for (auto &i : inner.imports_)
    imports_.insert(i);
  std::string body = inner.body_ + "    return " + llvm::join(rets, ", ") + "\n";
  std::string key = llvm::join(args, ",") + "|" + body;
  auto it = helperByBody_.find(key);
  if (it != helperByBody_.end())
    return it->second;
  // Named after what it combines when it is one op: _combine_addf.
  std::string what = "combine";
  if (b.ops.size() == 2)
    what = "combine_" + llvm::StringRef(b.ops[0]->name).rsplit('.').second.str();
  std::string name = "_" + what;
  for (int n = 1; std::any_of(helperByBody_.begin(), helperByBody_.end(),
                              [&](auto &kv) { return kv.second == name; });
       ++n)
    name = fmt::format("_{}_{}", what, n);
  helperByBody_[key] = name;
  helpers_.push_back(
      fmt::format("@gluon.jit\ndef {}({}):\n{}", name, llvm::join(args, ", "), body));
  return name;
}

void Emitter::emitFor(const Operation &op) {
  // scf.for %iv = %lb to %ub step %st iter_args(%a = %init) -> ...
  auto lb = op.operand("lowerBound"), ub = op.operand("upperBound"), st = op.operand("step");
  auto inits = op.operandGroup("initArgs");
  if (op.regions.empty() || op.regions[0]->blocks.empty())
    return gap("op", op.name, op.pos.line, "a loop without a body");
  const ir::Block &b = *op.regions[0]->blocks[0];
  if (b.arguments.size() != inits.size() + 1)
    return gap("op", op.name, op.pos.line, "loop arguments the reader could not pair");
  const Operation *yield = b.ops.empty() ? nullptr : b.ops.back().get();
  if (yield && yield->name != "scf.yield")
    yield = nullptr;
  std::vector<std::string> carried;
  for (size_t i = 0; i < inits.size(); ++i) {
    const Value *arg = b.arguments[i + 1];
    std::string init = expr(inits[i]);
    // An accumulator an async warpgroup MMA leaves in flight across the
    // back-edge is carried as one from the start.
    const Operation *src = yield && i < yield->operands.size() && yield->operands[i]
                               ? yield->operands[i]->definingOp
                               : nullptr;
    if (src && src->name == "ttng.warp_group_dot" && src->attr("isAsync") &&
        ir::attrText(src->attr("isAsync")) == "true" && isTensor(inits[i]->type)) {
      need("hopper_init");
      init = "warpgroup_mma_init(" + init + ")";
    }
    if (init == "None" || isToken(arg->type)) {
      exprs_[arg] = "None";
      carried.push_back("");
      continue;
    }
    std::string n = nameFor(arg);
    carried.push_back(n);
    line(fmt::format("{} = {}", n, init));
  }
  std::string numStages = op.intAttr("tt.num_stages") ? fmt::format("  # plain: tt.num_stages = {}",
                                                                    *op.intAttr("tt.num_stages"))
                                                      : "";
  line(fmt::format("for {} in range({}, {}, {}):  # line {}{}", nameFor(b.arguments[0]), expr(lb),
                   expr(ub), expr(st), op.pos.line, numStages));
  emitNested(&b, carried, /*skipUnchanged=*/true);
  // The loop's results are the carried variables.
  for (size_t i = 0; i < op.results.size() && i < carried.size(); ++i) {
    if (carried[i].empty()) {
      exprs_[op.results[i]] = "None";
      continue;
    }
    line(fmt::format("{} = {}", nameFor(op.results[i]), carried[i]));
  }
}

// A nested block one level in: its ops, its scf.yield as assignments to
// `targets` (those left empty carry nothing; with skipUnchanged a value
// yielded unchanged is not reassigned), `pass` when it writes nothing.
void Emitter::emitNested(const ir::Block *b, const std::vector<std::string> &targets,
                         bool skipUnchanged) {
  ++indent_;
  size_t before = body_.size();
  if (b)
    for (auto &o : b->ops) {
      if (o->name != "scf.yield") {
        emitOp(*o);
        continue;
      }
      std::vector<std::string> lhs, rhs;
      for (size_t i = 0; i < o->operands.size() && i < targets.size(); ++i) {
        std::string value = expr(o->operands[i]);
        if (targets[i].empty() || (skipUnchanged && value == targets[i]))
          continue;
        lhs.push_back(targets[i]);
        rhs.push_back(value);
      }
      if (!lhs.empty())
        line(fmt::format("{} = {}", llvm::join(lhs, ", "), llvm::join(rhs, ", ")));
    }
  if (body_.size() == before)
    line("pass");
  --indent_;
}

void Emitter::emitIf(const Operation &op) {
  const Value *cond = op.operand("condition");
  std::vector<std::string> results;
  for (auto *r : op.results)
    results.push_back(isToken(r->type) ? "" : nameFor(r));
  auto branch = [&](const ir::Region *r) {
    emitNested(r && !r->blocks.empty() ? r->blocks[0].get() : nullptr, results, false);
  };
  line(fmt::format("if {}:  # line {}", expr(cond), op.pos.line));
  branch(op.regions.empty() ? nullptr : op.regions[0].get());
  if (op.regions.size() > 1 && !op.regions[1]->blocks.empty() &&
      !op.regions[1]->blocks[0]->ops.empty()) {
    line("else:");
    branch(op.regions[1].get());
  }
  for (size_t i = 0; i < op.results.size(); ++i)
    if (results[i].empty())
      exprs_[op.results[i]] = "None";
}

void Emitter::emitOp(const Operation &op) {
  ++opsTotal_;
  currentOk_ = true;
  if (op.name == "scf.for") {
    emitFor(op);
  } else if (op.name == "scf.if") {
    emitIf(op);
  } else {
    auto it = emitters().find(op.name);
    if (it != emitters().end() && !wellFormed(op)) {
      gap("op", op.name, op.pos.line,
          "operands or results the reader could not pair or type (a damaged dump?)");
    } else if (it == emitters().end()) {
      bool noBuiltin =
          std::any_of(rec_.unsupportedOps.begin(), rec_.unsupportedOps.end(),
                      [&](const analysis::UnsupportedOp &u) { return u.name == op.name; });
      gap("op", op.name, op.pos.line,
          noBuiltin  ? "Gluon has no builtin for it on this API"
          : op.known ? "no Gluon spelling in this transcriber yet"
                     : "an op tilexform does not know");
      if (o_.allowGaps)
        line(fmt::format("gl.static_assert(False, \"tilexform: no Gluon spelling for {} (line "
                         "{})\")",
                         op.name, op.pos.line));
    } else {
      it->second(*this, op);
      hints(op);
    }
  }
  if (currentOk_)
    ++opsDone_;
}

// tl.multiple_of / tl.max_contiguous / tl.max_constancy leave attributes on
// the op that defines the value; Gluon spells them the same way.
void Emitter::hints(const Operation &op) {
  if (op.results.size() != 1 || exprs_.count(op.results[0]))
    return;
  static const std::pair<const char *, const char *> kHints[] = {
      {"tt.divisibility", "gl.multiple_of"},
      {"tt.contiguity", "gl.max_contiguous"},
      {"tt.constancy", "gl.max_constancy"}};
  for (auto &[attr, fn] : kHints) {
    auto a = op.attr(attr);
    if (!a)
      continue;
    std::vector<int64_t> values = attrIntegers(a);
    if (values.empty())
      continue;
    std::string n = nameFor(op.results[0]);
    line(fmt::format("{} = {}({}, {})", n, fn, n,
                     values.size() == 1 && !isTensor(op.results[0]->type)
                         ? std::to_string(values[0])
                         : listText(values)));
  }
}

// What the handlers may rely on: every operand and result present and
// typed, as many operands as the op's spelling reads by position, and a
// result for the ops that produce one.
bool Emitter::wellFormed(const Operation &op) {
  for (auto *v : op.operands)
    if (!v || !v->type)
      return false;
  for (auto *r : op.results)
    if (!r || !r->type)
      return false;
  static const std::map<std::string, size_t> positional = {
      {"arith.select", 3}, {"math.fma", 3}, {"tt.join", 2}};
  size_t need = 0;
  llvm::StringRef n(op.name);
  if (auto it = positional.find(op.name); it != positional.end())
    need = it->second;
  else if (n.starts_with("arith.") || n.starts_with("math."))
    need = n == "arith.constant" ? 0
           : (n.ends_with("f") || n.ends_with("i") || n.ends_with("si") || n.ends_with("ui")) &&
                   !n.contains("ext") && !n.contains("trunc") && !n.contains("to") &&
                   n != "arith.negf" && !n.starts_with("math.")
               ? 2
               : 1;
  else if (n == "tt.splat" || n == "tt.expand_dims" || n == "tt.broadcast" || n == "tt.reshape" ||
           n == "tt.trans" || n == "tt.split" || n == "tt.bitcast" || n == "tt.fp_to_fp" ||
           n == "tt.precise_sqrt" || n == "ttg.convert_layout" || n == "ttg.memdesc_trans" ||
           n == "ttg.local_dealloc")
    need = 1;
  else if (n == "tt.precise_divf" || n == "tt.addptr")
    need = 2;
  if (op.operands.size() < need)
    return false;
  static const std::set<std::string> noResult = {"tt.store",
                                                 "ttg.local_store",
                                                 "ttg.local_dealloc",
                                                 "ttng.fence_async_shared",
                                                 "ttg.async_copy_global_to_local",
                                                 "ttg.async_commit_group",
                                                 "ttg.async_wait",
                                                 "ttng.init_barrier",
                                                 "ttng.inval_barrier",
                                                 "ttng.barrier_expect",
                                                 "ttng.wait_barrier",
                                                 "ttng.arrive_barrier",
                                                 "ttng.async_tma_copy_global_to_local",
                                                 "ttng.async_tma_copy_local_to_global",
                                                 "ttng.async_tma_store_wait",
                                                 "ttng.tmem_store",
                                                 "ttng.tc_gen5_mma",
                                                 "ttng.tc_gen5_commit",
                                                 "ttng.warp_group_dot_wait",
                                                 "tt.return",
                                                 "amdg.buffer_store",
                                                 "tt.atomic_rmw"};
  return !op.results.empty() || noResult.count(op.name);
}

void Emitter::emitBlock(const ir::Block &b) {
  for (auto &o : b.ops)
    emitOp(*o);
}

llvm::Expected<TranscribeReport> Emitter::run() {
  std::vector<const Operation *> functions;
  m_.walk([&](const Operation *op) {
    if (op->isFunction())
      functions.push_back(op);
  });
  if (functions.empty())
    return llvm::make_error<InputError>(m_.path, 0, 0, "no function to transcribe in this dump");
  if (functions.size() > 1)
    gap("op", "tt.func", functions[1]->pos.line,
        "several functions (plain's noinline helpers): transcribe inlines none yet");
  const Operation *fn = functions.front();
  TranscribeReport r;
  r.kernel = fn->symbol.empty() ? "kernel" : fn->symbol.substr(fn->symbol[0] == '@' ? 1 : 0);
  r.anchorName = o_.kernelName.empty() ? r.kernel : o_.kernelName;
  usedNames_.insert(r.anchorName);
  auto pipeline = analysis::hotLoopPipeline(m_);
  r.form = pipeline.found && pipeline.pipelined() ? "pipelined" : "not pipelined";

  // Layouts with no constructor that the function uses block it.
  std::vector<std::string> params;
  if (fn->regions.empty() || fn->regions[0]->blocks.empty())
    return llvm::make_error<InputError>(m_.path, fn->pos.line, fn->pos.col,
                                        "a function without a body");
  const ir::Block &entry = *fn->regions[0]->blocks[0];
  std::vector<std::string> argNotes;
  // A host tensor descriptor is followed by its shape and strides, which
  // Triton passes as extra arguments named after it; Gluon's descriptor
  // carries them itself.
  std::vector<std::pair<std::string, std::string>> descriptors; // param, layout constant
  std::string lastDesc;
  for (auto *a : entry.arguments) {
    if (!lastDesc.empty() && !isTensorDesc(a->type) &&
        a->name.rfind("%" + lastDesc + "_", 0) == 0) {
      if (!a->uses.empty())
        gap("op", "tensor descriptor field " + a->name, fn->pos.line,
            "the kernel reads a descriptor's shape or stride argument directly");
      exprs_[a] = "None";
      continue;
    }
    std::string n = nameFor(a);
    params.push_back(n);
    lastDesc.clear();
    if (isTensorDesc(a->type)) {
      lastDesc = a->name.substr(1);
      descriptors.emplace_back(n, layoutOf(a->type, fn->pos.line));
    }
    std::string note = a->type ? ir::typeText(a->type) : "?";
    if (a->attributes && !a->attributes.empty())
      note += " " + ir::attrText(a->attributes);
    argNotes.push_back(fmt::format("    # {}: {}", n, note));
  }
  emitBlock(entry);
  for (auto &l : rec_.layouts)
    if (!l.gluon && !l.sites.empty())
      gap("layout", l.kind, l.sites.front().line, "no Gluon constructor: " + l.reason);

  r.blockedBy = gaps_;
  std::sort(r.blockedBy.begin(), r.blockedBy.end(),
            [](const Gap &a, const Gap &b) { return a.line < b.line; });
  r.opsTotal = opsTotal_;
  r.opsTranscribed = opsDone_;
  r.imports.assign(imports_.begin(), imports_.end());
  if (!r.blockedBy.empty() && !o_.allowGaps)
    return r;

  // The module.
  std::string out;
  out += "# A Gluon anchor transcribed by tilexform from a plain Triton dump. Generated.\n";
  out += fmt::format("# source dump: {}\n", o_.sourceName);
  out += fmt::format("# kernel: {}\n", r.kernel);
  out += fmt::format("# target: {}\n", m_.facts.target.empty() ? "unknown" : m_.facts.target);
  out += fmt::format("# num_warps: {}\n",
                     m_.facts.numWarps ? std::to_string(*m_.facts.numWarps) : "unknown");
  out +=
      fmt::format("# threads_per_warp: {}\n",
                  m_.facts.threadsPerWarp ? std::to_string(*m_.facts.threadsPerWarp) : "unknown");
  out += fmt::format("# gluon api: {}\n", gluon::gluonApiName(o_.api));
  out += fmt::format("# form: {}{}\n", r.form,
                     r.form == "pipelined"
                         ? " (plain's software pipeline, transcribed as the dump shows it)"
                         : "");
  out += fmt::format("# coverage: {}/{} ops\n", r.opsTranscribed, r.opsTotal);
  if (!r.blockedBy.empty())
    out += fmt::format("# PLACEHOLDERS: {} op(s) or layout(s) have no Gluon spelling; the "
                       "kernel raises at compile time\n",
                       r.blockedBy.size());
  out += "from triton.experimental import gluon\n";
  out += "from triton.experimental.gluon import language as gl\n";
  if (imports_.count("tl"))
    out += "import triton.language as tl\n";
  if (imports_.count("hopper") || imports_.count("hopper_init"))
    out += fmt::format("from triton.experimental.gluon.language.nvidia.hopper import "
                       "fence_async_shared, warpgroup_mma, {}warpgroup_mma_wait\n",
                       imports_.count("hopper_init") ? "warpgroup_mma_init, " : "");
  if (imports_.count("ampere"))
    out += "from triton.experimental.gluon.language.nvidia.ampere import mma_v2\n";
  if (imports_.count("async_copy"))
    out += "from triton.experimental.gluon.language.nvidia.ampere import async_copy\n";
  if (imports_.count("blackwell"))
    out += "from triton.experimental.gluon.language.nvidia.blackwell import "
           "allocate_tensor_memory, tcgen05_commit, tcgen05_mma\n";
  if (imports_.count("mbarrier") || imports_.count("tma"))
    out += fmt::format("from triton.experimental.gluon.language.nvidia.hopper import {}\n",
                       imports_.count("mbarrier") && imports_.count("tma") ? "mbarrier, tma"
                       : imports_.count("tma")                             ? "tma"
                                                                           : "mbarrier");
  if (!descriptors.empty())
    out += "from triton.experimental.gluon.nvidia.hopper import TensorDescriptor\n";
  if (imports_.count("amd_async_copy"))
    out += "from triton.experimental.gluon.language.amd.cdna4 import async_copy\n";
  for (const char *mod : {"cdna3", "cdna4", "rdna3", "rdna4"})
    if (imports_.count(mod))
      out += fmt::format("from triton.experimental.gluon.language.amd import {}\n", mod);
  // The layout constants, as recover --out writes them.
  std::vector<analysis::LayoutConstant> constants = analysis::layoutConstants(rec_);
  // A parent is kept when a used layout names it, though unused itself, and
  // so is its own parent, up the chain.
  std::map<size_t, std::optional<size_t>> parentOf;
  for (auto &c : constants)
    parentOf[c.index] = c.parent;
  std::set<size_t> referenced;
  for (auto &c : constants)
    if (!rec_.layouts[c.index].sites.empty())
      for (auto p = c.parent; p && referenced.insert(*p).second; p = parentOf[*p]) {
      }
  for (auto &c : constants) {
    const auto &l = rec_.layouts[c.index];
    if (l.sites.empty() && !referenced.count(c.index))
      continue;
    out += fmt::format("\n# {} ({}), role {}\n", l.name, l.kind, l.role);
    out += fmt::format("{} = gl.constexpr({})\n", c.name, c.expr);
  }
  for (auto &h : helpers_)
    out += "\n\n" + h;
  out += "\n\n@gluon.jit\n";
  out += fmt::format("def {}({}):\n", r.anchorName, llvm::join(params, ", "));
  for (auto &n : argNotes)
    out += n + "\n";
  out += body_;
  if (body_.empty())
    out += "    pass\n";
  out += "\n\n";
  out += fmt::format("NUM_WARPS = {}\n", m_.facts.numWarps ? *m_.facts.numWarps : 4);
  out += "\n\n";
  out += fmt::format("def launch(grid, {}):\n", llvm::join(params, ", "));
  out += "    \"\"\"Runs the anchor on plain's arguments with plain's grid and num_warps.\"\"\"\n";
  for (auto &[param, layout] : descriptors)
    out +=
        fmt::format("    {0} = TensorDescriptor({0}.base, {0}.shape, {0}.strides, {0}.block_shape, "
                    "{1}.value)\n",
                    param, layout);
  out += fmt::format("    return {}[grid]({}, num_warps=NUM_WARPS)\n", r.anchorName,
                     llvm::join(params, ", "));
  r.python = std::move(out);
  return r;
}

} // namespace

llvm::Expected<TranscribeReport> transcribe(const ir::Module &module,
                                            const analysis::RecoverReport &recovered,
                                            const TranscribeOptions &options) {
  Emitter e(module, recovered, options);
  return e.run();
}

} // namespace tilexform::transcribe
