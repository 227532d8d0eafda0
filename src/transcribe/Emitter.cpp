// The emitter's shared services and its walk over ops (see Emitter.h).
#include "Emitter.h"
#include "OpText.h"

#include "tilexform/ir/Dialects.h"
#include "tilexform/layout/Encoding.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <cctype>

namespace tilexform::transcribe {

using ir::Operation;
using ir::Value;

Emitter::Emitter(const ir::Module &m, const analysis::RecoverReport &rec,
                 const TranscribeOptions &o)
    : m_(m), rec_(rec), o_(o) {
  std::vector<std::string> names = analysis::layoutConstantNames(rec);
  for (size_t i = 0; i < rec.layouts.size(); ++i) {
    layoutNames_[rec.layouts[i].attr] = i < names.size() ? names[i] : "";
    if (!rec.layouts[i].gluonAtShape.empty())
      perShape_[rec.layouts[i].attr] = &rec.layouts[i];
    // A module-level constant: no value or parameter may rebind it.
    if (i < names.size() && !names[i].empty())
      scope_.reserve(names[i]);
  }
}

const EmitterTable &Emitter::emitters() {
  static const EmitterTable table = [] {
    EmitterTable t;
    addArithEmitters(t);
    addTensorEmitters(t);
    addMemoryEmitters(t);
    addMmaEmitters(t);
    addNvidiaEmitters(t);
    addAmdEmitters(t);
    addControlEmitters(t);
    return t;
  }();
  return table;
}

std::string Emitter::expr(const Value *v) {
  if (!v)
    return "None";
  auto it = exprs_.find(v);
  if (it != exprs_.end())
    return it->second;
  return nameFor(v);
}

bool Emitter::hasLayoutConstant(mlir::Type t) const {
  auto enc = t ? ir::encodingOf(t) : nullptr;
  if (!enc)
    return false;
  auto it = layoutNames_.find(layout::printEncoding(*enc));
  return it != layoutNames_.end() && !it->second.empty();
}

std::string Emitter::layoutOf(mlir::Type t, unsigned line) {
  auto enc = t ? ir::encodingOf(t) : nullptr;
  if (!enc) {
    gap("layout", ir::typeText(t), line, "a type without a layout where Gluon needs one");
    return "None";
  }
  std::string text = layout::printEncoding(*enc);
  auto it = layoutNames_.find(text);
  // A layout written per buffer shape: the constant of this buffer's shape.
  if (auto per = perShape_.find(text); per != perShape_.end() && it != layoutNames_.end()) {
    const analysis::RecoveredLayout &l = *per->second;
    std::vector<int64_t> shape = layout::bufferShape(*enc, shapeOf(t));
    for (auto &[s, expr] : l.gluonAtShape)
      if (s == shape) {
        std::string base = it->second;
        if (base.empty()) // no constant of its own: named after its alias
          for (char c : l.name)
            if (std::isalnum(static_cast<unsigned char>(c)) || c == '_')
              base += char(std::toupper(static_cast<unsigned char>(c)));
        std::string name = fmt::format("{}_{}", base, fmt::join(s, "x"));
        scope_.reserve(name);
        shapeConstants_[name] = {
            expr, fmt::format("{} ({}) at {}, as its linear layout (one per buffer shape)", l.name,
                              l.kind, fmt::join(s, "x"))};
        return name;
      }
  }
  if (it == layoutNames_.end() || it->second.empty()) {
    gap("layout", enc->kind(), line, "no Gluon constructor for " + text);
    return "None";
  }
  return it->second;
}

std::string Emitter::dtypeOf(mlir::Type t, unsigned line) {
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

void Emitter::gap(const std::string &kind, const std::string &what, unsigned line,
                  const std::string &reason) {
  for (auto &g : gaps_)
    if (g.what == what && g.kind == kind && g.line == line)
      return;
  gaps_.push_back({what, kind, line, reason});
  currentOk_ = false;
}

void Emitter::notCarried(const Operation &op, const std::string &reason) {
  auto it = std::find_if(notCarried_.begin(), notCarried_.end(),
                         [&](const NotCarried &n) { return n.what == op.name; });
  if (it == notCarried_.end())
    notCarried_.push_back({op.name, op.pos.line, 1, reason});
  else
    ++it->count;
  std::string text = op.text();
  if (size_t at = text.find(" loc("); at != std::string::npos)
    text.resize(at);
  line(fmt::format("# not carried: {} (line {})", text, op.pos.line));
}

void Emitter::line(const std::string &text) {
  if (folding_) {
    foldFailed_ = true;
    return;
  }
  body_ += std::string(size_t(indent_) * 4, ' ') + text + "\n";
}

std::string Emitter::assign(const Operation &op) {
  if (op.results.empty())
    return "";
  std::vector<std::string> names;
  for (auto *r : op.results)
    names.push_back(nameFor(r));
  return llvm::join(names, ", ") + " = ";
}

void Emitter::statement(const Operation &op, const std::string &rhs) {
  if (folding_) {
    if (op.results.size() != 1) {
      foldFailed_ = true;
      return;
    }
    bind(op.results[0], fmt::format("({})", rhs));
    return;
  }
  std::string comment = fmt::format("  # line {}", op.pos.line);
  line(assign(op) + rhs + comment);
}

namespace {

bool isIdentifier(llvm::StringRef s) {
  if (s.empty() || !(llvm::isAlpha(s[0]) || s[0] == '_'))
    return false;
  return llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

} // namespace

std::string Emitter::unsignedDtype(mlir::Type t) {
  std::string s = t ? ir::typeText(elementOf(t)) : "";
  if (s == "i8" || s == "i16" || s == "i32" || s == "i64")
    return "gl.uint" + s.substr(1);
  return "";
}

std::string Emitter::unsignedOperand(const Value *v) {
  std::string x = expr(v);
  std::string u = v ? unsignedDtype(v->type) : "";
  llvm::StringRef digits = llvm::StringRef(x).ltrim('-');
  if (u.empty() || (!digits.empty() && llvm::all_of(digits, llvm::isDigit)))
    return x; // a literal takes the type of the other operand
  return fmt::format("{}.to({}, bitcast=True)", isIdentifier(x) ? x : fmt::format("({})", x), u);
}

std::string Emitter::signedResult(const std::string &rhs, mlir::Type t) {
  std::string s = t ? ir::typeText(elementOf(t)) : "";
  if (unsignedDtype(t).empty())
    return rhs;
  return fmt::format("({}).to(gl.int{}, bitcast=True)", rhs, s.substr(1));
}

std::string Emitter::amdModule() {
  std::string mod = m_.facts.arch() == "gfx950" ? "cdna4" : "cdna3";
  need(mod);
  return mod;
}

bool Emitter::hasOperands(const Operation &op, size_t n) {
  if (op.operands.size() >= n)
    return true;
  gap("damaged", op.name, op.pos.line, "fewer operands than the op takes");
  return false;
}

void Emitter::binary(const Operation &op, const char *pyOp) {
  if (!hasOperands(op, 2))
    return;
  statement(op, fmt::format("{} {} {}", expr(op.operands[0]), pyOp, expr(op.operands[1])));
}

void Emitter::call2(const Operation &op, const char *fn, const std::string &extra) {
  if (!hasOperands(op, 2))
    return;
  statement(op, fmt::format("{}({}, {}{})", fn, expr(op.operands[0]), expr(op.operands[1]), extra));
}

void Emitter::call1(const Operation &op, const char *fn) {
  if (!hasOperands(op, 1))
    return;
  statement(op, fmt::format("{}({})", fn, expr(op.operands[0])));
}

void Emitter::cast(const Operation &op, bool bitcast, const std::string &extra) {
  if (!hasOperands(op, 1))
    return;
  statement(op, fmt::format("{}.to({}{}{})", expr(op.operands[0]),
                            dtypeOf(op.results[0]->type, op.pos.line),
                            bitcast ? ", bitcast=True" : "", extra));
}

std::string Emitter::combineFunction(const Operation &op) {
  if (op.regions.empty() || op.regions[0]->blocks.empty() ||
      op.regions[0]->blocks[0]->ops.empty()) {
    gap("damaged", op.name, op.pos.line, "a reduction or scan without its combine region");
    return "None";
  }
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

void Emitter::emitNested(const ir::Block *b, const std::vector<std::string> &targets,
                         bool skipUnchanged) {
  // CPython refuses a module nested past 100 indentation levels.
  constexpr int kMaxIndent = 90;
  if (indent_ >= kMaxIndent) {
    unsigned at = b && !b->ops.empty() ? b->ops.front()->pos.line : 0;
    return gap("op", "nested regions", at,
               fmt::format("nested more than {} levels deep: Python allows at most 100 levels of "
                           "indentation",
                           kMaxIndent));
  }
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

void Emitter::emitOp(const Operation &op) {
  ++opsTotal_;
  currentOk_ = true;
  if (auto it = emitters().find(op.name); true) {
    if (it != emitters().end() && !wellFormed(op)) {
      gap("damaged", op.name, op.pos.line,
          "operands or results the reader could not pair or type, or fewer than the op's schema "
          "requires");
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
           n == "tt.trans" || n == "tt.split" || n == "tt.unsplat" || n == "tt.bitcast" ||
           n == "tt.fp_to_fp" || n == "amdg.in_thread_transpose" || n == "tt.precise_sqrt" ||
           n == "ttg.convert_layout" || n == "ttg.memdesc_trans" || n == "ttg.local_dealloc")
    need = 1;
  else if (n == "tt.precise_divf" || n == "tt.addptr")
    need = 2;
  // As many operands as the op's schema has segments that must be there.
  if (op.schema) {
    size_t required = 0;
    for (auto &seg : op.schema->segments)
      if (!seg.optional && !seg.variadic)
        ++required;
    need = std::max(need, required);
  }
  if (op.operands.size() < need)
    return false;
  // Ops that may have no result though their schema's rule can give one
  // (those whose rule gives none are told by the schema).
  static const std::set<std::string> noResult = {"scf.for",
                                                 "scf.if",
                                                 "scf.while",
                                                 "ttg.async_copy_global_to_local",
                                                 "ttg.async_commit_group",
                                                 "ttg.async_wait",
                                                 "ttng.tmem_store",
                                                 "ttng.tc_gen5_mma",
                                                 "ttng.warp_group_dot_wait",
                                                 "tt.atomic_rmw"};
  return !op.results.empty() || noResult.count(op.name) ||
         (op.schema && op.schema->results == ir::ResultRule::None);
}

bool Emitter::foldOps(const std::vector<const Operation *> &ops) {
  ++folding_;
  foldFailed_ = false;
  for (const Operation *o : ops) {
    emitOp(*o);
    if (foldFailed_)
      break;
  }
  --folding_;
  return !foldFailed_;
}

void Emitter::emitBlock(const ir::Block &b) {
  for (auto &o : b.ops)
    emitOp(*o);
}

} // namespace tilexform::transcribe
