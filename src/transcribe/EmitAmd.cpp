// AMD-only ops: buffer loads and stores, spelled in Gluon.
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

const Spelling kAmdSpellings[] = {
    {"amdg.buffer_load",
     [](Emitter &e, const Operation &op) {
       std::string args = e.expr(op.operand("ptr")) + ", " + e.expr(op.operand("offsets"));
       if (auto *mask = op.operand("mask"))
         args += ", mask=" + e.expr(mask);
       if (auto *other = op.operand("other"))
         args += ", other=" + e.expr(other);
       if (op.operand("stride"))
         return e.gap("op", op.name + " with stride", op.pos.line,
                      "Gluon's buffer_load takes no stride operand");
       e.statement(op, fmt::format("{}.buffer_load({})", e.amdModule(), args));
     }},
    {"amdg.buffer_store",
     [](Emitter &e, const Operation &op) {
       std::string args = e.expr(op.operand("value")) + ", " + e.expr(op.operand("ptr")) + ", " +
                          e.expr(op.operand("offsets"));
       if (auto *mask = op.operand("mask"))
         args += ", mask=" + e.expr(mask);
       if (op.operand("stride"))
         return e.gap("op", op.name + " with stride", op.pos.line,
                      "Gluon's buffer_store takes no stride operand");
       e.statement(op, fmt::format("{}.buffer_store({})", e.amdModule(), args));
     }},
};

} // namespace

void addAmdEmitters(EmitterTable &t) { addSpellings(t, kAmdSpellings); }

} // namespace tilexform::transcribe
