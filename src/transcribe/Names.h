// Which of the dump's names name their values. Triton's front end gives
// every op of an assignment the assigned name (a NameLoc): the value the
// statement assigns, and every sub-expression computed on the way
// (`m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)` names the splat of
// `qk_scale` `m_ij` too). Passes then copy locations to the ops they make:
// the software pipeliner gives its predicates, stage counters and barrier
// waits the location of the loop, which names the loop's carried values
// (`acc`, `l_i`, `m_i`). The readable style takes a value's name from the
// source only where the name is the value's own; the others are named by
// their role or neutrally (Emitter::sourceName).
#pragma once

#include "tilexform/ir/Module.h"

#include <set>
#include <string>

namespace tilexform::transcribe {

class NamePlan {
public:
  explicit NamePlan(const ir::Module &m);

  /// Whether the name of `v`'s defining op (its NameLoc) is the source's
  /// name of `v` itself: the op is not one whose location a pass copied
  /// from a loop, and it is the statement's result, not a sub-expression
  /// another op of the same statement reads.
  bool namesItsValue(const ir::Value *v) const;
  /// A name no NameLoc of the dump has, for values with neither a name of
  /// their own nor a role.
  const std::string &neutral() const { return neutral_; }

private:
  std::set<const ir::Operation *> borrowed_, subExpressions_;
  std::string neutral_ = "tmp";
};

} // namespace tilexform::transcribe
