// Tensor shape ops, layout conversions, reductions, scans, histograms and gathers, spelled in
// Gluon.
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

/// Whether a shape op's result needs plain's layout stated: Gluon infers a
/// blocked or linear layout for a permute, reshape, join or split, never the dot
/// operand, MMA or slice object plain's compiler may have given it (equal as
/// a linear layout, different as an object, which the MMA builders refuse).
/// The conversion is between equal linear layouts, which
/// `assert_trivial=True` makes the compiler prove: it moves no data.
bool needsStatedLayout(Emitter &e, mlir::Type t) {
  auto enc = t ? ir::encodingOf(t) : nullptr;
  return enc && enc->kind() != "blocked" && enc->kind() != "linear" && e.hasLayoutConstant(t);
}

py::Expr statedLayout(Emitter &e, const Operation &op, py::Expr rhs) {
  if (op.results.size() != 1 || !needsStatedLayout(e, op.results[0]->type))
    return rhs;
  return py::call("gl.convert_layout", {std::move(rhs), e.layout(op.results[0]->type, op.pos.line)},
                  {{"assert_trivial", py::boolean(true)}});
}

/// The same for an op of several results (a split): each result whose
/// layout Gluon would not infer is converted after the statement.
void stateResultLayouts(Emitter &e, const Operation &op) {
  for (auto *r : op.results)
    if (needsStatedLayout(e, r->type)) {
      std::string name = e.nameFor(r);
      e.line(
          name + " = " +
          py::print(py::call("gl.convert_layout", {py::name(name), e.layout(r->type, op.pos.line)},
                             {{"assert_trivial", py::boolean(true)}})));
    }
}

/// A reduction's or scan's operands: one, or several as a tuple.
py::Expr combinedInputs(Emitter &e, const Operation &op) {
  std::vector<py::Expr> srcs;
  for (auto *v : op.operands)
    srcs.push_back(e.expr(v));
  return srcs.size() == 1 ? srcs[0] : py::tuple(std::move(srcs));
}

const Spelling kTensorSpellings[] = {
    {"tt.reduce",
     [](Emitter &e, const Operation &op) {
       py::Expr fn = py::name(e.combineFunction(op));
       e.statement(op, py::call("gl.reduce", {combinedInputs(e, op),
                                              py::literal(op.intAttr("axis").value_or(0)), fn}));
     }},
    {"tt.scan",
     [](Emitter &e, const Operation &op) {
       py::Expr fn = py::name(e.combineFunction(op));
       std::vector<py::Keyword> reverse;
       if (op.attr("reverse") && ir::attrText(op.attr("reverse")) == "true")
         reverse.push_back({"reverse", py::boolean(true)});
       e.statement(
           op, py::call("gl.associative_scan",
                        {combinedInputs(e, op), py::literal(op.intAttr("axis").value_or(0)), fn},
                        std::move(reverse)));
     }},
    {"tt.expand_dims",
     [](Emitter &e, const Operation &op) {
       int64_t axis = op.intAttr("axis").value_or(0);
       size_t rank = shapeOf(op.results[0]->type).size();
       if (e.readable() && axis >= 0 && size_t(axis) < rank) {
         // x[:, None]: Gluon's indexing is the same expand_dims.
         std::vector<py::Expr> index(rank, py::name(":"));
         index[size_t(axis)] = py::none();
         return e.statement(op, py::subscript(e.expr(op.operands[0]), std::move(index)));
       }
       e.statement(op, py::call("gl.expand_dims", {e.expr(op.operands[0]), py::literal(axis)}));
     }},
    {"tt.broadcast",
     [](Emitter &e, const Operation &op) {
       e.statement(op, py::method(e.expr(op.operands[0]), "broadcast_to",
                                  {py::intList(shapeOf(op.results[0]->type))}));
     }},
    {"tt.reshape",
     [](Emitter &e, const Operation &op) {
       py::Expr rhs = py::call("gl.reshape",
                               {e.expr(op.operands[0]), py::intList(shapeOf(op.results[0]->type))});
       // allow_reorder (Triton's flattening before a reduction over all
       // elements: tl.sum(x), tl.max(x)) lets plain's result number the
       // elements in another order; Gluon reshapes in order only. The
       // in-order reshape keeps every value in the register, lane and warp
       // plain keeps it in (a reshape moves no data), so the reduction that
       // follows combines the same values in the same order; only the
       // result's layout differs, which verify reconciles (reorder_reshape).
       if (op.hasKeyword("allow_reorder"))
         return e.statement(op, rhs);
       e.statement(op, statedLayout(e, op, rhs));
     }},
    {"tt.trans",
     [](Emitter &e, const Operation &op) {
       py::Expr order = py::name(orderList(op.attr("order")));
       e.statement(op,
                   statedLayout(e, op, py::call("gl.permute", {e.expr(op.operands[0]), order})));
     }},
    {"tt.join",
     [](Emitter &e, const Operation &op) {
       if (e.hasOperands(op, 2))
         e.statement(
             op, statedLayout(
                     e, op, py::call("gl.join", {e.expr(op.operands[0]), e.expr(op.operands[1])})));
     }},
    {"tt.split",
     [](Emitter &e, const Operation &op) {
       e.call1(op, "gl.split");
       stateResultLayouts(e, op);
     }},
    // The scalar of a one-element tensor: Gluon 3.6 has no public builtin,
    // so the anchor defines one over the semantic's own unsplat.
    {"tt.unsplat",
     [](Emitter &e, const Operation &op) {
       e.need("_unsplat");
       e.statement(op, py::call("_unsplat", {e.expr(op.operands[0])}));
     }},
    {"ttg.convert_layout",
     [](Emitter &e, const Operation &op) {
       e.statement(op, py::call("gl.convert_layout", {e.expr(op.operands[0]),
                                                      e.layout(op.results[0]->type, op.pos.line)}));
     }},
    {"tt.histogram",
     [](Emitter &e, const Operation &op) {
       auto shape = shapeOf(op.results[0]->type);
       std::vector<py::Keyword> keywords;
       if (auto *mask = op.operand("mask"))
         keywords.push_back({"mask", e.expr(mask)});
       keywords.push_back({"layout", e.layout(op.results[0]->type, op.pos.line)});
       e.statement(op, py::call("gl.histogram",
                                {e.expr(op.operand("src")),
                                 py::literal(static_cast<long long>(shape.empty() ? 0 : shape[0]))},
                                std::move(keywords)));
     }},
    {"tt.gather",
     [](Emitter &e, const Operation &op) {
       e.statement(op,
                   py::call("gl.gather", {e.expr(op.operand("src")), e.expr(op.operand("indices")),
                                          py::literal(op.intAttr("axis").value_or(0))}));
     }},
};

} // namespace

void addTensorEmitters(EmitterTable &t) { addSpellings(t, kTensorSpellings); }

} // namespace tilexform::transcribe
