// NVIDIA-only ops: mbarriers, TMA copies and proxy fences, spelled in Gluon.
#include "Emitter.h"
#include "OpText.h"

#include "tilexform/ir/Dialects.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <mlir/IR/BuiltinTypes.h>

#include <map>

namespace tilexform::transcribe {

using ir::Operation;
using ir::Value;

namespace {

const Spelling kNvidiaSpellings[] = {
    {"ttng.fence_async_shared",
     [](Emitter &e, const Operation &op) {
       e.need("hopper");
       e.line(fmt::format("fence_async_shared()  # line {}", op.pos.line));
     }},
    {"ttng.init_barrier",
     [](Emitter &e, const Operation &op) {
       e.need("mbarrier");
       e.line(fmt::format("mbarrier.init({}, count={})  # line {}", e.expr(op.operand("alloc")),
                          op.intAttr("count").value_or(1), op.pos.line));
     }},
    {"ttng.inval_barrier",
     [](Emitter &e, const Operation &op) {
       e.need("mbarrier");
       e.line(fmt::format("mbarrier.invalidate({})  # line {}", e.expr(op.operand("alloc")),
                          op.pos.line));
     }},
    {"ttng.barrier_expect",
     [](Emitter &e, const Operation &op) {
       e.need("mbarrier");
       e.line(fmt::format("mbarrier.expect({}, {}, pred={})  # line {}",
                          e.expr(op.operand("alloc")), op.intAttr("size").value_or(0),
                          e.expr(op.operand("pred")), op.pos.line));
     }},
    {"ttng.wait_barrier",
     [](Emitter &e, const Operation &op) {
       e.need("mbarrier");
       std::string extra;
       if (auto *pred = op.operand("pred"))
         extra += ", pred=" + e.expr(pred);
       auto deps = op.operandGroup("deps");
       if (!deps.empty()) {
         std::vector<std::string> d;
         for (auto *v : deps)
           d.push_back(e.expr(v));
         extra += ", deps=[" + llvm::join(d, ", ") + "]";
       }
       e.line(fmt::format("mbarrier.wait({}, {}{})  # line {}", e.expr(op.operand("alloc")),
                          e.expr(op.operand("phase")), extra, op.pos.line));
     }},
    {"ttng.arrive_barrier",
     [](Emitter &e, const Operation &op) {
       e.need("mbarrier");
       std::string pred = op.operand("pred") ? ", pred=" + e.expr(op.operand("pred")) : "";
       e.line(fmt::format("mbarrier.arrive({}, count={}{})  # line {}", e.expr(op.operand("alloc")),
                          op.intAttr("count").value_or(1), pred, op.pos.line));
     }},
    {"ttng.async_tma_copy_global_to_local",
     [](Emitter &e, const Operation &op) {
       e.need("tma");
       std::vector<std::string> coord;
       for (auto *v : op.operandGroup("coord"))
         coord.push_back(e.expr(v));
       e.line(fmt::format("tma.async_copy_global_to_shared({}, [{}], {}, {}, pred={})  # line {}",
                          e.expr(op.operand("desc")), llvm::join(coord, ", "),
                          e.expr(op.operand("barrier")), e.expr(op.operand("result")),
                          e.expr(op.operand("pred")), op.pos.line));
     }},
    {"ttng.async_tma_copy_local_to_global",
     [](Emitter &e, const Operation &op) {
       e.need("tma");
       std::vector<std::string> coord;
       for (auto *v : op.operandGroup("coord"))
         coord.push_back(e.expr(v));
       e.line(fmt::format("tma.async_copy_shared_to_global({}, [{}], {})  # line {}",
                          e.expr(op.operand("desc")), llvm::join(coord, ", "),
                          e.expr(op.operand("src")), op.pos.line));
     }},
    {"ttng.async_tma_store_wait",
     [](Emitter &e, const Operation &op) {
       e.need("tma");
       e.line(fmt::format("tma.store_wait({})  # line {}", op.intAttr("pendings").value_or(0),
                          op.pos.line));
     }},
};

} // namespace

void addNvidiaEmitters(EmitterTable &t) { addSpellings(t, kNvidiaSpellings); }

} // namespace tilexform::transcribe
