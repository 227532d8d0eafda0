// Matrix multiply-accumulate: tt.dot by accumulator layout, Hopper warpgroup MMA, Blackwell tcgen05
// and tensor memory, spelled in Gluon.
#include "Emitter.h"
#include "OpText.h"

#include "tilexform/ir/Dialects.h"
#include "tilexform/support/PythonText.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <mlir/IR/BuiltinTypes.h>

#include <map>
#include <set>

namespace tilexform::transcribe {

using ir::Operation;
using ir::Value;

namespace {

/// `use_acc=..., pred=..., mbarriers=[...], mbarrier_preds=[...]`: the
/// operands tcgen05's MMAs share.
std::vector<py::Keyword> tcgen05Tail(Emitter &e, const Operation &op) {
  std::vector<py::Keyword> kw;
  if (auto *useD = op.operand("useD"))
    kw.push_back({"use_acc", e.expr(useD)});
  if (auto *pred = op.operand("pred"))
    kw.push_back({"pred", e.expr(pred)});
  auto bars = op.operandGroup("barriers");
  if (!bars.empty()) {
    kw.push_back({"mbarriers", py::list(e.exprs(bars))});
    auto preds = op.operandGroup("barrier_preds");
    if (!preds.empty())
      kw.push_back({"mbarrier_preds", py::list(e.exprs(preds))});
  }
  return kw;
}

/// Writes `call` as `op`'s line, its results bound to None (the tokens
/// Triton adds have no Gluon counterpart).
void effect(Emitter &e, const Operation &op, const py::Expr &call) {
  e.line(py::print(call), op.pos.line);
  for (auto *r : op.results)
    e.bind(r, py::none());
}

/// A scaled dot's operand formats (`lhs = e4m3 rhs = e2m1`), as Gluon's
/// scaled MMAs name them; empty when either is missing.
std::pair<std::string, std::string> scaledFormats(const Operation &op) {
  if (op.name == "tt.dot_scaled")
    return {op.enumAttr("a_elem_type"), op.enumAttr("b_elem_type")};
  return {op.enumAttr("a_type"), op.enumAttr("b_type")};
}

const Spelling kMmaSpellings[] = {
    {"ttng.warp_group_dot",
     [](Emitter &e, const Operation &op) {
       e.need("hopper");
       bool async = op.attr("isAsync") && ir::attrText(op.attr("isAsync")) == "true";
       std::vector<py::Keyword> kw;
       if (op.operand("useC"))
         kw.push_back({"use_acc", e.expr(op.operand("useC"))});
       if (async)
         kw.push_back({"is_async", py::boolean(true)});
       e.statement(
           op, py::call("warpgroup_mma",
                        {e.expr(op.operand("a")), e.expr(op.operand("b")), e.expr(op.operand("c"))},
                        std::move(kw)));
     }},
    {"ttng.warp_group_dot_wait",
     [](Emitter &e, const Operation &op) {
       e.need("hopper");
       py::Expr deps = py::list(e.exprs(op.operands));
       // One dependency comes back as itself, several as a tuple.
       std::string lhs = e.assign(op);
       e.line(lhs + py::print(py::call("warpgroup_mma_wait",
                                       {py::literal(op.intAttr("pendings").value_or(0))},
                                       {{"deps", deps}})),
              op.pos.line);
     }},
    {"tt.dot",
     [](Emitter &e, const Operation &op) {
       auto enc = ir::encodingOf(op.results[0]->type);
       std::string kind = enc ? enc->kind() : "";
       std::string fn;
       if (kind == "amd_mfma") {
         fn = e.amdModule() + ".mfma";
         // cdna3/cdna4.mfma take the default input precision (IEEE on AMD);
         // an fp32 dot plain runs at another (tf32: gfx942's xf32 MFMA)
         // goes through the module's own builtin over the same semantic
         // call. For 16- and 8-bit operands the element type alone picks
         // the instruction, and Triton prints tf32 there too.
         std::string precision = op.enumAttr("inputPrecision");
         const ir::Value *a = op.operand("a");
         bool fp32 = a && a->type && elementOf(a->type) && elementOf(a->type).isF32();
         if (fp32 && !precision.empty() && precision != "ieee") {
           e.need("_mfma");
           return e.statement(op,
                              py::call("_mfma", {e.expr(op.operand("a")), e.expr(op.operand("b")),
                                                 e.expr(op.operand("c")), py::string(precision)}));
         }
       } else if (kind == "amd_wmma") {
         fn = e.wmmaModule() + ".wmma";
       } else if (kind == "nvidia_mma") {
         e.need("ampere");
         fn = "mma_v2";
       } else if (kind == "blocked" || kind == "linear" || kind == "slice") {
         // A dot on a distributed layout is Triton's FMA dot (fp32 at IEEE
         // precision, or a target without an MMA for the types).
         fn = "gl.dot_fma";
       } else {
         return e.gap("op", op.name + " on " + kind, op.pos.line,
                      "a dot whose accumulator layout has no Gluon instruction here");
       }
       e.statement(op, py::call(fn, {e.expr(op.operand("a")), e.expr(op.operand("b")),
                                     e.expr(op.operand("c"))}));
     }},
    {"ttng.tmem_alloc",
     [](Emitter &e, const Operation &op) {
       e.need("blackwell");
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
       e.line(e.nameFor(op.results[0]) + " = " +
                  py::print(py::call("allocate_tensor_memory", std::move(args))),
              op.pos.line);
       for (size_t i = 1; i < op.results.size(); ++i)
         e.bind(op.results[i], py::none());
     }},
    {"ttng.tmem_store",
     [](Emitter &e, const Operation &op) {
       std::vector<py::Keyword> kw;
       if (op.operand("pred"))
         kw.push_back({"pred", e.expr(op.operand("pred"))});
       effect(e, op,
              py::method(e.expr(op.operand("dst")), "store", {e.expr(op.operand("src"))},
                         std::move(kw)));
     }},
    {"ttng.tmem_load",
     [](Emitter &e, const Operation &op) {
       // The value; the async token Triton adds has no Gluon counterpart.
       e.line(e.nameFor(op.results[0]) + " = " +
                  py::print(py::method(e.expr(op.operand("src")), "load",
                                       {e.layout(op.results[0]->type, op.pos.line)})),
              op.pos.line);
       for (size_t i = 1; i < op.results.size(); ++i)
         e.bind(op.results[i], py::none());
     }},
    {"ttng.tc_gen5_mma",
     [](Emitter &e, const Operation &op) {
       e.need("blackwell");
       effect(e, op,
              py::call("tcgen05_mma",
                       {e.expr(op.operand("a")), e.expr(op.operand("b")), e.expr(op.operand("d"))},
                       tcgen05Tail(e, op)));
     }},
    // Blackwell's block-scaled MMA: operands in shared memory, the scales in
    // tensor memory, each operand's format by name.
    {"ttng.tc_gen5_mma_scaled",
     [](Emitter &e, const Operation &op) {
       auto [lhs, rhs] = scaledFormats(op);
       if (lhs.empty() || rhs.empty())
         return e.gap("damaged", op.name, op.pos.line, "a scaled MMA without its operand formats");
       e.need("blackwell_scaled");
       effect(e, op,
              py::call("tcgen05_mma_scaled",
                       {e.expr(op.operand("a")), e.expr(op.operand("b")), e.expr(op.operand("d")),
                        e.expr(op.operand("a_scale")), e.expr(op.operand("b_scale")),
                        py::string(lhs), py::string(rhs)},
                       tcgen05Tail(e, op)));
     }},
    // A block-scaled dot on AMD's MFMA layout (gfx950): cdna4's scaled MFMA;
    // an operand without a scale is None.
    {"tt.dot_scaled",
     [](Emitter &e, const Operation &op) {
       auto enc = ir::encodingOf(op.results[0]->type);
       if (!enc || enc->kind() != "amd_mfma" || e.amdModule() != "cdna4")
         return e.gap(
             "op", op.name + " on " + (enc ? enc->kind() : std::string("?")), op.pos.line,
             "a scaled dot has a Gluon instruction on gfx950's MFMA only (cdna4.mfma_scaled); "
             "on NVIDIA Triton lowers it before this dump or to tcgen05_mma_scaled");
       auto [lhs, rhs] = scaledFormats(op);
       static const std::set<std::string> kFormats = {"e2m1", "e4m3", "e5m2"};
       if (!kFormats.count(lhs) || !kFormats.count(rhs))
         return e.gap("op", fmt::format("{} of {} x {}", op.name, lhs, rhs), op.pos.line,
                      "cdna4.mfma_scaled takes e2m1, e4m3 and e5m2 operands only");
       if (op.hasKeyword("fastMath") && ir::attrText(op.attr("fastMath")) == "true")
         return e.gap("op", op.name + " with fastMath", op.pos.line,
                      "cdna4.mfma_scaled has no fast-math form");
       auto scale = [&](const char *seg) {
         const Value *v = op.operand(seg);
         return v ? e.expr(v) : py::none();
       };
       // Without a scale (an fp8 dot Triton writes as a scaled dot),
       // mfma_scaled would make one of ones in its own layout: the module's
       // builtin makes the semantic call with none, as plain has.
       bool bothScales = op.operand("a_scale") && op.operand("b_scale");
       if (!bothScales)
         e.need("_dot_scaled");
       e.statement(op, py::call(bothScales ? "cdna4.mfma_scaled" : "_dot_scaled",
                                {e.expr(op.operand("a")), scale("a_scale"), py::string(lhs),
                                 e.expr(op.operand("b")), scale("b_scale"), py::string(rhs),
                                 e.expr(op.operand("c"))}));
     }},
    {"ttng.tc_gen5_commit",
     [](Emitter &e, const Operation &op) {
       e.need("blackwell");
       std::vector<py::Keyword> kw;
       if (op.operand("pred"))
         kw.push_back({"pred", e.expr(op.operand("pred"))});
       e.line(py::print(py::call("tcgen05_commit", {e.expr(op.operand("barrier"))}, std::move(kw))),
              op.pos.line);
     }},
};

} // namespace

void addMmaEmitters(EmitterTable &t) { addSpellings(t, kMmaSpellings); }

} // namespace tilexform::transcribe
