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

/// `mask=m` for a mask operand: none for a constant true mask (Gluon's
/// atomics take no Python bool, and spell an absent mask as true).
void maskArgument(Emitter &e, const Value *mask, std::vector<py::Keyword> &kw) {
  if (!mask)
    return;
  py::Expr m = e.expr(mask);
  std::string text = py::print(m);
  if (text == "True")
    return;
  kw.push_back({"mask", text == "False" ? py::call("gl.to_tensor", {py::boolean(false)}) : m});
}

/// `cache_modifier=".ca", eviction_policy="evict_first"` for a global
/// load's or store's cache and eviction attributes; nothing for the defaults.
void cacheArguments(const Operation &op, std::vector<py::Keyword> &kw) {
  if (std::string c = cacheModifierOf(op); !c.empty())
    kw.push_back({"cache_modifier", py::string(c)});
  if (std::string e = evictionPolicyOf(op); !e.empty())
    kw.push_back({"eviction_policy", py::string(e)});
}

/// `sem="acq_rel", scope="gpu"`: an atomic's memory order, as written.
void memoryOrderArguments(const Operation &op, std::vector<py::Keyword> &kw) {
  if (std::string sem = op.enumAttr("sem"); !sem.empty())
    kw.push_back({"sem", py::string(sem)});
  if (std::string scope = op.enumAttr("scope"); !scope.empty())
    kw.push_back({"scope", py::string(scope)});
}

/// A `name=value` keyword for each of the optional operands
/// `names` of `op`, in order.
void operandKeywords(Emitter &e, const Operation &op, std::initializer_list<const char *> names,
                     std::vector<py::Keyword> &kw) {
  for (const char *n : names)
    if (auto *v = op.operand(n))
      kw.push_back({n, e.expr(v)});
}

const Spelling kMemorySpellings[] = {
    {"tt.load",
     [](Emitter &e, const Operation &op) {
       std::vector<py::Keyword> kw;
       operandKeywords(e, op, {"mask", "other"}, kw);
       cacheArguments(op, kw);
       if (auto v = op.attr("isVolatile"); v && ir::attrText(v) != "false")
         kw.push_back({"volatile", py::boolean(true)});
       e.statement(op, py::call("gl.load", {e.expr(op.operand("ptr"))}, std::move(kw)));
     }},
    {"tt.store",
     [](Emitter &e, const Operation &op) {
       std::vector<py::Keyword> kw;
       operandKeywords(e, op, {"mask"}, kw);
       cacheArguments(op, kw);
       e.statement(op,
                   py::call("gl.store", {e.expr(op.operand("ptr")), e.expr(op.operand("value"))},
                            std::move(kw)));
     }},
    {"ttg.local_alloc",
     [](Emitter &e, const Operation &op) {
       mlir::Type t = op.results[0]->type;
       auto tt = mlir::dyn_cast_or_null<ir::TritonType>(t);
       if (!tt)
         return e.gap("op", op.name, op.pos.line, "an allocation whose type is not a memdesc");
       auto info = tt.info();
       const auto &dims = info.allocShape.empty() ? info.shape : info.allocShape;
       std::vector<py::Expr> args = {e.dtype(t, op.pos.line), py::intList(dims),
                                     e.layout(t, op.pos.line)};
       if (op.operand("src"))
         args.push_back(e.expr(op.operand("src")));
       e.statement(op, py::call("gl.allocate_shared_memory", std::move(args)));
     }},
    {"ttg.local_load",
     [](Emitter &e, const Operation &op) {
       e.statement(op, py::method(e.expr(op.operand("src")), "load",
                                  {e.layout(op.results[0]->type, op.pos.line)}));
     }},
    {"ttg.local_store",
     [](Emitter &e, const Operation &op) {
       e.statement(op, py::method(e.expr(op.operand("dst")), "store", {e.expr(op.operand("src"))}));
     }},
    {"ttg.memdesc_index",
     [](Emitter &e, const Operation &op) {
       e.statement(op,
                   py::method(e.expr(op.operand("src")), "index", {e.expr(op.operand("index"))}));
     }},
    {"ttg.memdesc_trans",
     [](Emitter &e, const Operation &op) {
       e.statement(op, py::method(e.expr(op.operands[0]), "permute",
                                  {py::name(orderList(op.attr("order")))}));
     }},
    // Plain's explicit end of a buffer's life: Gluon's `_keep_alive()` is
    // the one spelling of `ttg.local_dealloc`. Left out, the buffer would
    // live only to its last use, and the allocator could then give its bytes
    // to a later buffer plain kept apart (other offsets, other code).
    {"ttg.local_dealloc",
     [](Emitter &e, const Operation &op) {
       e.statement(op, py::method(e.expr(op.operands[0]), "_keep_alive"));
     }},
    {"ttg.async_copy_global_to_local",
     [](Emitter &e, const Operation &op) {
       std::vector<py::Expr> args = {e.expr(op.operand("result")), e.expr(op.operand("src"))};
       std::vector<py::Keyword> kw;
       operandKeywords(e, op, {"mask"}, kw);
       if (e.amd()) {
         // AMD's direct-to-LDS load takes the fill value.
         e.need("amd_async_copy");
         operandKeywords(e, op, {"other"}, kw);
         e.line(py::print(
                    py::call("async_copy.global_load_to_shared", std::move(args), std::move(kw))),
                op.pos.line);
         for (auto *r : op.results)
           e.bind(r, py::none());
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
       e.line(py::print(py::call("async_copy.async_copy_global_to_shared", std::move(args),
                                 std::move(kw))),
              op.pos.line);
       for (auto *r : op.results)
         e.bind(r, py::none());
     }},
    {"ttg.async_commit_group",
     [](Emitter &e, const Operation &op) {
       e.need(e.amd() ? "amd_async_copy" : "async_copy");
       e.line("async_copy.commit_group()", op.pos.line);
       for (auto *r : op.results)
         e.bind(r, py::none());
     }},
    {"ttg.async_wait",
     [](Emitter &e, const Operation &op) {
       e.need(e.amd() ? "amd_async_copy" : "async_copy");
       e.line(py::print(
                  py::call("async_copy.wait_group", {py::literal(op.intAttr("num").value_or(0))})),
              op.pos.line);
       for (auto *r : op.results)
         e.bind(r, py::none());
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
       std::vector<py::Expr> args;
       if (isUnsigned)
         args = {py::method(e.expr(ptr), "to", {py::call("gl.pointer_type", {py::name(u)})},
                            {{"bitcast", py::boolean(true)}}),
                 e.unsignedOperand(val)};
       else
         args = {e.expr(ptr), e.expr(val)};
       std::vector<py::Keyword> kw;
       maskArgument(e, op.operand("mask"), kw);
       memoryOrderArguments(op, kw);
       py::Expr call = py::call(fn->second, std::move(args), std::move(kw));
       e.statement(op, isUnsigned && !op.results.empty() ? e.signedResult(call, op.results[0]->type)
                                                         : call);
     }},
    {"tt.atomic_cas",
     [](Emitter &e, const Operation &op) {
       std::vector<py::Keyword> kw;
       memoryOrderArguments(op, kw);
       e.statement(op, py::call("gl.atomic_cas",
                                {e.expr(op.operand("ptr")), e.expr(op.operand("cmp")),
                                 e.expr(op.operand("val"))},
                                std::move(kw)));
     }},
    {"gpu.barrier",
     [](Emitter &e, const Operation &op) { e.line("gl.thread_barrier()", op.pos.line); }},
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
       py::Expr x = e.expr(src);
       for (size_t d = 0; d < to.size(); ++d)
         if (to[d] != from[d] || offsets[d] != 0)
           x = py::method(x, "slice", {py::literal(offsets[d]), py::literal(to[d])},
                          {{"dim", py::literal(static_cast<long long>(d))}});
       e.statement(op, x);
     }},
};

} // namespace

void addMemoryEmitters(EmitterTable &t) { addSpellings(t, kMemorySpellings); }

} // namespace tilexform::transcribe
