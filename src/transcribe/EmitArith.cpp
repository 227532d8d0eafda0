// Arithmetic, math, casts, scalars and index ranges, spelled in Gluon.
#include "Emitter.h"
#include "OpText.h"

#include "tilexform/ir/Dialects.h"
#include "tilexform/support/PythonText.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/BuiltinTypes.h>

#include <map>

#include "Libdevice.h"

namespace tilexform::transcribe {

using ir::Operation;
using ir::Value;

namespace {

std::string cmpOperator(const std::string &pred, bool isFloat) {
  if (isFloat)
    return llvm::StringSwitch<std::string>(pred)
        .Case("oeq", "==")
        .Case("une", "!=")
        .Case("olt", "<")
        .Case("ole", "<=")
        .Case("ogt", ">")
        .Case("oge", ">=")
        .Default("");
  return llvm::StringSwitch<std::string>(pred)
      .Case("eq", "==")
      .Case("ne", "!=")
      .Case("slt", "<")
      .Case("sle", "<=")
      .Case("sgt", ">")
      .Case("sge", ">=")
      .Default("");
}

/// `(a.to(gl.uint32, bitcast=True) // b.to(...)).to(gl.int32, bitcast=True)`.
void unsignedBinary(Emitter &e, const Operation &op, const char *pyOp) {
  if (!e.hasOperands(op, 2))
    return;
  e.statement(op, e.signedResult(py::binary(pyOp, e.unsignedOperand(op.operands[0]),
                                            e.unsignedOperand(op.operands[1])),
                                 op.results[0]->type));
}

void unsignedCall(Emitter &e, const Operation &op, const char *fn) {
  if (!e.hasOperands(op, 2))
    return;
  e.statement(op, e.signedResult(py::call(fn, {e.unsignedOperand(op.operands[0]),
                                               e.unsignedOperand(op.operands[1])}),
                                 op.results[0]->type));
}

const Spelling kArithSpellings[] = {
    {"arith.constant",
     [](Emitter &e, const Operation &op) {
       auto lit = constantValue(op);
       if (!lit) {
         e.gap("op", op.name, op.pos.line, "a constant tilexform cannot read");
         return;
       }
       mlir::Type t = op.results[0]->type;
       if (!isTensor(t)) {
         std::string d = ir::typeText(t);
         if (d == "i32" || d == "f32" || d == "i1" || d == "index")
           e.bind(op.results[0], py::literal(lit->text));
         else
           e.statement(op, py::call("gl.full", {py::list({}), py::literal(lit->text),
                                                e.dtype(t, op.pos.line)}));
         return;
       }
       e.statement(op, py::call("gl.full",
                                {py::intList(shapeOf(t)), py::literal(lit->text),
                                 e.dtype(t, op.pos.line)},
                                {{"layout", e.layout(t, op.pos.line)}}));
     }},
    {"tt.get_program_id",
     [](Emitter &e, const Operation &op) {
       e.statement(op, py::call("gl.program_id", {py::literal(op.intAttr("axis").value_or(0))}));
     }},
    {"tt.get_num_programs",
     [](Emitter &e, const Operation &op) {
       e.statement(op,
                   py::call("gl.num_programs", {py::literal(op.intAttr("axis").value_or(0))}));
     }},
    {"tt.make_range",
     [](Emitter &e, const Operation &op) {
       e.statement(op, py::call("gl.arange",
                                {py::literal(op.intAttr("start").value_or(0)),
                                 py::literal(op.intAttr("end").value_or(0))},
                                {{"layout", e.layout(op.results[0]->type, op.pos.line)}}));
     }},
    {"tt.splat",
     [](Emitter &e, const Operation &op) {
       mlir::Type t = op.results[0]->type;
       const Value *src = op.operands[0];
       // A pointer's dtype is read from the pointer itself.
       bool pointer = src->type && isPointer(src->type);
       py::Expr value = pointer ? e.reusable(src) : e.expr(src);
       py::Expr dt = !pointer ? e.dtype(t, op.pos.line)
                              : py::attribute(value.isIdentifier() ? value : py::paren(value), "dtype");
       e.statement(op, py::call("gl.full", {py::intList(shapeOf(t)), value, dt},
                                {{"layout", e.layout(t, op.pos.line)}}));
     }},
    {"tt.addptr", [](Emitter &e, const Operation &op) { e.binary(op, "+"); }},
    {"arith.addi", [](Emitter &e, const Operation &op) { e.binary(op, "+"); }},
    {"arith.addf", [](Emitter &e, const Operation &op) { e.binary(op, "+"); }},
    {"arith.subi", [](Emitter &e, const Operation &op) { e.binary(op, "-"); }},
    {"arith.subf", [](Emitter &e, const Operation &op) { e.binary(op, "-"); }},
    {"arith.muli", [](Emitter &e, const Operation &op) { e.binary(op, "*"); }},
    {"arith.mulf", [](Emitter &e, const Operation &op) { e.binary(op, "*"); }},
    {"arith.divf", [](Emitter &e, const Operation &op) { e.binary(op, "/"); }},
    {"arith.divsi", [](Emitter &e, const Operation &op) { e.binary(op, "//"); }},
    {"arith.remsi", [](Emitter &e, const Operation &op) { e.binary(op, "%"); }},
    {"arith.remf", [](Emitter &e, const Operation &op) { e.binary(op, "%"); }},
    {"arith.andi", [](Emitter &e, const Operation &op) { e.binary(op, "&"); }},
    {"arith.ori", [](Emitter &e, const Operation &op) { e.binary(op, "|"); }},
    {"arith.xori", [](Emitter &e, const Operation &op) { e.binary(op, "^"); }},
    {"arith.shli", [](Emitter &e, const Operation &op) { e.binary(op, "<<"); }},
    {"arith.shrsi", [](Emitter &e, const Operation &op) { e.binary(op, ">>"); }},
    {"arith.divui", [](Emitter &e, const Operation &op) { unsignedBinary(e, op, "//"); }},
    {"arith.remui", [](Emitter &e, const Operation &op) { unsignedBinary(e, op, "%"); }},
    {"arith.shrui", [](Emitter &e, const Operation &op) { unsignedBinary(e, op, ">>"); }},
    {"arith.maxui", [](Emitter &e, const Operation &op) { unsignedCall(e, op, "gl.maximum"); }},
    {"arith.minui", [](Emitter &e, const Operation &op) { unsignedCall(e, op, "gl.minimum"); }},
    {"arith.ceildivsi", [](Emitter &e, const Operation &op) { e.call2(op, "gl.cdiv"); }},
    {"arith.ceildivui", [](Emitter &e, const Operation &op) { unsignedCall(e, op, "gl.cdiv"); }},
    {"arith.uitofp",
     [](Emitter &e, const Operation &op) {
       if (!e.hasOperands(op, 1))
         return;
       e.statement(op, py::method(e.unsignedOperand(op.operands[0]), "to",
                                  {e.dtype(op.results[0]->type, op.pos.line)}));
     }},
    {"arith.fptoui",
     [](Emitter &e, const Operation &op) {
       if (!e.hasOperands(op, 1))
         return;
       std::string u = Emitter::unsignedDtype(op.results[0]->type);
       if (u.empty())
         return e.cast(op);
       e.statement(op, e.signedResult(py::method(e.expr(op.operands[0]), "to", {py::name(u)}),
                                      op.results[0]->type));
     }},
    {"arith.negf",
     [](Emitter &e, const Operation &op) {
       if (e.hasOperands(op, 1))
         e.statement(op, py::unary("-", e.expr(op.operands[0])));
     }},
    {"arith.maxnumf", [](Emitter &e, const Operation &op) { e.call2(op, "gl.maximum"); }},
    {"arith.minnumf", [](Emitter &e, const Operation &op) { e.call2(op, "gl.minimum"); }},
    {"arith.maxsi", [](Emitter &e, const Operation &op) { e.call2(op, "gl.maximum"); }},
    {"arith.minsi", [](Emitter &e, const Operation &op) { e.call2(op, "gl.minimum"); }},
    {"arith.maximumf",
     [](Emitter &e, const Operation &op) {
       e.need("tl");
       e.call2(op, "gl.maximum", {{"propagate_nan", py::name("tl.PropagateNan.ALL")}});
     }},
    {"arith.minimumf",
     [](Emitter &e, const Operation &op) {
       e.need("tl");
       e.call2(op, "gl.minimum", {{"propagate_nan", py::name("tl.PropagateNan.ALL")}});
     }},
    {"arith.cmpi",
     [](Emitter &e, const Operation &op) {
       std::string pred = op.enumAttr("predicate");
       if (std::string py = cmpOperator(pred, false); !py.empty())
         return e.binary(op, py.c_str());
       // ult, ule, ugt, uge: the same comparison of the unsigned views.
       std::string py = llvm::StringRef(pred).starts_with("u") ? cmpOperator(fmt::format("s{}", pred.substr(1)), false) : "";
       if (py.empty() || !e.hasOperands(op, 2))
         return e.gap("op", op.name + " " + pred, op.pos.line, "a predicate Python's operators do not spell");
       e.statement(op, py::binary(py, e.unsignedOperand(op.operands[0]),
                                  e.unsignedOperand(op.operands[1])));
     }},
    {"arith.cmpf",
     [](Emitter &e, const Operation &op) {
       std::string pred = op.enumAttr("predicate");
       std::string py = cmpOperator(pred, true);
       if (py.empty())
         return e.gap("op", op.name + " " + pred, op.pos.line,
                      "a float predicate Python's operators do not spell");
       e.binary(op, py.c_str());
     }},
    {"arith.select",
     [](Emitter &e, const Operation &op) {
       if (!e.hasOperands(op, 3))
         return;
       // A scalar condition choosing between tensors is one branch-free
       // move of whole registers in plain; gl.where would splat the
       // condition and select per element (a persistent matmul's
       // accumulator reset: 0.67x plain on an H100).
       bool scalarChoice = !isTensor(op.operands[0]->type) && isTensor(op.results[0]->type);
       if (scalarChoice)
         e.need("_select");
       e.statement(op, py::call(scalarChoice ? "_select" : "gl.where",
                                {e.expr(op.operands[0]), e.expr(op.operands[1]),
                                 e.expr(op.operands[2])}));
     }},
    // Philox's multiply (tl.rand, tl.randint, tl.randn), on plain's int32
    // operands: gl.umulhi writes the same tt.mulhiui.
    {"tt.mulhiui", [](Emitter &e, const Operation &op) { e.call2(op, "gl.umulhi"); }},
    {"arith.extf", [](Emitter &e, const Operation &op) { e.cast(op); }},
    {"arith.truncf", [](Emitter &e, const Operation &op) { e.cast(op); }},
    {"arith.sitofp", [](Emitter &e, const Operation &op) { e.cast(op); }},
    {"arith.fptosi", [](Emitter &e, const Operation &op) { e.cast(op); }},
    {"arith.extsi", [](Emitter &e, const Operation &op) { e.cast(op); }},
    {"arith.trunci", [](Emitter &e, const Operation &op) { e.cast(op); }},
    {"arith.extui",
     [](Emitter &e, const Operation &op) {
       // A zero-extension is a widening of the unsigned view (i1 is unsigned already).
       if (!e.hasOperands(op, 1))
         return;
       e.statement(op, py::method(e.unsignedOperand(op.operands[0]), "to",
                                  {e.dtype(op.results[0]->type, op.pos.line)}));
     }},
    {"arith.bitcast", [](Emitter &e, const Operation &op) { e.cast(op, true); }},
    {"tt.bitcast", [](Emitter &e, const Operation &op) { e.cast(op, true); }},
    {"tt.fp_to_fp",
     [](Emitter &e, const Operation &op) {
       auto r = op.attr("rounding");
       std::vector<py::Keyword> mode;
       if (r) {
         std::string t = ir::attrText(r);
         bool rtz = t.find('1') != std::string::npos || t.find("rtz") != std::string::npos;
         mode.push_back({"fp_downcast_rounding", py::string(rtz ? "rtz" : "rtne")});
       }
       e.cast(op, false, std::move(mode));
     }},
    {"math.exp", [](Emitter &e, const Operation &op) { e.call1(op, "gl.exp"); }},
    {"math.exp2", [](Emitter &e, const Operation &op) { e.call1(op, "gl.exp2"); }},
    {"math.log", [](Emitter &e, const Operation &op) { e.call1(op, "gl.log"); }},
    {"math.log2", [](Emitter &e, const Operation &op) { e.call1(op, "gl.log2"); }},
    {"math.sqrt", [](Emitter &e, const Operation &op) { e.call1(op, "gl.sqrt"); }},
    {"math.rsqrt", [](Emitter &e, const Operation &op) { e.call1(op, "gl.rsqrt"); }},
    {"math.sin", [](Emitter &e, const Operation &op) { e.call1(op, "gl.sin"); }},
    {"math.cos", [](Emitter &e, const Operation &op) { e.call1(op, "gl.cos"); }},
    {"math.absf", [](Emitter &e, const Operation &op) { e.call1(op, "gl.abs"); }},
    {"math.absi", [](Emitter &e, const Operation &op) { e.call1(op, "gl.abs"); }},
    {"tt.precise_sqrt", [](Emitter &e, const Operation &op) { e.call1(op, "gl.sqrt_rn"); }},
    {"tt.precise_divf", [](Emitter &e, const Operation &op) { e.call2(op, "gl.div_rn"); }},
    {"math.erf", [](Emitter &e, const Operation &op) { e.call1(op, "gl.erf"); }},
    {"math.floor", [](Emitter &e, const Operation &op) { e.call1(op, "gl.floor"); }},
    {"math.ceil", [](Emitter &e, const Operation &op) { e.call1(op, "gl.ceil"); }},
    {"tt.extern_elementwise",
     [](Emitter &e, const Operation &op) {
       // A libdevice/ocml call: the libdevice function whose symbol it is,
       // else the call spelled as Triton's extern_elementwise builtin.
       // The attribute's value (MLIR's escapes decoded), not its printed
       // text: it reaches the module only as a Python string literal.
       auto text = [&](const char *name) -> std::string {
         auto a = op.attr(name);
         if (auto str = mlir::dyn_cast_or_null<mlir::StringAttr>(a))
           return str.getValue().str();
         return a ? ir::attrText(a) : "";
       };
       std::string symbol = text("symbol");
       std::vector<py::Expr> args, types;
       for (auto *v : op.operands) {
         args.push_back(e.expr(v));
         types.push_back(e.dtype(v->type, op.pos.line));
       }
       if (const char *fn = libdeviceFunction(symbol)) {
         e.need("libdevice");
         return e.statement(op, py::call(std::string("libdevice.") + fn, std::move(args)));
       }
       e.need("tl");
       e.need("_extern_elementwise");
       bool pure = text("pure") != "false";
       py::Expr signature = py::dict(
           {{py::tuple(std::move(types), /*trailingComma=*/true),
             py::tuple({py::string(symbol), e.dtype(op.results[0]->type, op.pos.line)})}});
       e.statement(op, py::call("_extern_elementwise",
                                {py::string(text("libname")), py::string(text("libpath")),
                                 py::list(std::move(args)), std::move(signature)},
                                {{"is_pure", py::boolean(pure)}}));
     }},
    {"llvm.intr.assume",
     [](Emitter &e, const Operation &op) {
       if (!e.hasOperands(op, 1))
         return;
       e.line(py::print(py::call("gl.assume", {e.expr(op.operands[0])})), op.pos.line);
     }},
    {"math.fma",
     [](Emitter &e, const Operation &op) {
       e.statement(op, py::call("gl.fma", {e.expr(op.operands[0]), e.expr(op.operands[1]),
                                           e.expr(op.operands[2])}));
     }},
};

} // namespace

void addArithEmitters(EmitterTable &t) { addSpellings(t, kArithSpellings); }

} // namespace tilexform::transcribe
