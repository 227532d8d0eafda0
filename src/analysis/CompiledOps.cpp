#include "tilexform/analysis/CompiledOps.h"
#include "tilexform/ir/Dialects.h"
#include "tilexform/layout/Encoding.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <map>

namespace tilexform::analysis {

namespace {

std::map<std::string, int> opCounts(const ir::Module &m) {
  std::map<std::string, int> n;
  m.walk([&](const ir::Operation *op) {
    if (op->name != "arith.constant" && !op->isFunction() && op->name != "builtin.module")
      ++n[op->name];
  });
  return n;
}

/// memdesc_index ops inside a loop whose buffer has one slot and whose
/// index is not a constant: a ring of depth 1.
int singleSlotRingIndices(const ir::Module &m) {
  int n = 0;
  m.walk([&](const ir::Operation *op) {
    if (op->name != "ttg.memdesc_index" || op->loopDepth() == 0 || op->operands.size() < 2)
      return;
    const ir::Value *buf = op->operands[0], *index = op->operands[1];
    if (index->definingOp && index->definingOp->name == "arith.constant")
      return;
    auto t = mlir::dyn_cast_or_null<ir::TritonType>(buf->type);
    if (!t || t.kind() != ir::TritonTypeKind::MemDesc)
      return;
    const auto &info = t.info();
    const auto &dims = info.allocShape.empty() ? info.shape : info.allocShape;
    if (!dims.empty() && dims.front() == 1)
      ++n;
  });
  return n;
}

/// convert_layout ops between two spellings of one linear layout.
int trivialConverts(const ir::Module &m) {
  int n = 0;
  m.walk([&](const ir::Operation *op) {
    if (op->name != "ttg.convert_layout" || op->operands.empty() || op->results.empty())
      return;
    mlir::Type from = op->operands[0]->type, to = op->results[0]->type;
    auto a = ir::encodingOf(from), b = ir::encodingOf(to);
    auto shape = ir::layoutShapeOf(to);
    if (a && b && !shape.empty() && shape == ir::layoutShapeOf(from) &&
        layout::equivalentAt(*a, *b, shape))
      ++n;
  });
  return n;
}

/// cf.br ops alone in their block whose destination has no other
/// predecessor: fall-through blocks a block merge would remove.
int fallThroughBranches(const ir::Module &m) {
  int n = 0;
  m.walk([&](const ir::Operation *op) {
    if (op->name != "cf.br" || op->successors.size() != 1 || !op->parentBlock ||
        op->parentBlock->ops.size() != 1 || !op->parentBlock->parent)
      return;
    const std::string &dest = op->successors[0];
    int predecessors = 0;
    for (const auto &block : op->parentBlock->parent->blocks)
      for (const auto &other : block->ops)
        predecessors += int(std::count(other->successors.begin(), other->successors.end(), dest));
    if (predecessors == 1)
      ++n;
  });
  return n;
}

/// The hints AMD's block ping-pong pass writes into plain's TTGIR.
constexpr const char *kScheduleHints[] = {"rocdl.s.setprio", "rocdl.sched.barrier"};

int countOf(const std::map<std::string, int> &m, const char *op) {
  auto it = m.find(op);
  return it == m.end() ? 0 : it->second;
}

} // namespace

CompiledOpsComparison compareCompiledOps(const ir::Module &plain, const ir::Module &anchor) {
  CompiledOpsComparison c;
  auto a = opCounts(plain), b = opCounts(anchor);
  std::map<std::string, std::pair<int, int>> all;
  for (auto &[k, v] : a)
    all[k].first = v;
  for (auto &[k, v] : b)
    all[k].second = v;
  for (auto &[k, v] : all)
    if (v.first != v.second)
      c.deltas.push_back({k, v.first, v.second});
  int rings = singleSlotRingIndices(plain);
  int fewerIndices = countOf(a, "ttg.memdesc_index") - countOf(b, "ttg.memdesc_index");
  if (rings > 0 && fewerIndices > 0 && fewerIndices <= rings &&
      singleSlotRingIndices(anchor) < rings)
    c.known.push_back(CompiledDifference::SingleSlotRingFolded);
  int transposes = countOf(a, "amdg.in_thread_transpose");
  if (transposes > 0 && countOf(b, "amdg.in_thread_transpose") == 0 &&
      countOf(b, "ttg.convert_layout") - countOf(a, "ttg.convert_layout") >= transposes)
    c.known.push_back(CompiledDifference::InThreadTransposeAsConvert);
  // Converts the anchor adds beyond those that state plain's in-thread
  // transposes (only the transposes the anchor does not keep).
  int statedTransposes = std::max(0, transposes - countOf(b, "amdg.in_thread_transpose"));
  int moreConverts =
      countOf(b, "ttg.convert_layout") - countOf(a, "ttg.convert_layout") - statedTransposes;
  if (moreConverts > 0 && trivialConverts(anchor) - trivialConverts(plain) >= moreConverts)
    c.known.push_back(CompiledDifference::TrivialConvert);
  int moreBranches = countOf(b, "cf.br") - countOf(a, "cf.br");
  if (moreBranches > 0 && fallThroughBranches(anchor) - fallThroughBranches(plain) >= moreBranches)
    c.known.push_back(CompiledDifference::FallThroughBlockKept);
  int hints = 0, anchorHints = 0;
  for (const char *h : kScheduleHints) {
    hints += countOf(a, h);
    anchorHints += countOf(b, h);
  }
  if (hints > anchorHints)
    c.known.push_back(CompiledDifference::ScheduleHintsNotCarried);
  return c;
}

const char *compiledDifferenceName(CompiledDifference k) {
  switch (k) {
  case CompiledDifference::SingleSlotRingFolded:
    return "single_slot_ring_folded";
  case CompiledDifference::InThreadTransposeAsConvert:
    return "in_thread_transpose_as_convert";
  case CompiledDifference::ScheduleHintsNotCarried:
    return "schedule_hints_not_carried";
  case CompiledDifference::TrivialConvert:
    return "trivial_convert";
  case CompiledDifference::FallThroughBlockKept:
    return "fall_through_block_kept";
  }
  return "";
}

std::string CompiledOpsComparison::summary() const {
  std::vector<std::string> parts;
  for (CompiledDifference k : known)
    switch (k) {
    case CompiledDifference::SingleSlotRingFolded:
      parts.push_back("the anchor's compiler folded plain's single-slot rings (buffers of depth 1 "
                      "indexed at a loop-carried index that plain's pipeliner adds after its "
                      "folding passes; the index is always 0): the same work, less index "
                      "arithmetic");
      break;
    case CompiledDifference::InThreadTransposeAsConvert:
      parts.push_back("plain's amdg.in_thread_transpose is a convert_layout to the same layout in "
                      "the anchor (no Gluon builtin); both are register moves, lowered apart");
      break;
    case CompiledDifference::ScheduleHintsNotCarried:
      parts.push_back("plain's ping-pong schedule hints (rocdl.s.setprio, rocdl.sched.barrier) "
                      "are not in the anchor (Gluon cannot state them): the same work in another "
                      "order");
      break;
    case CompiledDifference::TrivialConvert:
      parts.push_back("the anchor's extra convert_layout ops are between two spellings of one "
                      "layout (a transposed dot operand: Gluon's permute gives a #linear layout, "
                      "plain's trans the operand layout itself): no data moves");
      break;
    case CompiledDifference::FallThroughBlockKept:
      parts.push_back("after an early return the anchor's compiler keeps the if's empty "
                      "fall-through block (a lone cf.br to the block after it), which plain's "
                      "canonicalizer merges and LLVM merges too: the same instructions, "
                      "allocated and scheduled apart");
      break;
    }
  std::vector<std::string> counts;
  for (auto &d : deltas)
    counts.push_back(fmt::format("{} {} -> {}", d.op, d.a, d.b));
  if (!counts.empty())
    parts.push_back("TTGIR ops " + llvm::join(counts, ", "));
  return llvm::join(parts, "; ");
}

} // namespace tilexform::analysis
