// Which ops the readable anchor writes inside another op's expression
// instead of as a statement of their own, decided once per function before
// anything is written. A fold changes only the spelling: the anchor's
// compiler still sees every op of the faithful anchor, with its type and
// layout, in the same order.
#pragma once

#include "tilexform/ir/Module.h"

#include <cstddef>
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

/// How many levels of folded ops one expression of the readable anchor
/// holds at most: an op whose expression would be deeper is written as a
/// statement of its own. Kernels' expressions are at most 8 levels deep;
/// the bound keeps a dump's long chains of ops within what Python takes
/// (about 200 levels of parentheses, and a syntax tree as deep as the
/// compiler's recursion allows) and what the check of every module written
/// takes (about 75 levels of parentheses), each level of ops adding at most
/// three.
constexpr size_t kMaxExpressionDepth = 16;

/// How many ops one expression writes at most where every value is written
/// in full wherever it is read (a while loop's condition).
constexpr size_t kMaxExpressionOps = 256;

/// Whether `ops`, each written inside the ops that read it (a while loop's
/// condition, one expression), make an expression Python takes: at most
/// kMaxExpressionDepth levels deep and kMaxExpressionOps ops written (a
/// value read twice is written twice, so its text can double with every op).
bool fitsOneExpression(const std::vector<const ir::Operation *> &ops);

/// The folds of `function`'s body (its nested regions included).
FoldPlan planFolds(const ir::Operation &function);

/// The ops Python makes, in order, when it evaluates `v` as the readable
/// anchor spells it: the ops folded into its spelling, its own op last
/// (none for a value written by its name or as a number).
std::vector<const ir::Operation *> expressionOps(const FoldPlan &plan, const ir::Value *v);

} // namespace tilexform::transcribe
