// Why two compilations of one kernel give different machine code, read from
// their TTGIR: the ops each compiler kept, counted by name, and the
// differences tilexform knows the reason of. audit --diff names them when
// it is given both dumps (plain's and the anchor's own).
#pragma once

#include "tilexform/ir/Module.h"

#include <optional>
#include <string>
#include <vector>

namespace tilexform::analysis {

struct OpCountDelta {
  std::string op; // "ttg.memdesc_index"
  int a = 0, b = 0;
};

/// A difference of the two TTGIRs whose reason is known.
enum class CompiledDifference {
  /// Plain indexes single-slot buffers (depth 1) at a loop-carried ring
  /// index that its pipeliner added after its folding passes ran; the
  /// anchor's compiler, given those ops from the start, proves the index is
  /// always 0 and folds it with its arithmetic. The same work, less of it.
  SingleSlotRingFolded,
  /// AMD's in-thread transpose: plain's pass wrote amdg.in_thread_transpose,
  /// which the anchor states as a convert_layout to the same #linear layout
  /// (Gluon has no builtin for it); both are register moves, lowered apart.
  InThreadTransposeAsConvert,
  /// AMD's block ping-pong schedule: plain's pass wrote its hints
  /// (rocdl.s.setprio, rocdl.sched.barrier), which Gluon 3.6 cannot state
  /// (transcribe lists them as not carried); the same work in another order.
  ScheduleHintsNotCarried,
  /// The anchor converts between two spellings of one layout (a transpose
  /// into a dot operand: plain's tt.trans gives the operand layout itself,
  /// Gluon's permute a #linear one, then convert_layout(assert_trivial));
  /// the same linear layout on both sides, so no data moves.
  TrivialConvert,
  /// An early return (`if c: return`): the anchor's compiler keeps the
  /// `if`'s empty fall-through block, a lone cf.br to the block after it
  /// (its only predecessor), which plain's TTIR canonicalizer merges; LLVM
  /// merges it too: the same instructions, allocated and scheduled apart.
  FallThroughBlockKept,
};

/// The JSON name of a known difference (`single_slot_ring_folded`).
const char *compiledDifferenceName(CompiledDifference k);

struct CompiledOpsComparison {
  /// Ops whose counts differ (constants left out: each compiler places and
  /// dedupes them its own way).
  std::vector<OpCountDelta> deltas;
  std::vector<CompiledDifference> known;
  bool same() const { return deltas.empty(); }
  /// One line naming the known differences first, then every count that
  /// differs: "the anchor's compiler folded ...; ops: ttg.memdesc_index 4 -> 2, ...".
  std::string summary() const;
};

CompiledOpsComparison compareCompiledOps(const ir::Module &plain, const ir::Module &anchor);

} // namespace tilexform::analysis
