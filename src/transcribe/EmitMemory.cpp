// Global and shared memory: loads, stores, shared buffers, atomics and async copies, spelled in
// Gluon.
#include "Emitter.h"
#include "OpText.h"

#include "tilexform/ir/Dialects.h"
#include "tilexform/support/PythonText.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <mlir/IR/BuiltinTypes.h>

#include <map>

namespace tilexform::transcribe {

using ir::Operation;
using ir::Value;

namespace {

/// `, mask=m` for a mask operand: none for a constant true mask (Gluon's
/// atomics take no Python bool, and spell an absent mask as true).
std::string maskArgument(Emitter &e, const Value *mask) {
  if (!mask)
    return "";
  std::string m = e.expr(mask);
  if (m == "True")
    return "";
  if (m == "False")
    return ", mask=gl.to_tensor(False)";
  return ", mask=" + m;
}

/// `, cache_modifier=".ca", eviction_policy="evict_first"` for a global
/// load's or store's cache and eviction attributes; nothing for the defaults.
std::string cacheArguments(const Operation &op) {
  std::string out;
  if (std::string c = cacheModifierOf(op); !c.empty())
    out += fmt::format(", cache_modifier={}", pyStringLiteral(c));
  if (std::string e = evictionPolicyOf(op); !e.empty())
    out += fmt::format(", eviction_policy={}", pyStringLiteral(e));
  return out;
}

/// `, sem="acq_rel", scope="gpu"`: an atomic's memory order, as written.
std::string memoryOrderArguments(const Operation &op) {
  std::string out;
  if (std::string sem = op.enumAttr("sem"); !sem.empty())
    out += fmt::format(", sem={}", pyStringLiteral(sem));
  if (std::string scope = op.enumAttr("scope"); !scope.empty())
    out += fmt::format(", scope={}", pyStringLiteral(scope));
  return out;
}

const Spelling kMemorySpellings[] = {
    {"tt.load",
     [](Emitter &e, const Operation &op) {
       std::string args = e.expr(op.operand("ptr"));
       if (auto *mask = op.operand("mask"))
         args += ", mask=" + e.expr(mask);
       if (auto *other = op.operand("other"))
         args += ", other=" + e.expr(other);
       args += cacheArguments(op);
       if (auto v = op.attr("isVolatile"); v && ir::attrText(v) != "false")
         args += ", volatile=True";
       e.statement(op, "gl.load(" + args + ")");
     }},
    {"tt.store",
     [](Emitter &e, const Operation &op) {
       std::string args = e.expr(op.operand("ptr")) + ", " + e.expr(op.operand("value"));
       if (auto *mask = op.operand("mask"))
         args += ", mask=" + e.expr(mask);
       args += cacheArguments(op);
       e.statement(op, "gl.store(" + args + ")");
     }},
    {"ttg.local_alloc",
     [](Emitter &e, const Operation &op) {
       mlir::Type t = op.results[0]->type;
       auto tt = mlir::dyn_cast_or_null<ir::TritonType>(t);
       if (!tt)
         return e.gap("op", op.name, op.pos.line, "an allocation whose type is not a memdesc");
       auto info = tt.info();
       const auto &dims = info.allocShape.empty() ? info.shape : info.allocShape;
       std::string value = op.operand("src") ? ", " + e.expr(op.operand("src")) : "";
       e.statement(op,
                   fmt::format("gl.allocate_shared_memory({}, {}, {}{})", e.dtypeOf(t, op.pos.line),
                               listText(dims), e.layoutOf(t, op.pos.line), value));
     }},
    {"ttg.local_load",
     [](Emitter &e, const Operation &op) {
       e.statement(op, fmt::format("{}.load({})", e.receiver(op.operand("src")),
                                   e.layoutOf(op.results[0]->type, op.pos.line)));
     }},
    {"ttg.local_store",
     [](Emitter &e, const Operation &op) {
       e.statement(op, fmt::format("{}.store({})", e.receiver(op.operand("dst")),
                                   e.expr(op.operand("src"))));
     }},
    {"ttg.memdesc_index",
     [](Emitter &e, const Operation &op) {
       e.statement(op, fmt::format("{}.index({})", e.receiver(op.operand("src")),
                                   e.expr(op.operand("index"))));
     }},
    {"ttg.memdesc_trans",
     [](Emitter &e, const Operation &op) {
       std::string order = orderList(op.attr("order"));
       e.statement(op, fmt::format("{}.permute({})", e.receiver(op.operands[0]), order));
     }},
    // Plain's explicit end of a buffer's life: Gluon's `_keep_alive()` is
    // the one spelling of `ttg.local_dealloc`. Left out, the buffer would
    // live only to its last use, and the allocator could then give its bytes
    // to a later buffer plain kept apart (other offsets, other code).
    {"ttg.local_dealloc",
     [](Emitter &e, const Operation &op) {
       e.statement(op, e.receiver(op.operands[0]) + "._keep_alive()");
     }},
    {"ttg.async_copy_global_to_local",
     [](Emitter &e, const Operation &op) {
       std::string args = e.expr(op.operand("result")) + ", " + e.expr(op.operand("src"));
       if (auto *mask = op.operand("mask"))
         args += ", mask=" + e.expr(mask);
       if (e.amd()) {
         // AMD's direct-to-LDS load takes the fill value.
         e.need("amd_async_copy");
         if (auto *other = op.operand("other"))
           args += ", other=" + e.expr(other);
         e.line(fmt::format("async_copy.global_load_to_shared({})  # line {}", args, op.pos.line));
         for (auto *r : op.results)
           e.bind(r, "None");
         return;
       }
       e.need("async_copy");
       // A masked-off cp.async writes zeros, so `other = 0` needs no
       // spelling; another fill value has none in Gluon's async copy.
       if (const Value *other = op.operand("other")) {
         const Operation *def = other->definingOp;
         auto lit = def && def->name == "arith.constant" ? constantValue(*def) : std::nullopt;
         bool zero = lit && (lit->text == "0.0" || lit->text == "0" || lit->text == "False");
         if (!zero)
           e.gap("op", op.name + " with other", op.pos.line,
                 "Gluon's async copy fills masked-off elements with zeros only");
       }
       e.line(
           fmt::format("async_copy.async_copy_global_to_shared({})  # line {}", args, op.pos.line));
       for (auto *r : op.results)
         e.bind(r, "None");
     }},
    {"ttg.async_commit_group",
     [](Emitter &e, const Operation &op) {
       e.need(e.amd() ? "amd_async_copy" : "async_copy");
       e.line(fmt::format("async_copy.commit_group()  # line {}", op.pos.line));
       for (auto *r : op.results)
         e.bind(r, "None");
     }},
    {"ttg.async_wait",
     [](Emitter &e, const Operation &op) {
       e.need(e.amd() ? "amd_async_copy" : "async_copy");
       e.line(fmt::format("async_copy.wait_group({})  # line {}", op.intAttr("num").value_or(0),
                          op.pos.line));
       for (auto *r : op.results)
         e.bind(r, "None");
     }},
    {"tt.atomic_rmw",
     [](Emitter &e, const Operation &op) {
       std::string kind = op.enumAttr("atomic_rmw_op");
       static const std::map<std::string, std::string> fns = {
           {"add", "gl.atomic_add"}, {"fadd", "gl.atomic_add"},  {"max", "gl.atomic_max"},
           {"min", "gl.atomic_min"}, {"and", "gl.atomic_and"},   {"or", "gl.atomic_or"},
           {"xor", "gl.atomic_xor"}, {"exch", "gl.atomic_xchg"}, {"umax", "gl.atomic_max"},
           {"umin", "gl.atomic_min"}};
       auto fn = fns.find(kind);
       if (fn == fns.end())
         return e.gap("op", op.name + " " + kind, op.pos.line,
                      "an atomic Gluon's atomics do not spell");
       const Value *ptr = op.operand("ptr"), *val = op.operand("val");
       if (!ptr || !val)
         return e.gap("op", op.name, op.pos.line, "an atomic without its pointer or value");
       bool isUnsigned = kind == "umax" || kind == "umin";
       std::string u = Emitter::unsignedDtype(val->type);
       if (isUnsigned && u.empty())
         return e.gap("op", op.name + " " + kind, op.pos.line,
                      "an unsigned atomic of a non-integer");
       // The unsigned atomics take the unsigned view of the pointer and the value.
       std::string args = isUnsigned ? fmt::format("{}.to(gl.pointer_type({}), bitcast=True), {}",
                                                   e.receiver(ptr), u, e.unsignedOperand(val))
                                     : e.expr(ptr) + ", " + e.expr(val);
       args += maskArgument(e, op.operand("mask"));
       args += memoryOrderArguments(op);
       std::string call = fn->second + "(" + args + ")";
       e.statement(op, isUnsigned && !op.results.empty() ? e.signedResult(call, op.results[0]->type)
                                                         : call);
     }},
    {"tt.atomic_cas",
     [](Emitter &e, const Operation &op) {
       std::string args = e.expr(op.operand("ptr")) + ", " + e.expr(op.operand("cmp")) + ", " +
                          e.expr(op.operand("val")) + memoryOrderArguments(op);
       e.statement(op, "gl.atomic_cas(" + args + ")");
     }},
    {"gpu.barrier",
     [](Emitter &e, const Operation &op) {
       e.line(fmt::format("gl.thread_barrier()  # line {}", op.pos.line));
     }},
    {"ttg.memdesc_subslice",
     [](Emitter &e, const Operation &op) {
       // Constant offsets per dimension; each dimension the slice narrows is
       // one `.slice(start, length, dim)` of the descriptor.
       const Value *src = op.operand("src");
       std::vector<int64_t> offsets = op.intsAttr("offsets");
       std::vector<int64_t> from = src ? shapeOf(src->type) : std::vector<int64_t>{};
       std::vector<int64_t> to = shapeOf(op.results[0]->type);
       if (!src || offsets.size() != from.size() || from.size() != to.size())
         return e.gap("op", op.name, op.pos.line,
                      "a subslice whose offsets and shapes do not pair");
       std::string x = e.expr(src);
       for (size_t d = 0; d < to.size(); ++d)
         if (to[d] != from[d] || offsets[d] != 0)
           x += fmt::format(".slice({}, {}, dim={})", offsets[d], to[d], d);
       e.statement(op, x);
     }},
};

} // namespace

void addMemoryEmitters(EmitterTable &t) { addSpellings(t, kMemorySpellings); }

} // namespace tilexform::transcribe
