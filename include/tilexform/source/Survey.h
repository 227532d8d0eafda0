// survey: which loops of which kernels can pipeline by which knob, and which
// source patterns silently defeat a port or a tuning result. Works on the
// parsed Python source (tilexform/source/Python.h), never on regexes.
#pragma once

#include <llvm/Support/Error.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilexform::source {

/// One loop inside a kernel and the knob that decides its pipelining:
///  annotated  tl.range(..., num_stages=N): the annotation decides
///  launch     bare range with a dot in the loop: the launch num_stages decides
///  none       dot-free bare range: nothing pipelines it until annotated
///  frozen     a literal num_stages of 0 or 1: no tuner can reach a depth
///  static     tl.static_range: unrolled, never pipelined
///  outer      holds another loop (its own or one of an inlined @jit helper):
///             Triton pipelines innermost loops only (isOuterLoop)
///  authored   a Gluon loop: Gluon runs no software pipeliner, so the overlap
///             is what the kernel writes (multi-buffered shared memory with async
///             copies, TMA or mbarriers); `none` when it writes none
/// A call in a loop to a function imported from another module, resolved to
/// its dotted path ("pkg.helpers.mm"); `direct` when it sits in the loop's own
/// block (not under a runtime branch), where the helper's loops, once
/// inlined, make this loop an outer loop.
struct ImportedCall {
  std::string path;
  bool direct = false;
};

struct LoopRecord {
  unsigned line = 0, col = 0;
  std::string form;
  int dots = 0;          // in the loop's own block after inlining, not in inner loops
  int helperDots = 0;    // of those, the ones inside helpers
  std::string iterator;  // "range", "tl.range", "tl.static_range", ... as written
  std::string numStages; // the num_stages argument as written, "" when absent
  bool flatten = false, warpSpecialize = false; // tl.range(..., flatten=, warp_specialize=)
  std::string why;
  /// Calls in the loop to functions imported from other modules: the tree
  /// walk joins them with the @jit helpers of the tree.
  std::vector<ImportedCall> importedCalls;
};

/// A finding: `kind` is one of the rule ids in surveyRules().
struct Finding {
  std::string kind;
  std::string file;
  unsigned line = 0, col = 0;
  std::string kernel; // the kernel it concerns, "" for file-level findings
  std::string message;
  /// The compiler the finding is judged against: "upstream", or the fork
  /// rule that makes another compiler read the file ("" when no fork reads it).
  std::string forkRule;
};

/// A @jit function as the loop of a caller sees it once Triton has inlined
/// it: the dots it adds to that loop's own block (not those inside its own
/// loops), and whether it brings a loop into that block.
struct JitFunctionFacts {
  int dots = 0;
  bool loop = false;
  unsigned loopLine = 0; // the first loop it brings
  /// The constexpr tests the loop sits under (`ATOMIC_ADD`, `not EVEN_K`):
  /// it lands in a caller's block only in the launches where they hold.
  std::string loopSwitch;
};

struct KernelRecord {
  std::string name, file;
  unsigned line = 0;
  std::string dialect; // "triton" or "gluon"
  bool autotuned = false, heuristics = false;
  /// The decorator that autotunes it when it is not triton.autotune itself
  /// (a library's wrapper: "libtuner", "fla_cache_autotune").
  std::string autotuneWrapper;
  /// The configs come from a call survey cannot read (a file, a registry).
  bool configsOpaque = false;
  /// Each autotune config's num_stages as written, in order ("" when a
  /// config sets none: the launch default).
  std::vector<std::string> autotuneNumStages;
  /// The parameters the autotune configs tune (their Config dict keys).
  std::vector<std::string> tunedKeys;
  std::vector<std::string> decorators;
  std::vector<LoopRecord> loops;
  std::vector<Finding> findings;
};

struct FileSurvey {
  std::vector<KernelRecord> kernels;
  std::vector<Finding> findings; // not tied to one kernel
  /// Every @jit function of the file as a caller's loop sees it once
  /// inlined, for helpers called from other files.
  std::map<std::string, JitFunctionFacts> jitFunctions;
  /// Whether the file launches kernels it imports (`mod.kernel[grid](...)`):
  /// the tree walk then checks those launches against the kernels of the tree.
  bool importedLaunches = false;
};

/// A kernel of another file, as a launch in this one sees it.
struct ExternalKernel {
  std::string name;
  bool gluon = false, autotuned = false;
  std::vector<std::string> tunedKeys;
  std::string file;
};
/// Kernels by dotted path suffix ("matmul.mm", "ops.matmul.mm").
using KernelIndex = std::map<std::string, ExternalKernel>;

/// The findings of the launches in `text` of kernels imported from other
/// files of the tree, checked against `index` (grid, waves_per_eu,
/// num_warps sweeps, per-tensor loops); file-level findings naming the kernel.
llvm::Expected<std::vector<Finding>>
surveyImportedLaunches(llvm::StringRef text, const std::string &file, const KernelIndex &index);

/// Which compiler judges the files of a vendor backend folder
/// (`backend/_<vendor>/`, read by that vendor's Triton fork).
enum class TargetCompiler {
  Upstream, // every file against upstream Triton; findings a fork accepts say so
  Fork,     // vendor backend folders against their fork: what forks accept is no finding
};

/// The vendor a path's backend folder names ("mthreads" for
/// ".../runtime/backend/_mthreads/ops/mm.py"), "" outside one.
std::string vendorBackendOf(llvm::StringRef path);

struct SurveyRule {
  const char *id;
  const char *title; // one line
  const char *why;   // the reason it matters, for docs and SARIF
};
const std::vector<SurveyRule> &surveyRules();

/// Surveys one source file (already read). Errors: syntax errors with
/// file:line:col.
llvm::Expected<FileSurvey> surveySource(llvm::StringRef text, const std::string &file);

struct SurveyOptions {
  std::vector<std::string> excludes; // gitignore-style patterns, relative to each root
  bool useGitignore = true;
  unsigned jobs = 0;
  TargetCompiler targetCompiler = TargetCompiler::Upstream;
  std::function<void(size_t, size_t)> progress;
};

/// A directory of a tree that could not be entered or read through (its
/// files are not surveyed).
struct SkippedDirectory {
  std::string path;
  std::string reason; // "permission denied", ...
};

struct SurveyReport {
  std::vector<KernelRecord> kernels;
  std::vector<Finding> findings;   // file-level
  std::vector<std::string> errors; // one line per unreadable / non-UTF-8 / unparsable file
  std::vector<SkippedDirectory> directoriesSkipped;
  size_t filesScanned = 0, filesWithKernels = 0, filesExcluded = 0;
};

/// Walks the trees (or files) and surveys every .py file. Fails only for a
/// root that does not exist.
llvm::Expected<SurveyReport> survey(const std::vector<std::string> &roots,
                                    const SurveyOptions &options);

/// Whether `path` (relative, '/'-separated) matches a gitignore pattern.
bool gitignoreMatch(llvm::StringRef pattern, llvm::StringRef path, bool isDirectory);

} // namespace tilexform::source
