// NVIDIA-only ops: mbarriers, TMA copies and proxy fences, spelled in Gluon.
#include "Emitter.h"
#include "OpText.h"

#include "tilexform/ir/Dialects.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <mlir/IR/BuiltinTypes.h>

#include <map>
#include <optional>
#include <set>

namespace tilexform::transcribe {

using ir::Operation;
using ir::Value;

namespace {

/// The tensormap_create of an in-kernel descriptor's scratch buffer, or
/// null when `alloc` is not one: a global_scratch_alloc whose uses are one
/// tensormap_create, fences and reinterpret_tensor_descriptor.
const Operation *descriptorScratch(const Operation &alloc) {
  if (alloc.name != "ttg.global_scratch_alloc" || alloc.results.size() != 1)
    return nullptr;
  const Operation *create = nullptr;
  bool read = false;
  for (auto &[user, _] : alloc.results[0]->uses) {
    if (user->name == "ttng.tensormap_create" && user->operand("desc_ptr") == alloc.results[0]) {
      if (create)
        return nullptr;
      create = user;
    } else if (user->name == "ttng.reinterpret_tensor_descriptor") {
      read = true;
    } else if (user->name != "ttng.tensormap_fenceproxy_acquire") {
      return nullptr;
    }
  }
  return read ? create : nullptr;
}

std::optional<int64_t> integerConstant(const Operation *c) {
  int64_t n = 0;
  auto lit = c && c->name == "arith.constant" ? constantValue(*c) : std::nullopt;
  if (!lit || lit->dense || llvm::StringRef(lit->text).getAsInteger(10, n))
    return std::nullopt;
  return n;
}

/// The bytes of the element a tensormap_create's global address points to;
/// 0 when the reader could not type it.
int64_t elementBytes(const Operation &create) {
  const Value *base = create.operand("global_address");
  auto tt = base ? mlir::dyn_cast_or_null<ir::TritonType>(base->type) : ir::TritonType();
  mlir::Type el = tt ? tt.info().elementType : mlir::Type();
  return el && el.isIntOrFloat() ? (el.getIntOrFloatBitWidth() + 7) / 8 : 0;
}

/// A tensormap's byte stride read back as the element stride it was made
/// from: `arith.muli %s, %c2_i64` (the element's bytes) is %s (`mul` is
/// the multiply then), a constant is divided, a 1-byte element's stride is
/// itself. Empty when it is none of these.
struct ElementStride {
  const Value *value = nullptr;    // the element stride, or
  std::optional<int64_t> constant; // a constant one
  const Operation *mul = nullptr;  // the multiply by the element's bytes
};
std::optional<ElementStride> elementStrideOf(const Value *v, int64_t bytes) {
  const Operation *d = v ? v->definingOp : nullptr;
  if (bytes <= 0)
    return std::nullopt;
  if (bytes == 1 || !d)
    return ElementStride{v, std::nullopt, nullptr};
  if (auto n = integerConstant(d))
    return *n % bytes == 0 ? std::optional(ElementStride{nullptr, *n / bytes, nullptr})
                           : std::nullopt;
  if (d->name == "arith.muli" && d->operands.size() == 2)
    for (size_t i = 0; i < 2; ++i)
      if (auto n = integerConstant(d->operands[1 - i]->definingOp); n && *n == bytes)
        return ElementStride{d->operands[i], std::nullopt, d};
  return std::nullopt;
}

void emitMakeDescriptor(Emitter &e, const Operation &op) {
  const Value *p = op.operand("rawDesc");
  const Operation *create = p && p->definingOp ? descriptorScratch(*p->definingOp) : nullptr;
  auto tt = op.results.empty() ? ir::TritonType()
                               : mlir::dyn_cast_or_null<ir::TritonType>(op.results[0]->type);
  if (!create || !tt)
    return e.gap("op", op.name, op.pos.line,
                 "a descriptor read from memory the kernel did not write it into (only "
                 "tl.make_tensor_descriptor's are spelled)");
  const auto &info = tt.info();
  int64_t bytes = info.elementType ? (info.elementType.getIntOrFloatBitWidth() + 7) / 8 : 0;
  auto dims = create->operandGroup("global_dim");
  auto strides = create->operandGroup("global_stride");
  if (bytes <= 0 || dims.size() != info.shape.size() || strides.size() + 1 != dims.size() ||
      create->intAttr("interleave_layout").value_or(0) != 0)
    return e.gap("op", op.name, op.pos.line,
                 "a tensormap whose dimensions, strides or interleave do not read back as "
                 "tl.make_tensor_descriptor's");
  // The tensormap lists the innermost dimension first and leaves out its
  // stride of 1.
  std::vector<py::Expr> shape, stride;
  for (auto it = dims.rbegin(); it != dims.rend(); ++it)
    shape.push_back(e.expr(*it));
  for (auto it = strides.rbegin(); it != strides.rend(); ++it) {
    auto es = elementStrideOf(*it, bytes);
    if (!es)
      return e.gap("op", op.name, op.pos.line,
                   "a tensormap stride that is not an element stride times the element's bytes");
    stride.push_back(es->constant ? py::literal(*es->constant) : e.expr(es->value));
  }
  stride.push_back(py::literal(1));
  e.need("tma");
  std::vector<py::Keyword> padding;
  if (create->intAttr("fill_mode").value_or(0) == 1)
    padding.push_back({"padding_option", py::string("nan")});
  e.statement(op, py::call("tma.make_tensor_descriptor",
                           {e.expr(create->operand("global_address")), py::list(std::move(shape)),
                            py::list(std::move(stride)), py::intList(info.shape),
                            e.layout(op.results[0]->type, op.pos.line)},
                           std::move(padding)));
}

const Spelling kNvidiaSpellings[] = {
    {"ttng.fence_async_shared",
     [](Emitter &e, const Operation &op) {
       e.need("hopper");
       e.line("fence_async_shared()", op.pos.line);
     }},
    {"ttng.init_barrier",
     [](Emitter &e, const Operation &op) {
       e.need("mbarrier");
       e.line(py::print(py::call("mbarrier.init", {e.expr(op.operand("alloc"))},
                                 {{"count", py::literal(op.intAttr("count").value_or(1))}})),
              op.pos.line);
     }},
    {"ttng.inval_barrier",
     [](Emitter &e, const Operation &op) {
       e.need("mbarrier");
       e.line(py::print(py::call("mbarrier.invalidate", {e.expr(op.operand("alloc"))})),
              op.pos.line);
     }},
    {"ttng.barrier_expect",
     [](Emitter &e, const Operation &op) {
       e.need("mbarrier");
       e.line(py::print(py::call(
                  "mbarrier.expect",
                  {e.expr(op.operand("alloc")), py::literal(op.intAttr("size").value_or(0))},
                  {{"pred", e.expr(op.operand("pred"))}})),
              op.pos.line);
     }},
    {"ttng.wait_barrier",
     [](Emitter &e, const Operation &op) {
       e.need("mbarrier");
       std::vector<py::Keyword> kw;
       if (auto *pred = op.operand("pred"))
         kw.push_back({"pred", e.expr(pred)});
       auto deps = op.operandGroup("deps");
       if (!deps.empty())
         kw.push_back({"deps", py::list(e.exprs(deps))});
       e.line(py::print(py::call("mbarrier.wait",
                                 {e.expr(op.operand("alloc")), e.expr(op.operand("phase"))},
                                 std::move(kw))),
              op.pos.line);
     }},
    {"ttng.arrive_barrier",
     [](Emitter &e, const Operation &op) {
       e.need("mbarrier");
       std::vector<py::Keyword> kw = {{"count", py::literal(op.intAttr("count").value_or(1))}};
       if (op.operand("pred"))
         kw.push_back({"pred", e.expr(op.operand("pred"))});
       e.line(py::print(py::call("mbarrier.arrive", {e.expr(op.operand("alloc"))}, std::move(kw))),
              op.pos.line);
     }},
    {"ttng.async_tma_copy_global_to_local",
     [](Emitter &e, const Operation &op) {
       e.need("tma");
       e.line(py::print(
                  py::call("tma.async_copy_global_to_shared",
                           {e.expr(op.operand("desc")), py::list(e.exprs(op.operandGroup("coord"))),
                            e.expr(op.operand("barrier")), e.expr(op.operand("result"))},
                           {{"pred", e.expr(op.operand("pred"))}})),
              op.pos.line);
     }},
    {"ttng.async_tma_copy_local_to_global",
     [](Emitter &e, const Operation &op) {
       e.need("tma");
       e.line(py::print(
                  py::call("tma.async_copy_shared_to_global",
                           {e.expr(op.operand("desc")), py::list(e.exprs(op.operandGroup("coord"))),
                            e.expr(op.operand("src"))})),
              op.pos.line);
     }},
    // An in-kernel tensor descriptor (`tl.make_tensor_descriptor`): plain's
    // TTGIR has it lowered (a 128-byte scratch buffer, the tensormap written
    // into it, a fence, the pointer read as a descriptor); Gluon's
    // `tma.make_tensor_descriptor` is lowered to the same ops by the same
    // pass. The scratch buffer, the create and the fence are the call's.
    {"ttg.global_scratch_alloc",
     [](Emitter &e, const Operation &op) {
       if (!descriptorScratch(op))
         return e.gap("op", op.name, op.pos.line,
                      "a global scratch buffer used other than for an in-kernel tensor "
                      "descriptor");
       e.bind(op.results[0], py::none());
     }},
    {"ttng.tensormap_create",
     [](Emitter &e, const Operation &op) {
       const Value *p = op.operand("desc_ptr");
       if (!p || !p->definingOp || !descriptorScratch(*p->definingOp))
         e.gap("op", op.name, op.pos.line,
               "a tensormap written other than into an in-kernel descriptor's scratch buffer");
     }},
    {"ttng.tensormap_fenceproxy_acquire",
     [](Emitter &e, const Operation &op) {
       const Value *p = op.operand("desc_ptr");
       if (!p || !p->definingOp || !descriptorScratch(*p->definingOp))
         e.gap("op", op.name, op.pos.line, "a fence on a tensormap of no in-kernel descriptor");
     }},
    {"ttng.reinterpret_tensor_descriptor", emitMakeDescriptor},
    {"ttng.async_tma_store_wait",
     [](Emitter &e, const Operation &op) {
       e.need("tma");
       e.line(
           py::print(py::call("tma.store_wait", {py::literal(op.intAttr("pendings").value_or(0))})),
           op.pos.line);
     }},
};

} // namespace

std::set<const Operation *> descriptorStrideOps(const ir::Module &m) {
  // The multiplies of an element stride by the element's bytes that only
  // in-kernel descriptors' tensormaps read (Gluon's lowering makes them),
  // and the constants only those read.
  std::set<const Operation *> out;
  auto onlyAbsorbed = [&](const Value *v) {
    return llvm::all_of(v->uses, [&](auto &u) {
      return u.first->name == "ttng.tensormap_create" || out.count(u.first);
    });
  };
  m.walk([&](const Operation *op) {
    if (op->name != "ttng.tensormap_create")
      return;
    const Value *p = op->operand("desc_ptr");
    if (!p || !p->definingOp || !descriptorScratch(*p->definingOp))
      return;
    int64_t bytes = elementBytes(*op);
    for (const Value *v : op->operandGroup("global_stride")) {
      auto es = elementStrideOf(v, bytes);
      if (es && es->mul && onlyAbsorbed(v))
        out.insert(es->mul);
    }
  });
  std::set<const Operation *> constants;
  for (const Operation *mul : out)
    for (const Value *o : mul->operands)
      if (o->definingOp && o->definingOp->name == "arith.constant" &&
          !o->definingOp->results.empty() &&
          llvm::all_of(o->uses, [&](auto &u) { return out.count(u.first) != 0; }))
        constants.insert(o->definingOp);
  out.insert(constants.begin(), constants.end());
  return out;
}

void addNvidiaEmitters(EmitterTable &t) { addSpellings(t, kNvidiaSpellings); }

} // namespace tilexform::transcribe
