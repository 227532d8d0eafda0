// Facts a port needs from a plain Triton dump: every layout with its Gluon
// constructor and round-trip proof, where and in which role each is used,
// pipelining per loop, load operand buckets, and shared memory with liveness.
#pragma once

#include "tilexform/gluon/Gluon.h"
#include "tilexform/hw/ArchData.h"
#include "tilexform/ir/Module.h"
#include "tilexform/support/Verdict.h"

#include <optional>
#include <string>
#include <vector>

namespace tilexform::analysis {

/// One place a layout is carried: an op result, operand or block argument.
struct UseSite {
  std::string op;       // "ttg.local_load", or "block argument"
  std::string position; // "result 0", "operand 1", "argument 2"
  unsigned line = 0, col = 0;
  std::vector<int64_t> shape;
  std::string elementType;
  std::string memory; // "registers", "shared", "tensor_memory"
  ir::SourceLoc source;
};

struct RecoveredLayout {
  std::string name; // the alias, or a generated name for inline layouts
  std::string attr; // canonical text
  std::string kind;
  layout::EncodingPtr encoding;
  std::optional<std::string> gluon;
  Verdict status = Verdict::Unrecoverable; // Exact, Differs, Unrecoverable
  std::string reason;                      // why UNRECOVERABLE / what DIFFERS
  std::string role;                        // the primary role
  std::vector<std::string> roles;
  std::vector<UseSite> sites; // the first `maxSites` of them (recover's argument)
  size_t siteCount = 0;       // every use site
  std::vector<int64_t> shape; // the first shape it is used at (for the proof)
  /// A shared layout's distinct per-buffer shapes (the memdesc's trailing
  /// dims) over every use site, listed or not.
  std::vector<std::vector<int64_t>> bufferShapes;
  /// Set when Gluon has no class for the kind and the constructor is the
  /// layout's own linear layout at its one buffer shape.
  bool asLinear = false;
  /// A shared layout Gluon has no class for, used at several buffer shapes:
  /// its linear layout's constructor at each (one constant cannot stand for
  /// it, so `gluon` is empty; a transcriber writes one per allocation shape).
  std::vector<std::pair<std::vector<int64_t>, std::string>> gluonAtShape;
  unsigned warps = 0; // product of warpsPerCTA along the parent chain (0: n/a)
};

struct UnsupportedOp {
  std::string name;
  unsigned count = 0, line = 0;
  std::string reason;
};

struct LoopFacts {
  std::string op; // scf.for / scf.while
  unsigned line = 0;
  std::string function;
  ir::SourceLoc source;
  std::optional<int64_t> numStages;
  unsigned loads = 0, dots = 0, asyncCopies = 0, iterArgs = 0;
  unsigned buffers = 0;  // leading dim of multi-buffered memdescs indexed in the loop
  bool prefetch = false; // global loads carried to the next iteration
  Verdict verdict = Verdict::Inconclusive; // Pipelined, NotPipelined, Inconclusive
  std::string why;
};

struct LoadSite {
  std::string op;
  unsigned line = 0;
  std::string bucket; // bare, mask-only, mask+other
  unsigned operands = 0;
  std::optional<int64_t> contiguity;
  bool stride = false; // amdg.buffer_load's `stride = %s` operand
  bool inLoop = false;
};

struct SharedAllocation {
  std::string op; // ttg.local_alloc
  unsigned line = 0;
  std::string name;
  std::string type;
  int64_t bytes = 0;
  unsigned firstLine = 0, lastLine = 0; // live range in the dump
};

struct SharedSummary {
  int64_t peakBytes = 0;
  int64_t declaredBytes = 0;            // sum of all allocations
  std::optional<int64_t> compilerBytes; // the module's `ttg.shared`
  std::optional<hw::Figure> capacity;
  std::string capacityNote; // why there is no capacity
  std::vector<SharedAllocation> allocations;
};

struct WarpMismatch {
  std::string layout;
  unsigned layoutWarps = 0, expected = 0;
  unsigned line = 0;
};

struct RecoverReport {
  ir::ModuleFacts facts;
  std::string arch;
  gluon::GluonApi api = gluon::GluonApi::V3_6;
  std::vector<RecoveredLayout> layouts;
  std::vector<UnsupportedOp> unsupportedOps;
  std::vector<LoopFacts> loops;
  std::vector<LoadSite> loads;
  SharedSummary shared;
  std::vector<WarpMismatch> warpMismatches;
  std::string constantsDigest;
};

/// Recovers everything above from a loaded module. `arch` overrides the
/// module's target when not empty. Each layout lists its first `maxSites`
/// use sites (0: all) and counts them all.
RecoverReport recover(const ir::Module &mod, gluon::GluonApi api,
                      const std::string &archOverride = {}, size_t maxSites = 0);

/// The constant each layout is named by in the anchor module, index-aligned
/// with report.layouts; empty for a layout with no Gluon constructor. Names
/// come from roles (ACC_LAYOUT, A_LOAD_LAYOUT, ...); a slice or dot operand
/// of another recovered layout is named from its parent (A_LOAD_SLICE1_LAYOUT).
std::vector<std::string> layoutConstantNames(const RecoverReport &report);

/// One constant of the anchor module: its name and constructor, where a
/// parent that is itself a constant is referenced by name
/// (`gl.SliceLayout(dim=1, parent=A_LOAD_LAYOUT)`).
struct LayoutConstant {
  size_t index = 0; // into report.layouts
  std::string name;
  std::string expr;
  std::optional<size_t> parent; // the layout (index) it names as its parent
};
/// The recovered layouts as constants, in an order where every parent comes
/// before the layouts naming it (otherwise the report's order).
std::vector<LayoutConstant> layoutConstants(const RecoverReport &report);

/// The deterministic Python module with one `gl.constexpr` per layout;
/// an UnsafeModuleError (source/GeneratedModule.h) where the module would
/// not be only that.
llvm::Expected<std::string> anchorModule(const RecoverReport &report,
                                         const std::string &sourcePath);

} // namespace tilexform::analysis
