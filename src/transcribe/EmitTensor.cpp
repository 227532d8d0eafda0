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

std::string statedLayout(Emitter &e, const Operation &op, const std::string &rhs) {
  if (op.results.size() != 1 || !needsStatedLayout(e, op.results[0]->type))
    return rhs;
  return fmt::format("gl.convert_layout({}, {}, assert_trivial=True)", rhs,
                     e.layoutOf(op.results[0]->type, op.pos.line));
}

/// The same for an op of several results (a split): each result whose
/// layout Gluon would not infer is converted after the statement.
void stateResultLayouts(Emitter &e, const Operation &op) {
  for (auto *r : op.results)
    if (needsStatedLayout(e, r->type)) {
      std::string name = e.nameFor(r);
      e.line(fmt::format("{} = gl.convert_layout({}, {}, assert_trivial=True)", name, name,
                         e.layoutOf(r->type, op.pos.line)));
    }
}

const Spelling kTensorSpellings[] = {
    {"tt.reduce",
     [](Emitter &e, const Operation &op) {
       std::string fn = e.combineFunction(op);
       std::vector<std::string> srcs;
       for (auto *v : op.operands)
         srcs.push_back(e.expr(v));
       std::string in = srcs.size() == 1 ? srcs[0] : fmt::format("({})", llvm::join(srcs, ", "));
       e.statement(op,
                   fmt::format("gl.reduce({}, {}, {})", in, op.intAttr("axis").value_or(0), fn));
     }},
    {"tt.scan",
     [](Emitter &e, const Operation &op) {
       std::string fn = e.combineFunction(op);
       std::vector<std::string> srcs;
       for (auto *v : op.operands)
         srcs.push_back(e.expr(v));
       std::string in = srcs.size() == 1 ? srcs[0] : fmt::format("({})", llvm::join(srcs, ", "));
       bool reverse = op.attr("reverse") && ir::attrText(op.attr("reverse")) == "true";
       e.statement(op, fmt::format("gl.associative_scan({}, {}, {}{})", in,
                                   op.intAttr("axis").value_or(0), fn,
                                   reverse ? ", reverse=True" : ""));
     }},
    {"tt.expand_dims",
     [](Emitter &e, const Operation &op) {
       int64_t axis = op.intAttr("axis").value_or(0);
       size_t rank = shapeOf(op.results[0]->type).size();
       if (e.readable() && axis >= 0 && size_t(axis) < rank) {
         // x[:, None]: Gluon's indexing is the same expand_dims.
         std::vector<std::string> index(rank, ":");
         index[size_t(axis)] = "None";
         return e.statement(
             op, fmt::format("{}[{}]", e.receiver(op.operands[0]), llvm::join(index, ", ")));
       }
       e.statement(op, fmt::format("gl.expand_dims({}, {})", e.expr(op.operands[0]), axis));
     }},
    {"tt.broadcast",
     [](Emitter &e, const Operation &op) {
       e.statement(op, fmt::format("{}.broadcast_to({})", e.receiver(op.operands[0]),
                                   listText(shapeOf(op.results[0]->type))));
     }},
    {"tt.reshape",
     [](Emitter &e, const Operation &op) {
       std::string rhs = fmt::format("gl.reshape({}, {})", e.expr(op.operands[0]),
                                     listText(shapeOf(op.results[0]->type)));
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
       std::string order = orderList(op.attr("order"));
       e.statement(
           op,
           statedLayout(e, op, fmt::format("gl.permute({}, {})", e.expr(op.operands[0]), order)));
     }},
    {"tt.join",
     [](Emitter &e, const Operation &op) {
       if (e.hasOperands(op, 2))
         e.statement(op, statedLayout(e, op,
                                      fmt::format("gl.join({}, {})", e.expr(op.operands[0]),
                                                  e.expr(op.operands[1]))));
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
       e.statement(op, fmt::format("_unsplat({})", e.expr(op.operands[0])));
     }},
    {"ttg.convert_layout",
     [](Emitter &e, const Operation &op) {
       e.statement(op, fmt::format("gl.convert_layout({}, {})", e.expr(op.operands[0]),
                                   e.layoutOf(op.results[0]->type, op.pos.line)));
     }},
    {"tt.histogram",
     [](Emitter &e, const Operation &op) {
       auto shape = shapeOf(op.results[0]->type);
       std::string args =
           e.expr(op.operand("src")) + ", " + std::to_string(shape.empty() ? 0 : shape[0]);
       if (auto *mask = op.operand("mask"))
         args += ", mask=" + e.expr(mask);
       e.statement(op, fmt::format("gl.histogram({}, layout={})", args,
                                   e.layoutOf(op.results[0]->type, op.pos.line)));
     }},
    {"tt.gather",
     [](Emitter &e, const Operation &op) {
       e.statement(op, fmt::format("gl.gather({}, {}, {})", e.expr(op.operand("src")),
                                   e.expr(op.operand("indices")), op.intAttr("axis").value_or(0)));
     }},
};

} // namespace

void addTensorEmitters(EmitterTable &t) { addSpellings(t, kTensorSpellings); }

} // namespace tilexform::transcribe
