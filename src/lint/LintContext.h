// What every rule family of `lint` shares: the module, the target, where
// findings go, and the facts about the IR several rules ask for (which
// buffer a memdesc views, constants, paths through the structured control
// flow). Internal to src/lint/.
#pragma once

#include "tilexform/hw/Target.h"
#include "tilexform/lint/Lint.h"

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/FunctionExtras.h>
#include <llvm/ADT/STLFunctionalExtras.h>

#include <optional>
#include <string>
#include <vector>

namespace tilexform::lint {

struct LintContext {
  const ir::Module &module;
  const LintOptions &options;
  std::optional<hw::Target> target;
  LintReport &report;
  bool walkCutShort = false; // a path walk ran out of its budget

  bool enabled(Rule r) const { return options.rules.test(size_t(r)); }
  /// Records a finding anchored at `op` (skipped when the rule is off).
  void add(Rule rule, const ir::Operation *op, std::string message, std::string fix);
  /// The same for what is no op (a layout alias): `what` names it.
  void addAt(Rule rule, std::string what, ir::TextPos pos, std::string message, std::string fix);

  bool nvidia() const { return target && target->vendor == hw::Vendor::Nvidia; }
  bool amd() const { return target && target->vendor == hw::Vendor::Amd; }
  /// The compute capability of an NVIDIA target ("sm_90" -> 90), else none.
  std::optional<int> smVersion() const;
};

// ---- facts about the IR ---------------------------------------------------

/// The buffer a memdesc value views: through memdesc views
/// (`ttg.memdesc_index`, `_subslice`, `_trans`, ...), the captures of
/// `ttg.warp_specialize` partitions and the iteration arguments of loops,
/// to the allocation (or the function argument) it starts from.
ir::Value *bufferRoot(ir::Value *v);
/// A barrier: its buffer and, where the view chain indexes it with a
/// constant, which entry.
struct BarrierRef {
  ir::Value *root = nullptr;
  std::optional<int64_t> index;
  /// Whether two references can name the same barrier.
  bool mayAlias(const BarrierRef &o) const {
    return root == o.root && (!index || !o.index || *index == *o.index);
  }
};
BarrierRef barrierRef(ir::Value *v);

/// The integer an `arith.constant` defines, or none.
std::optional<int64_t> constantInt(const ir::Value *v);
/// The op's shape of a tensor or memdesc type (empty when it has none).
std::vector<int64_t> shapeOf(mlir::Type t);
/// Element bit width of a tensor, memdesc or tensor descriptor type (0: unknown).
unsigned elementBits(mlir::Type t);
/// The innermost `scf.for`/`scf.while` around an op, or null.
const ir::Operation *enclosingLoop(const ir::Operation *op);
/// Whether `op` lies inside `ancestor`'s regions.
bool isInside(const ir::Operation *op, const ir::Operation *ancestor);
/// The `ttg.warp_specialize` region an op is in (its op and region index),
/// or none.
struct PartitionPlace {
  const ir::Operation *op = nullptr;
  size_t region = 0; // 0: the default region
};
std::optional<PartitionPlace> partitionOf(const ir::Operation *op);
/// Every op of the module in program order.
std::vector<const ir::Operation *> allOps(const ir::Module &m);

// ---- paths ------------------------------------------------------------------

/// What a walk does after visiting an op on one path.
enum class Walk { Continue, Stop };

/// Visits the ops that can run just before `from` (backward) or just after
/// it (forward) on every path through `scf.for`/`scf.while` (with their back
/// edges), `scf.if` and the default region of `ttg.warp_specialize`, each
/// position once. A path ends where `visit` says Stop, at the start (end) of
/// the function, or at the start (end) of a partition region; forward walks
/// call `visit(nullptr)` where a path leaves the function or partition.
/// Returns false when the walk was cut short by its step budget.
bool walkBackward(const ir::Operation *from, llvm::function_ref<Walk(const ir::Operation *)> visit);
bool walkForward(const ir::Operation *from, llvm::function_ref<Walk(const ir::Operation *)> visit);

// ---- the rule families, one file each -------------------------------------

void checkProxyFence(LintContext &ctx);     // ProxyFence.cpp
void checkBarriers(LintContext &ctx);       // Barriers.cpp
void checkTmaStoreWait(LintContext &ctx);   // TmaStore.cpp
void checkLayoutCost(LintContext &ctx);     // LayoutCost.cpp
void checkNanRows(LintContext &ctx);        // NanRows.cpp
void checkTmaAlignment(LintContext &ctx);   // TmaAlignment.cpp
void checkTarget(LintContext &ctx);         // TargetOps.cpp
void checkRegisterBudget(LintContext &ctx); // RegisterBudget.cpp

} // namespace tilexform::lint
