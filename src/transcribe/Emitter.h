// The transcriber's emitter: walks plain's function and writes one Python
// statement per op. How each op is spelled lives in the Emit*.cpp files, one
// per op family, each adding its handlers to one table (EmitterTable); this
// class holds what they share: the scope of names, expressions bound to
// values, the layout constants, the gaps and the imports.
#pragma once

#include "Fold.h"
#include "Names.h"
#include "Scope.h"
#include "tilexform/transcribe/Py.h"

#include "tilexform/analysis/Pipeline.h"
#include "tilexform/analysis/Recover.h"
#include "tilexform/ir/Module.h"
#include "tilexform/support/SourceFiles.h"
#include "tilexform/transcribe/Transcribe.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringMap.h>
#include <mlir/IR/Types.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tilexform::transcribe {

class Emitter;
using EmitterHandler = void (*)(Emitter &, const ir::Operation &);
using EmitterTable = llvm::StringMap<EmitterHandler>;

/// One op's spelling, as the family files list them.
struct Spelling {
  const char *op;
  EmitterHandler emit;
};
void addSpellings(EmitterTable &t, llvm::ArrayRef<Spelling> spellings);

// The op families; each registers its spellings.
void addArithEmitters(EmitterTable &t);
void addTensorEmitters(EmitterTable &t);
void addMemoryEmitters(EmitterTable &t);
void addMmaEmitters(EmitterTable &t);
void addNvidiaEmitters(EmitterTable &t);
void addAmdEmitters(EmitterTable &t);
void addControlEmitters(EmitterTable &t);

/// Ops an in-kernel tensor descriptor's spelling stands for though they are
/// not its own (the byte strides of its tensormap).
std::set<const ir::Operation *> descriptorStrideOps(const ir::Module &m);
/// The operand in `op`'s destination segment: the memory an async or TMA
/// copy (`result`), a store (`dst`) or a buffer load to LDS (`dest`)
/// writes; null where the op has no such segment.
const ir::Value *copyDestination(const ir::Operation &op);
/// Whether an allocation holds barriers: it, or a view of it, is
/// initialised as one.
bool holdsBarriers(const ir::Value *alloc);

class Emitter {
public:
  Emitter(const ir::Module &m, const analysis::RecoverReport &rec, const TranscribeOptions &o);

  llvm::Expected<TranscribeReport> run();

  // ---- what handlers use ---------------------------------------------------------

  const ir::Module &module() const { return m_; }
  const TranscribeOptions &options() const { return o_; }
  bool amd() const { return m_.facts.vendor() == "amd"; }

  /// The Python name of `v`: plain's SSA name (faithful) or the source's
  /// (readable: the name the source assigned it, without a numeric suffix
  /// where it is the only one).
  std::string nameFor(const ir::Value *v);
  /// Readable: names `v` from `base` (a loop's carried value after what it
  /// carries); faithful: its SSA name.
  std::string nameAs(const ir::Value *v, const std::string &base);
  /// The Python expression of `v`: what was bound to it, else its name.
  /// Where it needs parentheses is the printer's concern (py::print).
  py::Expr expr(const ir::Value *v);
  /// The expressions of several values, in order.
  template <typename Values> std::vector<py::Expr> exprs(const Values &values) {
    std::vector<py::Expr> out;
    for (const ir::Value *v : values)
      out.push_back(expr(v));
    return out;
  }
  /// `v` for a spelling that reads it twice (`p.dtype` beside `p`): a
  /// folded expression is first written as a statement of its own, so
  /// that its ops are made once (while folding, the op that reads it
  /// becomes a statement instead).
  py::Expr reusable(const ir::Value *v);
  bool readable() const { return o_.style == Style::Readable; }

  /// The readable base name of an op's result: the source's name for it
  /// where the dump's name is the value's own (NamePlan), else its role.
  std::string sourceName(const ir::Value *v) const;
  /// The name of a value the source does not name: the value it is a
  /// broadcast or conversion of, its role (`pred`, `mask`, `next_stage`)
  /// or a neutral name.
  std::string roleOf(const ir::Value *v) const;
  /// Whether the dump's name of `v` is the source's name of `v` (NamePlan).
  bool namesItsValue(const ir::Value *v) const { return names().namesItsValue(v); }
  const std::string &neutralName() const { return names().neutral(); }
  /// The variable of the source's `for NAME in ...` at `loop`'s line; empty
  /// when the source is not at hand or the line is no such loop.
  std::string loopVariable(const ir::Operation &loop);
  /// A pipeliner's counter's role name: `stage`, `fill_stage`, `phase`.
  static bool isCounterName(llvm::StringRef n) {
    return n == "stage" || n == "fill_stage" || n == "phase";
  }
  /// A ring of barriers the source does not name: after the buffers its
  /// TMA copies fill (`a_bar`), `ready_bar` for several, `mma_bar`.
  std::string barrierName(const ir::Value *ring) const;
  /// Binds `v` to an expression instead of a name (a literal, `None` for a
  /// token Gluon has no counterpart for).
  void bind(const ir::Value *v, py::Expr e) { exprs_[v] = std::move(e); }
  bool bound(const ir::Value *v) const { return exprs_.count(v) != 0; }

  /// The layout constant of `t`'s encoding; a gap when it has none.
  std::string layoutOf(mlir::Type t, unsigned line);
  /// The same as an expression (`None` after a gap).
  py::Expr layout(mlir::Type t, unsigned line) { return py::name(layoutOf(t, line)); }
  /// The module-level name of layout `l`'s constructor at one buffer shape
  /// (`constant` is its own constant's name, if it has one).
  static std::string shapeConstantName(const analysis::RecoveredLayout &l,
                                       const std::string &constant,
                                       const std::vector<int64_t> &shape);
  /// Whether `t`'s encoding has a layout constant.
  bool hasLayoutConstant(mlir::Type t) const;
  std::string dtypeOf(mlir::Type t, unsigned line);
  py::Expr dtype(mlir::Type t, unsigned line) { return py::name(dtypeOf(t, line)); }

  void gap(const std::string &kind, const std::string &what, unsigned line,
           const std::string &reason);
  /// Leaves `op` out of the anchor (a schedule hint Gluon cannot state):
  /// a comment where it stood, and an entry in the report.
  void notCarried(const ir::Operation &op, const std::string &reason);
  /// Writes one line at the current indent; faithful: `dumpLine` (when not
  /// 0) as a `# line N` comment after it, the dump line it transcribes;
  /// then `note`, when given, as a comment of its own (both styles).
  void line(const std::string &text, unsigned dumpLine = 0, const std::string &note = "");
  /// `a, b = ` for an op's results (empty when it has none).
  std::string assign(const ir::Operation &op);
  /// `op`'s results assigned `rhs` (or `rhs` alone for an op without
  /// results); while folding, binds the result to it instead.
  void statement(const ir::Operation &op, const py::Expr &rhs);
  void need(const std::string &import) { imports_.insert(import); }
  /// The Gluon module of AMD's instructions for this target: cdna4 on
  /// gfx950, cdna3 otherwise.
  std::string amdModule();
  /// The Gluon module that spells the arch's WMMA.
  std::string wmmaModule();

  /// Whether `op` has at least `n` operands; a gap when not.
  bool hasOperands(const ir::Operation &op, size_t n);
  void binary(const ir::Operation &op, const char *pyOp);
  void call2(const ir::Operation &op, const char *fn, std::vector<py::Keyword> keywords = {});
  void call1(const ir::Operation &op, const char *fn);
  void cast(const ir::Operation &op, bool bitcast = false, std::vector<py::Keyword> keywords = {});

  // Gluon's integers carry their signedness in the type, plain's IR in the
  // op: an unsigned op reads its operands through a bitcast to the unsigned
  // type of the same width and gives its integer result back as signed. The
  // bitcasts are between equal IR types, so they fold away.
  /// `x.to(gl.uint32, bitcast=True)` for an integer value; a literal as is
  /// (it takes the other operand's type).
  py::Expr unsignedOperand(const ir::Value *v);
  /// `(rhs).to(gl.int32, bitcast=True)` for an integer result type.
  py::Expr signedResult(const py::Expr &rhs, mlir::Type t);
  /// The unsigned dtype of an integer element type (`gl.uint32`); empty for
  /// i1 and non-integers.
  static std::string unsignedDtype(mlir::Type t);

  /// The `@gluon.jit` combine function of a reduction's or scan's region.
  std::string combineFunction(const ir::Operation &op);
  /// The Python name of a function of the dump (`@mod.helper__fp32S512S`
  /// is `helper`), registered before any body is written; "" for a symbol
  /// no function of the dump has.
  std::string functionName(const std::string &symbol) const;

  void emitOp(const ir::Operation &op);
  void emitBlock(const ir::Block &b);
  /// A nested block one level in: its ops, its scf.yield as assignments to
  /// `targets` (those left empty carry nothing; with skipUnchanged a value
  /// yielded unchanged is not reassigned), `pass` when it writes nothing.
  void emitNested(const ir::Block *b, const std::vector<std::string> &targets, bool skipUnchanged);
  int &indent() { return indent_; }

  /// The function's body: its entry block and, where plain has early exits
  /// (`cf.cond_br` to a block that returns), the blocks they branch to, as
  /// nested `if c: ... return`.
  void emitFunctionBody(const ir::Region &body);

  /// Emits `op`'s pure ops as one expression: while folding, a statement
  /// binds its single result to its right-hand side instead of writing a
  /// line. Returns false (nothing bound) when an op cannot be folded.
  bool foldOps(const std::vector<const ir::Operation *> &ops);

private:
  static const EmitterTable &emitters();
  void dispatch(const ir::Operation &op);
  /// Readable: the comment naming (and quoting) the source line of the op
  /// being written, above the first line written for it.
  void sourceComment();
  std::string sourceLine(const std::string &file, unsigned line);
  /// The lines of a source file a location names, when the command's
  /// SourceFiles reads it.
  const SourceText *source(const std::string &file);
  void planSources(const ir::Operation &fn);
  void hints(const ir::Operation &op);
  bool wellFormed(const ir::Operation &op);
  /// A noinline function of the dump other than the kernel, as a
  /// `@gluon.jit(noinline=True)` function of the module.
  void emitNoinlineFunction(const ir::Operation &fn, const std::string &name);
  /// Takes what an emitter of a function of its own (a helper, a noinline
  /// function) added to the module: gaps, imports, constants, functions and
  /// its op counts.
  void adopt(const Emitter &inner);

  // Readable: inlined helpers of the source (Helpers.cpp).
  /// The ops of one call of a source `@jit` helper that plain inlined,
  /// consecutive in one block, and the helper's name in the source.
  struct HelperRun {
    std::vector<const ir::Operation *> ops;
    std::string name;              // the module's (the source's, unless that is taken)
    std::string sourceName;        // the source's
    std::string defFile, callFile; // where the source defines and calls it
    unsigned defLine = 0, callLine = 0;
  };
  /// Finds the calls, in `sequences` of ops and the blocks nested in them,
  /// whose ops are all consecutive: each is written as a call of a
  /// `@gluon.jit` helper.
  void planHelpers(const std::vector<std::vector<const ir::Operation *>> &sequences);
  void emitHelperCall(const HelperRun &run);
  void countHelper(const std::string &name, const std::string &source, size_t calls);
  /// The name of the function of the source around `line` of `file`; empty
  /// when the source is not at hand.
  std::string sourceFunctionAt(const std::string &file, unsigned line, unsigned *defLine = nullptr);
  /// `count` lines of the source from `from`, each ending in a newline.
  std::string sourceText(const std::string &file, unsigned from, unsigned count);
  /// The parameter names of the source's `def` at `defLine`.
  std::vector<std::string> sourceParameters(const std::string &file, unsigned defLine);
  /// The arguments of the source's call of `callee` on `line`: (keyword or
  /// empty, text) each.
  std::vector<std::pair<std::string, std::string>>
  sourceCallArguments(const std::string &file, unsigned line, const std::string &callee);
  /// The names the source's function at `defLine` returns, in order (`return
  /// acc, l_i, m_i`: its last `return`); an entry that is no name is empty.
  std::vector<std::string> sourceReturnNames(const std::string &file, unsigned defLine);
  /// The names the source's call of `callee` on `line` is assigned to, in
  /// order (`acc, l_i, m_i = _attn_fwd_inner(...)`); empty when it is no
  /// assignment of names.
  std::vector<std::string> sourceCallTargets(const std::string &file, unsigned line,
                                             const std::string &callee);
  /// Where `loc` is in the code being written: the kernel's line for an op
  /// of an inlined call, the line inside a helper one call deeper.
  std::pair<std::string, unsigned> positionAt(const ir::SourceLoc &loc) const;
  /// The scope of the module's own names (the kernel's scope, which
  /// helpers and noinline functions share with it).
  Scope &moduleScope() { return moduleScope_ ? *moduleScope_ : scope_; }
  // Readable: comments on plain's pipeline (PipelineNotes.cpp).
  /// Plans the comments of the rings of buffers and of the parts around
  /// the hot loop.
  void planPipelineNotes(const ir::Operation &fn, const analysis::LoopPipeline &hotLoop);
  /// Writes `op`'s pipeline comments, if it has any.
  void pipelineNote(const ir::Operation &op);
  std::map<const ir::Operation *, std::string> notes_, phases_;

  std::set<const ir::Operation *> absorbed_; // written by another op's spelling
  int depth_ = 0; // calls of inlined helpers around the code being written
  std::map<const ir::Operation *, HelperRun> helperRuns_;
  /// The helpers written, in the order written, and their calls.
  std::vector<HelperFunction> helperFunctions_;
  std::set<const ir::Operation *> inHelperRun_;
  Scope *moduleScope_ = nullptr;

  const ir::Module &m_;
  const analysis::RecoverReport &rec_;
  const TranscribeOptions &o_;
  std::map<std::string, std::string> layoutNames_;
  /// Layouts written once per buffer shape (a shared layout Gluon has no
  /// class for, used at several shapes): constant name -> constructor, and
  /// the comment above it.
  std::map<std::string, std::pair<std::string, std::string>> shapeConstants_;
  /// The layouts written per buffer shape, by attribute text.
  std::map<std::string, const analysis::RecoveredLayout *> perShape_;
  Scope scope_;
  std::map<const ir::Value *, py::Expr> exprs_;
  std::string body_;
  std::vector<std::string> helpers_; // combine functions, emitted before the kernel
  std::map<std::string, std::string> helperByBody_;
  std::map<std::string, std::string> functionNames_; // symbol -> Python name
  int indent_ = 1;
  std::vector<Gap> gaps_;
  std::vector<NotCarried> notCarried_;
  std::set<std::string> imports_;
  bool currentOk_ = true;
  int folding_ = 0; // >0: statements bind expressions instead of writing lines
  bool foldFailed_ = false;
  void emitBlockTree(const ir::Region &body, const ir::Block &b, bool nested,
                     std::set<const ir::Block *> &seen);
  size_t opsTotal_ = 0, opsDone_ = 0;
  // Readable.
  const FoldPlan *plan_ = nullptr;
  /// Which names of the dump name their values, made on first use and
  /// shared with the emitters of combine functions, helpers and noinline
  /// functions.
  const NamePlan &names() const;
  mutable std::shared_ptr<const NamePlan> names_;
  /// An inner emitter's names are its outer one's (readable only: faithful
  /// keeps plain's).
  void shareNames(const Emitter &outer) {
    if (outer.readable())
      names_ = std::shared_ptr<const NamePlan>(outer.names_ ? outer.names_
                                                            : (outer.names(), outer.names_));
  }
  FoldPlan ownPlan_;
  bool inner_ = false; // a combine function's body: no source comments
  std::string curFile_, lastFile_;
  unsigned curLine_ = 0, lastLine_ = 0;
  std::map<std::string, std::string> displayNames_;
};

} // namespace tilexform::transcribe
