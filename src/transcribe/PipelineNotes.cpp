// Readable: one-line comments on plain's software pipeline as the anchor
// carries it — each ring of buffers (its depth, what it stages, how it is
// filled) and the three parts around the hot loop (prologue, steady state,
// epilogue). Comments only: nothing here changes a statement.
#include "Emitter.h"

#include "tilexform/analysis/Pipeline.h"
#include "tilexform/ir/Dialects.h"
#include "tilexform/support/PythonText.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

#include <functional>
#include <set>

namespace tilexform::transcribe {

using ir::Operation;
using ir::Value;

const Value *copyDestination(const Operation &op) {
  for (const char *seg : {"result", "dst", "dest"})
    if (const Value *v = op.operand(seg))
      return v;
  return nullptr;
}

bool holdsBarriers(const Value *alloc) {
  for (auto &[u, _] : alloc->uses) {
    if (u->name == "ttng.init_barrier")
      return true;
    if (u->name == "ttg.memdesc_index" && !u->results.empty())
      for (auto &[w, __] : u->results[0]->uses)
        if (w->name == "ttng.init_barrier")
          return true;
  }
  return false;
}

namespace {

bool isCopyIn(const Operation &op) {
  return op.name == "ttg.async_copy_global_to_local" ||
         op.name == "ttng.async_tma_copy_global_to_local" || op.name == "amdg.buffer_load_to_local";
}

/// How a ring's buffers are filled, from the users of the views its
/// memdesc_index ops take.
std::string filledBy(const Value *ring) {
  if (holdsBarriers(ring))
    return "barriers";
  std::set<std::string> how;
  for (auto &[user, _] : ring->uses) {
    if (user->name != "ttg.memdesc_index" || user->results.empty())
      continue;
    const Value *view = user->results[0];
    for (auto &[u, __] : view->uses) {
      // The view as the copy's destination (a TMA copy also names a barrier).
      if (copyDestination(*u) != view)
        continue;
      if (u->name == "ttg.async_copy_global_to_local" || u->name == "amdg.buffer_load_to_local")
        how.insert("async copies");
      else if (u->name == "ttng.async_tma_copy_global_to_local")
        how.insert("TMA copies");
      else if (u->name == "ttg.local_store")
        how.insert("stores from registers");
    }
  }
  return llvm::join(how, " and ");
}

} // namespace

void Emitter::planPipelineNotes(const Operation &fn, const analysis::LoopPipeline &p) {
  // The rings: buffers with a leading stage dimension that plain indexes.
  std::set<const Operation *> barrierRings;
  ir::Module::walkFrom(fn, [&](const Operation *o) {
    const Operation &op = *o;
    if (op.name == "ttg.local_alloc" && !op.results.empty() && !op.operand("src")) {
      const Value *v = op.results[0];
      bool indexed = std::any_of(v->uses.begin(), v->uses.end(),
                                 [](auto &u) { return u.first->name == "ttg.memdesc_index"; });
      auto tt = mlir::dyn_cast_or_null<ir::TritonType>(v->type);
      if (indexed && tt) {
        auto info = tt.info();
        const auto &dims = info.allocShape.empty() ? info.shape : info.allocShape;
        if (!dims.empty()) {
          std::string how = filledBy(v);
          std::vector<int64_t> one(dims.begin() + 1, dims.end());
          bool barriers = how == "barriers";
          if (barriers)
            barrierRings.insert(&op);
          notes_[&op] =
              barriers
                  ? fmt::format("a ring of {} barrier{}, one per stage", dims[0],
                                dims[0] == 1 ? "" : "s")
                  : fmt::format(
                        "a ring of {} buffer{} of {} {}, one per stage{}", dims[0],
                        dims[0] == 1 ? "" : "s",
                        llvm::join(
                            llvm::map_range(one, [](int64_t d) { return std::to_string(d); }), "x"),
                        llvm::StringRef(dtypeOf(v->type, op.pos.line)).drop_front(3).str(),
                        how.empty() ? "" : ", filled by " + how);
        }
      }
    }
  });

  // The parts around the hot loop, where plain pipelined it.
  if (!p.found || !p.pipelined())
    return;
  const Operation *loop = nullptr;
  ir::Module::walkFrom(fn, [&](const Operation *op) {
    if (!loop && op->isLoop() && op->pos.line == p.line)
      loop = op;
  });
  if (!loop || !loop->parentBlock)
    return;
  const ir::Block &b = *loop->parentBlock;
  size_t at = 0;
  while (at < b.ops.size() && b.ops[at].get() != loop)
    ++at;
  std::string depth = p.buffers ? fmt::format("{}-stage ", *p.buffers) : "";
  // The prologue starts at the first copy into a ring before the loop.
  auto stagesInto = [&](const Operation &op) {
    if (isCopyIn(op))
      return true;
    const Value *src = op.name == "ttg.memdesc_index" ? op.operand("src") : nullptr;
    return src && src->definingOp && notes_.count(src->definingOp) &&
           !barrierRings.count(src->definingOp);
  };
  for (size_t i = 0; i < at; ++i)
    if (stagesInto(*b.ops[i])) {
      phases_[b.ops[i].get()] =
          fmt::format("prologue: the copies of the first stages, issued before the loop");
      break;
    }
  phases_[loop] = fmt::format("steady state: plain's {}pipelined loop; each iteration waits for "
                              "the oldest stage, computes on it and issues the copies of a later "
                              "one",
                              depth);
  for (size_t i = at + 1; i < b.ops.size(); ++i) {
    const std::string &n = b.ops[i]->name;
    if (n == "tt.return" || n == "scf.yield")
      break;
    phases_[b.ops[i].get()] = "epilogue: after the loop, what is still in flight waited for";
    break;
  }
}

void Emitter::pipelineNote(const Operation &op) {
  if (folding_ || inner_)
    return;
  auto write = [&](const std::string &text) {
    body_ += std::string(size_t(indent_) * 4, ' ') + "# " + pyCommentText(text) + "\n";
  };
  if (auto it = phases_.find(&op); it != phases_.end())
    write(it->second);
  if (auto it = notes_.find(&op); it != notes_.end())
    write(it->second);
}

} // namespace tilexform::transcribe
