// The emitter's shared services and its walk over ops (see Emitter.h).
#include "Emitter.h"
#include "OpText.h"

#include "tilexform/hw/ArchData.h"
#include "tilexform/ir/Dialects.h"
#include "tilexform/layout/Encoding.h"
#include "tilexform/support/PythonText.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

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
      scope_.reserveModule(names[i]);
  }
  // And so are the per-shape constants layoutOf may write, named before
  // any value is.
  for (size_t i = 0; i < rec.layouts.size(); ++i)
    for (auto &[shape, expr] : rec.layouts[i].gluonAtShape)
      scope_.reserveModule(
          shapeConstantName(rec.layouts[i], i < names.size() ? names[i] : "", shape));
}

std::string Emitter::shapeConstantName(const analysis::RecoveredLayout &l,
                                       const std::string &constant,
                                       const std::vector<int64_t> &shape) {
  std::string base = constant;
  if (base.empty()) // no constant of its own: named after its alias
    for (char c : l.name)
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_')
        base += char(std::toupper(static_cast<unsigned char>(c)));
  return Scope::identifier(fmt::format("{}_{}", base, fmt::join(shape, "x")));
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

py::Expr Emitter::expr(const Value *v) {
  if (!v)
    return py::none();
  auto it = exprs_.find(v);
  if (it != exprs_.end())
    return it->second;
  return py::name(nameFor(v));
}

py::Expr Emitter::reusable(const Value *v) {
  py::Expr e = expr(v);
  if (!v || e.isIdentifier())
    return e;
  if (folding_) {
    foldFailed_ = true;
    return e;
  }
  py::Expr n = py::name(nameFor(v));
  line(py::print(n) + " = " + py::print(e));
  bind(v, n);
  return n;
}

std::string Emitter::nameFor(const Value *v) {
  if (!readable() || scope_.named(v))
    return scope_.nameFor(v);
  return scope_.nameFor(v, sourceName(v));
}

std::string Emitter::nameAs(const Value *v, const std::string &base) {
  if (!readable() || base.empty())
    return nameFor(v);
  return scope_.nameFor(v, base);
}

namespace {

/// `acc_12` -> `acc`, `v_3#1` -> `v`: an SSA name without the suffix MLIR's
/// printer adds to keep names unique.
std::string withoutSuffix(std::string n) {
  if (!n.empty() && n[0] == '%')
    n = n.substr(1);
  if (size_t hash = n.find('#'); hash != std::string::npos)
    n.resize(hash);
  size_t us = n.rfind('_');
  if (us != std::string::npos && us > 0 && us + 1 < n.size() &&
      std::all_of(n.begin() + us + 1, n.end(), [](char c) { return std::isdigit(c); }))
    n.resize(us);
  return n;
}

} // namespace

namespace {

/// The name of a value plain's pipeliner made, from its role: the index of
/// a ring's stage, the phase of a barrier wait.
std::string roleName(const Value *v) {
  std::string role;
  for (auto &[u, _] : v->uses) {
    if (u->name == "ttg.memdesc_index" && u->operand("index") == v && !u->results.empty()) {
      // The stage copies fill (any view a copy's destination), or the one
      // the loop reads.
      for (auto &[w, __] : u->results[0]->uses)
        if (copyDestination(*w) == u->results[0])
          return "fill_stage";
      role = "stage";
    } else if (u->name == "ttng.wait_barrier" && u->operand("phase") == v && role.empty()) {
      role = "phase";
    }
  }
  return role;
}

} // namespace

const NamePlan &Emitter::names() const {
  if (!names_)
    names_ = std::make_shared<const NamePlan>(m_);
  return *names_;
}

std::string Emitter::roleOf(const Value *v) const {
  // A value of another shape or layout is the value it was made from
  // (`gl.full([128], qk_scale, ...)` is the scale), a view of a buffer
  // (a ring's slot) the buffer's.
  static const std::set<std::string> kSameValue = {
      "tt.splat",          "tt.broadcast",       "tt.expand_dims",    "ttg.convert_layout",
      "tt.reshape",        "tt.trans",           "ttg.memdesc_index", "ttg.memdesc_subslice",
      "ttg.memdesc_trans", "ttg.memdesc_reshape"};
  for (int hops = 0; hops < 64 && v->definingOp && kSameValue.count(v->definingOp->name) &&
                     !v->definingOp->operands.empty() && !names().namesItsValue(v);
       ++hops)
    v = v->definingOp->operands[0];
  const Operation *d = v->definingOp;
  // What it was made from is named already (a loop's variable): that name.
  if (scope_.named(v))
    return withoutSuffix(scope_.nameOf(v));
  if (!d || names().namesItsValue(v))
    return sourceName(v);
  if (d->name == "ttg.local_alloc")
    return holdsBarriers(v) ? barrierName(v) : "smem";
  // A truth value: a predicate, or a mask of a tensor's elements.
  if (mlir::Type e = v->type ? elementOf(v->type) : mlir::Type(); e && e.isInteger(1))
    return isTensor(v->type) ? "mask" : "pred";
  // The next stage of a ring: what the select that wraps it around gives
  // the stage counter.
  if (d->name == "arith.addi")
    for (auto &[u, _] : v->uses)
      if (u->name == "arith.select" && !u->results.empty())
        if (std::string role = roleName(u->results[0]); !role.empty())
          return "next_" + role;
  return names().neutral();
}

std::string Emitter::barrierName(const Value *ring) const {
  // What the ring's barriers track: the buffers the TMA copies that
  // arrive on them fill (`a_bar`; `ready_bar` for several), else the MMAs
  // that arrive on them.
  std::set<std::string> filled;
  bool mma = false;
  // A view of a buffer (a ring's slot), as the op table marks them.
  auto isView = [](const Operation *op) {
    return op && op->schema && op->schema->is(ir::OpFlagMemdescView) && !op->operands.empty();
  };
  auto bufferOf = [&](const Value *view) {
    for (int hops = 0; hops < 64 && view && isView(view->definingOp); ++hops)
      view = view->definingOp->operands[0];
    return view;
  };
  std::vector<const Value *> views = {ring};
  for (size_t i = 0; i < views.size() && i < 4096; ++i)
    for (auto &[u, _] : views[i]->uses) {
      if (isView(u) && !u->results.empty())
        views.push_back(u->results[0]);
      else if (u->name == "ttng.async_tma_copy_global_to_local" &&
               u->operand("barrier") == views[i])
        if (const Value *buf = bufferOf(u->operand("result")); buf && buf != ring) {
          std::string b = sourceName(buf);
          if (llvm::StringRef(b).ends_with("_smem"))
            b.resize(b.size() - 5);
          filled.insert(b);
        }
      mma = mma || llvm::StringRef(u->name).starts_with("ttng.tc_gen5");
    }
  if (filled.size() == 1)
    return *filled.begin() + "_bar";
  return !filled.empty() ? "ready_bar" : mma ? "mma_bar" : "bar";
}

std::string Emitter::sourceName(const Value *v) const {
  if (std::string role = roleName(v); !role.empty())
    return role;
  // A warpgroup MMA wait gives back the values it waited for, each under
  // its own name.
  if (const Operation *d = v->definingOp;
      d && d->name == "ttng.warp_group_dot_wait" && v->resultIndex < d->operands.size()) {
    const Value *dep = d->operands[v->resultIndex];
    if (!bound(dep) && scope_.named(dep))
      return withoutSuffix(scope_.nameOf(dep));
    if (auto it = exprs_.find(dep); it != exprs_.end() && it->second.isIdentifier())
      return withoutSuffix(py::print(it->second));
  }
  // What a loop yields for a counter's variable is that counter's.
  for (auto &[u, at] : v->uses)
    if (u->name == "scf.yield" && u->parentBlock && u->parentBlock->parent &&
        u->parentBlock->parent->parent && u->parentBlock->parent->parent->name == "scf.for" &&
        at + 1 < u->parentBlock->arguments.size() &&
        scope_.named(u->parentBlock->arguments[at + 1])) {
      std::string counter = withoutSuffix(scope_.nameOf(u->parentBlock->arguments[at + 1]));
      if (isCounterName(counter) || llvm::StringRef(counter).starts_with("next_"))
        return counter;
    }
  if (v->definingOp && !names().namesItsValue(v))
    return roleOf(v);
  std::string base;
  if (const Operation *d = v->definingOp) {
    // The name the line being written gives it (an inlined helper's op is
    // named by its caller's assignment), else the innermost one.
    std::vector<const ir::CallSite *> callers = d->loc.callers.outermostFirst();
    size_t skip = std::min(callers.size(), size_t(depth_));
    for (auto it = callers.begin() + long(skip); it != callers.end() && base.empty(); ++it)
      base = (*it)->name;
    if (base.empty())
      base = d->loc.name;
  }
  if (base.empty())
    base = withoutSuffix(v->name);
  if (base.empty() || std::all_of(base.begin(), base.end(), [](char c) { return std::isdigit(c); }))
    base = "v" + base;
  // Buffers and barriers say so: `k_smem`, `k_bar`.
  if (const Operation *d = v->definingOp; d && d->name == "ttg.local_alloc") {
    llvm::StringRef b(base);
    std::string suffix = holdsBarriers(v) ? "_bar" : "_smem";
    if (!b.ends_with(suffix) && !b.ends_with("bar") && !b.ends_with("smem"))
      base += suffix;
  }
  return base;
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
        std::string name = shapeConstantName(l, it->second, s);
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
  line(fmt::format("# not carried: {} (line {})", pyCommentText(text), op.pos.line));
}

void Emitter::line(const std::string &text, unsigned dumpLine, const std::string &note) {
  if (folding_) {
    foldFailed_ = true;
    return;
  }
  // Readable: the source line above, not the dump line after.
  if (readable())
    sourceComment();
  body_ += std::string(size_t(indent_) * 4, ' ') + text;
  if (dumpLine && !readable())
    body_ += fmt::format("  # line {}", dumpLine);
  if (!note.empty())
    body_ += "  # " + pyCommentText(note);
  body_ += "\n";
}

void Emitter::sourceComment() {
  if (inner_ || curLine_ == 0 || (curLine_ == lastLine_ && curFile_ == lastFile_))
    return;
  lastFile_ = curFile_;
  lastLine_ = curLine_;
  auto shown = displayNames_.find(curFile_);
  std::string where =
      fmt::format("{}:{}", shown != displayNames_.end() ? shown->second : curFile_, curLine_);
  std::string quote = sourceLine(curFile_, curLine_);
  body_ += std::string(size_t(indent_) * 4, ' ') + "# " + pyCommentText(where) +
           (quote.empty() ? "" : "  " + pyCommentText(quote)) + "\n";
}

std::string Emitter::loopVariable(const Operation &loop) {
  std::string line = sourceLine(loop.loc.file, loop.loc.line);
  llvm::StringRef text = line;
  if (!text.consume_front("for") || text.empty() ||
      !std::isspace(static_cast<unsigned char>(text[0])))
    return "";
  text = text.ltrim();
  llvm::StringRef name = text.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
  if (!text.drop_front(name.size()).ltrim().starts_with("in") || !Scope::isIdentifier(name.str()))
    return "";
  return name.str();
}

const SourceText *Emitter::source(const std::string &file) {
  // Only through the service the command hands in: a dump names any path.
  return o_.sources ? o_.sources->lines(file) : nullptr;
}

std::string Emitter::sourceLine(const std::string &file, unsigned lineNo) {
  const SourceText *lines = source(file);
  return lines ? lines->line(lineNo).trim().str() : "";
}

void Emitter::planSources(const Operation &fn) {
  // The files the comments name: by their base name where that tells them
  // apart, else by their path below the directory they share.
  std::set<std::string> files;
  ir::Module::walkFrom(fn, [&](const Operation *op) {
    // Every frame's: a helper's body names its own file.
    if (!op->loc.file.empty())
      files.insert(op->loc.file);
    for (auto &c : op->loc.callers)
      if (!c.file.empty())
        files.insert(c.file);
  });
  std::set<std::string> bases;
  for (auto &f : files)
    bases.insert(llvm::sys::path::filename(f).str());
  if (bases.size() == files.size()) {
    for (auto &f : files)
      displayNames_[f] = llvm::sys::path::filename(f).str();
    return;
  }
  std::string common = *files.begin();
  for (auto &f : files) {
    size_t n = 0;
    while (n < common.size() && n < f.size() && common[n] == f[n])
      ++n;
    common.resize(n);
  }
  common.resize(common.rfind('/') == std::string::npos ? 0 : common.rfind('/') + 1);
  for (auto &f : files)
    displayNames_[f] = f.substr(common.size());
}

std::string Emitter::assign(const Operation &op) {
  if (op.results.empty())
    return "";
  std::vector<std::string> names;
  for (auto *r : op.results)
    names.push_back(nameFor(r));
  return llvm::join(names, ", ") + " = ";
}

void Emitter::statement(const Operation &op, const py::Expr &rhs) {
  if (folding_) {
    if (op.results.size() != 1) {
      foldFailed_ = true;
      return;
    }
    // Faithful keeps a folded expression in parentheses where it is read.
    bind(op.results[0], readable() ? rhs : py::paren(rhs));
    return;
  }
  line(assign(op) + py::print(rhs), op.pos.line);
}

std::string Emitter::unsignedDtype(mlir::Type t) {
  std::string s = t ? ir::typeText(elementOf(t)) : "";
  if (s == "i8" || s == "i16" || s == "i32" || s == "i64")
    return "gl.uint" + s.substr(1);
  return "";
}

py::Expr Emitter::unsignedOperand(const Value *v) {
  py::Expr x = expr(v);
  std::string u = v ? unsignedDtype(v->type) : "";
  std::string text = py::print(x);
  llvm::StringRef digits = llvm::StringRef(text).ltrim('-');
  if (u.empty() || (x.isNumber() && !digits.empty() && llvm::all_of(digits, llvm::isDigit)))
    return x; // a literal takes the type of the other operand
  return py::method(x.isIdentifier() ? x : py::paren(x), "to", {py::name(u)},
                    {{"bitcast", py::boolean(true)}});
}

py::Expr Emitter::signedResult(const py::Expr &rhs, mlir::Type t) {
  std::string s = t ? ir::typeText(elementOf(t)) : "";
  if (unsignedDtype(t).empty())
    return rhs;
  return py::method(py::paren(rhs), "to", {py::name("gl.int" + s.substr(1))},
                    {{"bitcast", py::boolean(true)}});
}

// The Gluon module of the arch's matrix instruction (data/hw
// gluon_amd_module) when the arch has `instruction`, else `otherwise`.
static std::string moduleFor(const std::string &arch, llvm::StringRef instruction,
                             const char *otherwise) {
  if (auto mi = hw::fact(arch, "matrix_instruction"); mi && mi->value == instruction)
    if (auto f = hw::fact(arch, "gluon_amd_module"))
      return f->value;
  return otherwise;
}

std::string Emitter::amdModule() {
  // An MFMA arch's CDNA module (cdna4 on gfx950); cdna3's buffer ops elsewhere.
  std::string mod = moduleFor(m_.facts.arch(), "mfma", "cdna3");
  need(mod);
  return mod;
}

std::string Emitter::wmmaModule() {
  // RDNA3 (gfx11), RDNA4 (gfx12) and gfx1250 spell WMMA in their own modules.
  std::string mod = moduleFor(m_.facts.arch(), "wmma", "rdna3");
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
  statement(op, py::binary(pyOp, expr(op.operands[0]), expr(op.operands[1])));
}

void Emitter::call2(const Operation &op, const char *fn, std::vector<py::Keyword> keywords) {
  if (!hasOperands(op, 2))
    return;
  statement(op, py::call(fn, {expr(op.operands[0]), expr(op.operands[1])}, std::move(keywords)));
}

void Emitter::call1(const Operation &op, const char *fn) {
  if (!hasOperands(op, 1))
    return;
  statement(op, py::call(fn, {expr(op.operands[0])}));
}

void Emitter::cast(const Operation &op, bool bitcast, std::vector<py::Keyword> keywords) {
  if (!hasOperands(op, 1))
    return;
  if (bitcast)
    keywords.insert(keywords.begin(), {"bitcast", py::boolean(true)});
  statement(op, py::method(expr(op.operands[0]), "to", {dtype(op.results[0]->type, op.pos.line)},
                           std::move(keywords)));
}

namespace {

/// Whether `v` is defined inside `owner` (by an op of its regions, or as
/// an argument of one of their blocks).
bool definedWithin(const Value *v, const Operation *owner) {
  const Operation *at = v->definingOp;
  if (!at && v->ownerBlock && v->ownerBlock->parent)
    at = v->ownerBlock->parent->parent;
  for (; at; at = at->parentOp())
    if (at == owner)
      return true;
  return false;
}

/// The ops outside `owner` whose results its regions read, each after the
/// ops it reads: canonicalisation hoists a combine region's constants into
/// the kernel body, and a Gluon combine function takes only the values it
/// combines, so the function computes them again. Only constants and
/// arithmetic on them can be; otherwise null and `why`.
bool capturedDefinitions(const Operation &owner, std::vector<const Operation *> &defs,
                         std::string &why) {
  constexpr unsigned kMaxDepth = 16;
  std::set<const Operation *> seen;
  std::function<bool(const Value *, unsigned)> take = [&](const Value *v, unsigned depth) {
    const Operation *d = v->definingOp;
    if (seen.count(d))
      return true;
    llvm::StringRef n(d ? llvm::StringRef(d->name) : "");
    bool computable = d && d->regions.empty() && d->results.size() == 1 &&
                      (n.starts_with("arith.") || n.starts_with("math.")) && depth < kMaxDepth;
    if (!computable) {
      why = fmt::format("its combine region reads {} (line {}), a value of the kernel body that is "
                        "not a constant: a Gluon combine function takes only what it combines",
                        v->name, d ? d->pos.line : owner.pos.line);
      return false;
    }
    for (const Value *o : d->operands)
      if (!o || !take(o, depth + 1))
        return false;
    seen.insert(d);
    defs.push_back(d);
    return true;
  };
  bool ok = true;
  ir::Module::walkFrom(owner, [&](const Operation *o) {
    if (o == &owner || !ok)
      return;
    for (const Value *v : o->operands)
      if (ok && v && !definedWithin(v, &owner))
        ok = take(v, 0);
  });
  return ok;
}

} // namespace

std::string Emitter::combineFunction(const Operation &op) {
  if (op.regions.empty() || op.regions[0]->blocks.empty() ||
      op.regions[0]->blocks[0]->ops.empty()) {
    gap("damaged", op.name, op.pos.line, "a reduction or scan without its combine region");
    return "None";
  }
  const ir::Block &b = *op.regions[0]->blocks[0];
  // The body in its own scope: names from the region's arguments.
  Emitter inner(m_, rec_, o_);
  inner.shareNames(*this);
  inner.indent_ = 1;
  inner.plan_ = plan_;
  inner.inner_ = true;
  inner.moduleScope_ = &moduleScope();
  inner.scope_.setOuter(&moduleScope());
  std::vector<std::string> args;
  for (size_t i = 0; i < b.arguments.size(); ++i) {
    // Readable: the two sides of the combination, `a` and `b`.
    size_t half = b.arguments.size() / 2;
    std::string side = i < half ? "a" : "b";
    std::string base = half == 1 ? side : fmt::format("{}{}", side, i % half);
    args.push_back(b.arguments.size() % 2 == 0 ? inner.nameAs(b.arguments[i], base)
                                               : inner.nameFor(b.arguments[i]));
  }
  std::vector<const Operation *> captured;
  std::string why;
  if (!capturedDefinitions(op, captured, why)) {
    gap("op", op.name, op.pos.line, why);
    return "None";
  }
  for (const Operation *d : captured)
    inner.emitOp(*d);
  std::vector<std::string> rets;
  for (auto &o : b.ops) {
    if (o->name == "tt.reduce.return" || o->name == "tt.scan.return") {
      for (auto *v : o->operands)
        rets.push_back(py::print(inner.expr(v)));
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
  // Every function of the module takes its name from one scope.
  std::string name = moduleScope().fresh("_" + what);
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
        std::string value = py::print(expr(o->operands[i]));
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
  if (!folding_ && inHelperRun_.count(&op) && !helperRuns_.count(&op))
    return; // written by its helper
  if (readable() && !folding_)
    pipelineNote(op);
  if (!folding_ && !helperRuns_.empty())
    if (auto it = helperRuns_.find(&op); it != helperRuns_.end())
      return emitHelperCall(it->second);
  if (absorbed_.count(&op)) {
    ++opsTotal_;
    ++opsDone_;
    return;
  }
  if (const FoldKind *k = plan_ && !folding_ ? plan_->kindOf(&op) : nullptr) {
    switch (*k) {
    case FoldKind::Literal:
      if (auto lit = constantValue(op)) {
        ++opsTotal_;
        ++opsDone_;
        return bind(op.results[0], py::literal(lit->text));
      }
      break;
    case FoldKind::Broadcast:
      ++opsTotal_;
      ++opsDone_;
      return bind(op.results[0], expr(op.operands[0]));
    case FoldKind::Expression: {
      size_t total = opsTotal_, done = opsDone_, gaps = gaps_.size();
      ++folding_;
      foldFailed_ = false;
      dispatch(op);
      --folding_;
      if (!foldFailed_)
        return;
      // A spelling that writes lines: a statement after all.
      opsTotal_ = total;
      opsDone_ = done;
      gaps_.resize(gaps);
      exprs_.erase(op.results[0]);
      foldFailed_ = false;
      break;
    }
    }
  }
  if (readable() && !folding_ && !inner_) {
    auto [file, at] = positionAt(op.loc);
    if (at != 0) {
      curFile_ = file;
      curLine_ = at;
    }
  }
  dispatch(op);
}

void Emitter::dispatch(const Operation &op) {
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
        line(py::print(
            py::call("gl.static_assert",
                     {py::boolean(false),
                      py::string(fmt::format("tilexform: no Gluon spelling for {} (line {})",
                                             op.name, op.pos.line))})));
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
    std::vector<int64_t> values = op.intsAttr(attr);
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
  // (those whose rule gives none, or only an async token, which older
  // dumps and unused tokens leave out, are told by the schema).
  static const std::set<std::string> noResult = {
      "scf.for",      "scf.if", "scf.while", "ttng.tmem_store", "ttng.warp_group_dot_wait",
      "tt.atomic_rmw"};
  return !op.results.empty() || noResult.count(op.name) ||
         (op.schema && (op.schema->results == ir::ResultRule::None ||
                        op.schema->results == ir::ResultRule::Token));
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
