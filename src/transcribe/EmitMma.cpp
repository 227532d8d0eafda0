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

/// `, use_acc=..., pred=..., mbarriers=[...], mbarrier_preds=[...]`: the
/// operands tcgen05's MMAs share.
std::string tcgen05Tail(Emitter &e, const Operation &op) {
  std::string args;
  if (auto *useD = op.operand("useD"))
    args += ", use_acc=" + e.expr(useD);
  if (auto *pred = op.operand("pred"))
    args += ", pred=" + e.expr(pred);
  auto bars = op.operandGroup("barriers");
  if (!bars.empty()) {
    std::vector<std::string> b, p;
    for (auto *v : bars)
      b.push_back(e.expr(v));
    for (auto *v : op.operandGroup("barrier_preds"))
      p.push_back(e.expr(v));
    args += ", mbarriers=[" + llvm::join(b, ", ") + "]";
    if (!p.empty())
      args += ", mbarrier_preds=[" + llvm::join(p, ", ") + "]";
  }
  return args;
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
       std::string useC = op.operand("useC") ? ", use_acc=" + e.expr(op.operand("useC")) : "";
       e.statement(op, fmt::format("warpgroup_mma({}, {}, {}{}{})", e.expr(op.operand("a")),
                                   e.expr(op.operand("b")), e.expr(op.operand("c")), useC,
                                   async ? ", is_async=True" : ""));
     }},
    {"ttng.warp_group_dot_wait",
     [](Emitter &e, const Operation &op) {
       e.need("hopper");
       std::vector<std::string> deps;
       for (auto *v : op.operands)
         deps.push_back(e.expr(v));
       // One dependency comes back as itself, several as a tuple.
       std::string lhs = e.assign(op);
       e.line(fmt::format("{}warpgroup_mma_wait({}, deps=[{}])  # line {}", lhs,
                          op.intAttr("pendings").value_or(0), llvm::join(deps, ", "), op.pos.line));
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
           return e.statement(op, fmt::format("_mfma({}, {}, {}, {})", e.expr(op.operand("a")),
                                              e.expr(op.operand("b")), e.expr(op.operand("c")),
                                              pyStringLiteral(precision)));
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
       e.statement(op, fmt::format("{}({}, {}, {})", fn, e.expr(op.operand("a")),
                                   e.expr(op.operand("b")), e.expr(op.operand("c"))));
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
       std::string value = op.operand("src") ? ", " + e.expr(op.operand("src")) : "";
       e.line(fmt::format("{} = allocate_tensor_memory({}, {}, {}{})  # line {}",
                          e.nameFor(op.results[0]), e.dtypeOf(t, op.pos.line), listText(dims),
                          e.layoutOf(t, op.pos.line), value, op.pos.line));
       for (size_t i = 1; i < op.results.size(); ++i)
         e.bind(op.results[i], "None");
     }},
    {"ttng.tmem_store",
     [](Emitter &e, const Operation &op) {
       std::string pred = op.operand("pred") ? ", pred=" + e.expr(op.operand("pred")) : "";
       e.line(fmt::format("{}.store({}{})  # line {}", e.receiver(op.operand("dst")),
                          e.expr(op.operand("src")), pred, op.pos.line));
       for (auto *r : op.results)
         e.bind(r, "None");
     }},
    {"ttng.tmem_load",
     [](Emitter &e, const Operation &op) {
       // The value; the async token Triton adds has no Gluon counterpart.
       e.line(fmt::format("{} = {}.load({})  # line {}", e.nameFor(op.results[0]),
                          e.receiver(op.operand("src")),
                          e.layoutOf(op.results[0]->type, op.pos.line), op.pos.line));
       for (size_t i = 1; i < op.results.size(); ++i)
         e.bind(op.results[i], "None");
     }},
    {"ttng.tc_gen5_mma",
     [](Emitter &e, const Operation &op) {
       e.need("blackwell");
       std::string args = e.expr(op.operand("a")) + ", " + e.expr(op.operand("b")) + ", " +
                          e.expr(op.operand("d")) + tcgen05Tail(e, op);
       e.line(fmt::format("tcgen05_mma({})  # line {}", args, op.pos.line));
       for (auto *r : op.results)
         e.bind(r, "None");
     }},
    // Blackwell's block-scaled MMA: operands in shared memory, the scales in
    // tensor memory, each operand's format by name.
    {"ttng.tc_gen5_mma_scaled",
     [](Emitter &e, const Operation &op) {
       auto [lhs, rhs] = scaledFormats(op);
       if (lhs.empty() || rhs.empty())
         return e.gap("damaged", op.name, op.pos.line, "a scaled MMA without its operand formats");
       e.need("blackwell_scaled");
       std::string args = fmt::format("{}, {}, {}, {}, {}, {}, {}", e.expr(op.operand("a")),
                                      e.expr(op.operand("b")), e.expr(op.operand("d")),
                                      e.expr(op.operand("a_scale")), e.expr(op.operand("b_scale")),
                                      pyStringLiteral(lhs), pyStringLiteral(rhs));
       e.line(fmt::format("tcgen05_mma_scaled({}{})  # line {}", args, tcgen05Tail(e, op),
                          op.pos.line));
       for (auto *r : op.results)
         e.bind(r, "None");
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
         return v ? e.expr(v) : std::string("None");
       };
       // Without a scale (an fp8 dot Triton writes as a scaled dot),
       // mfma_scaled would make one of ones in its own layout: the module's
       // builtin makes the semantic call with none, as plain has.
       bool bothScales = op.operand("a_scale") && op.operand("b_scale");
       if (!bothScales)
         e.need("_dot_scaled");
       e.statement(op, fmt::format("{}({}, {}, {}, {}, {}, {}, {})",
                                   bothScales ? "cdna4.mfma_scaled" : "_dot_scaled",
                                   e.expr(op.operand("a")), scale("a_scale"), pyStringLiteral(lhs),
                                   e.expr(op.operand("b")), scale("b_scale"), pyStringLiteral(rhs),
                                   e.expr(op.operand("c"))));
     }},
    {"ttng.tc_gen5_commit",
     [](Emitter &e, const Operation &op) {
       e.need("blackwell");
       std::string pred = op.operand("pred") ? ", pred=" + e.expr(op.operand("pred")) : "";
       e.line(fmt::format("tcgen05_commit({}{})  # line {}", e.expr(op.operand("barrier")), pred,
                          op.pos.line));
     }},
};

} // namespace

void addMmaEmitters(EmitterTable &t) { addSpellings(t, kMmaSpellings); }

} // namespace tilexform::transcribe
