// Which ops the readable anchor writes inside another op's expression
// instead of as a statement of their own, decided once per function before
// anything is written. A fold changes only the spelling: the anchor's
// compiler still sees every op of the faithful anchor, with its type and
// layout, in the same order.
#pragma once

#include "tilexform/ir/Module.h"

#include <map>
#include <vector>

namespace tilexform::transcribe {

enum class FoldKind {
  /// A pure op whose one use is the next op of its block that reads it:
  /// written inside that op's expression.
  Expression,
  /// A tt.splat or tt.broadcast that Gluon's implicit broadcasting at its
  /// one use creates with the same type and layout: written as its operand.
  Broadcast,
  /// A splat constant every use of which Gluon's broadcasting of a Python
  /// number gives the same constant: written as the number.
  Literal,
};

struct FoldPlan {
  std::map<const ir::Operation *, FoldKind> folds;
  const FoldKind *kindOf(const ir::Operation *op) const {
    auto it = folds.find(op);
    return it == folds.end() ? nullptr : &it->second;
  }
};

/// The folds of `function`'s body (its nested regions included).
FoldPlan planFolds(const ir::Operation &function);

/// The ops Python makes, in order, when it evaluates `v` as the readable
/// anchor spells it: the ops folded into its spelling, its own op last
/// (none for a value written by its name or as a number).
std::vector<const ir::Operation *> expressionOps(const FoldPlan &plan, const ir::Value *v);

} // namespace tilexform::transcribe
