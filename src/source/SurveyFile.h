// One file's facts as survey's rules read them: its imports, module globals,
// kernels (with their autotune configs), each kernel's constexpr names and
// loops, and its launches. Each finding rule (SurveyRules.h) reads these and
// adds findings; the facts are computed once per file.
#pragma once

#include "SurveySyntax.h"
#include "tilexform/source/Survey.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tilexform::source::detail {

/// What an autotune decorator's configs say.
struct ConfigFacts {
  std::set<std::string> keys, numWarps;
  std::vector<std::string> numStages; // each config's num_stages as written ("" when absent)
  bool numWarpsSwept = false;
  /// Every config passes its num_warps to the kernel as a constexpr too
  /// (`Config({"NW": w}, num_warps=w)`): layouts built from it follow the sweep.
  bool numWarpsPassed = false;
  const Node *wavesPerEu = nullptr; // a waves_per_eu that sets a limit (not 0 on every path)
  bool opaque = false;              // built by a call survey cannot read
};

/// A loop of a kernel as the pipeliner sees it after inlining.
struct LoopInfo {
  const Node *node = nullptr;
  size_t record = 0; // index into the kernel's record.loops
  bool outer = false;
  int dots = 0; // dot-like ops in its own block after inlining
};

struct KernelInfo {
  Node *def = nullptr;
  KernelRecord record;
  Dialect dialect = Dialect::Triton;
  Node *autotune = nullptr; // the autotune decorator call (triton.autotune or a wrapper)
  ConfigFacts configs;      // read once, when autotuned
  bool noinline = false;    // @triton.jit(noinline=True): a call, not inlined
  std::vector<LoopInfo> loops;
};

/// A launch `kernel[grid](...)`, with the kernel it names.
struct Launch {
  Node *call = nullptr;
  Node *grid = nullptr;
  KernelInfo *kernel = nullptr;
  Node *scope = nullptr; // the function (or module) it sits in
  std::vector<Node *> ancestors;
};

/// Conditions known at a point of a function: the tests of the ifs around
/// it, each true or false (`if use_gluon and n > 1:` makes `use_gluon`
/// true; its else makes `not use_gluon`'s operand true). A test is named by
/// its dotted name (`use_gluon`, `self.fast`); other tests tell nothing.
struct PathFacts {
  std::map<std::string, bool> known;
  /// Whether a statement with these ancestors can run where the facts hold.
  bool reaches(const std::vector<Node *> &ancestors, const Node *statement) const;
  /// The facts at a point below `ancestors`, counting only ifs at or below `from`.
  static PathFacts at(const std::vector<Node *> &ancestors, const Node *point, const Node *from);
};

/// What a module-level global is bound to, as Triton's global lookup
/// (code_generator.py, `global_lookup`) tells them apart.
enum class GlobalKind {
  Allowed,            // constexpr, module, JIT function, triton.language object, dtype, namedtuple
  Value,              // a plain Python value: a NameError when a kernel reads it
  AnnotatedConstexpr, // `X: tl.constexpr = 7`: the annotation form Triton does not support
  Unknown,            // bound to something tilexform cannot see (a call, another project's object)
};

struct ModuleGlobal {
  unsigned line = 0;
  GlobalKind kind = GlobalKind::Unknown;
  const Node *value = nullptr;
};

/// Constexpr-ness inside one kernel.
struct Scope {
  std::set<std::string> params, constexprParams, locals, constexprLocals;
  /// Parameters annotated with a class of this file, by name: for the
  /// constexpr fields of an @aggregate (`cfg: Config` then `cfg.BLOCK`).
  std::map<std::string, std::string> paramClass;
};

class FileAnalysis {
public:
  FileAnalysis(PyModule &m, llvm::StringRef text) : m_(m), text_(text) {
    im_ = collectImports(m.root);
  }

  FileSurvey run();
  /// The second pass: only the launches of imported kernels, checked
  /// against the tree's kernels.
  std::vector<Finding> importedLaunchFindings(const KernelIndex &index);

  // ---- facts the rules read
  PyModule &module() { return m_; }
  const Imports &imports() const { return im_; }
  const std::map<std::string, ModuleGlobal> &globals() const { return globals_; }
  std::vector<KernelInfo> &kernels() { return kernels_; }
  KernelInfo *kernelNamed(const std::string &name);
  /// The line's code, without its trailing comment.
  std::string lineText(unsigned line) const;
  Finding finding(const char *kind, const Node *at, const std::string &kernel,
                  std::string message) const;
  void addFileFinding(Finding f) { fileFindings_.push_back(std::move(f)); }
  /// True the first time a node is reported by a rule that reports each once.
  bool firstReport(const Node *n) { return reportedOnce_.insert(n).second; }

  bool isConstexprAnnotation(const Node *annotation) const;
  bool isConstexprCall(const Node *value) const;
  /// Whether an expression is known at compile time: every leaf is a literal,
  /// a constexpr name or a language constant, and every operation is pure.
  bool isConstexpr(const Node *root, const Scope &s) const;
  Scope kernelScope(Node *def) const;
  /// Whether `value`, an argument of the launch, is bound only to literal
  /// zeros (`w = 0`, `w = 0 if x else 0`, a config builder that hard-codes 0)
  /// on the paths that reach the launch; a parameter is not. A binding under
  /// `if c:` does not reach a launch under `if not c:` or in its else, and
  /// the other way round.
  bool zeroOnEveryPath(const Node *value, const Launch &launch) const;

  /// The @jit functions of this file as a caller's loop sees them inlined.
  JitFunctionFacts jitFunction(const std::string &name);

private:
  void collectModuleGlobals();
  GlobalKind kindOfValue(const Node *v) const;
  GlobalKind kindOfTruthyValue(const Node *v) const;
  void findKernels();
  ConfigFacts configFacts(const Node *autotune);
  const Node *configsOf(const Node *autotune) const;
  void classifyLoops(KernelInfo &k);
  void findLaunches(const std::function<void(Launch &)> &check);
  bool nameIsConstexpr(const Node *e, const Scope &s) const;
  const std::set<std::string> &constexprFields(const std::string &cls) const;
  /// The kernels a launched name stands for: a kernel of this file, or a
  /// local alias of kernels (`impl = kernel_a` / `impl = kernel_b`).
  std::vector<KernelInfo *> launchedKernels(const Node *callee, const Node *scope,
                                            const Node *launch);
  bool zeroValue(const Node *value, const Node *root, int depth,
                 const PathFacts *facts = nullptr) const;
  bool zeroConfigEntry(const std::string &dict, const std::string &key, const Node *root, int depth,
                       const PathFacts *facts) const;
  KernelInfo *externalKernel(const Node *callee);
  std::vector<const Node *> aliasValues(const Node *callee, const Node *scope,
                                        const Node *launch) const;

  PyModule &m_;
  llvm::StringRef text_;
  Imports im_;
  std::map<std::string, ModuleGlobal> globals_;
  std::set<std::string> definitions_;
  std::vector<KernelInfo> kernels_;
  std::vector<Finding> fileFindings_;
  std::map<std::string, JitFunctionFacts> jitFacts_;
  std::set<std::string> inProgress_;
  mutable std::map<std::string, std::set<std::string>> constexprFields_;
  const KernelIndex *external_ = nullptr;
  std::deque<KernelInfo> externals_; // imported kernels as this file's launches see them
  bool importedLaunches_ = false;
  std::set<const Node *> reportedOnce_;
};

} // namespace tilexform::source::detail
