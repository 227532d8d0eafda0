// AMD-only ops: buffer loads and stores, the in-register transpose, and
// the schedule hints Gluon cannot state.
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

constexpr const char *kPingpongHint =
    "a scheduling hint of plain's ping-pong schedule (AMD's BlockPingpong pass); Gluon 3.6 "
    "has no builtin for it and does not run that pass, so the anchor computes the same values "
    "with the backend's default schedule";

/// `, cache=".cg"`: the buffer ops' cache modifier, as cdna3/cdna4 name it.
std::string cacheArgument(const Operation &op) {
  std::string c = cacheModifierOf(op);
  return c.empty() ? "" : fmt::format(", cache={}", pyStringLiteral(c));
}

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
       args += cacheArgument(op);
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
       args += cacheArgument(op);
       e.statement(op, fmt::format("{}.buffer_store({})", e.amdModule(), args));
     }},
    // The direct-to-LDS buffer load of AMD's stream pipeliner (gfx950):
    // cdna4's async copy from a base pointer and offsets into a shared
    // buffer, its token none of Gluon's (commit_group/wait_group order it).
    {"amdg.buffer_load_to_local",
     [](Emitter &e, const Operation &op) {
       if (op.operand("stride"))
         return e.gap("op", op.name + " with stride", op.pos.line,
                      "Gluon's buffer_load_to_shared takes no stride operand");
       e.need("amd_async_copy");
       std::string args = e.expr(op.operand("dest")) + ", " + e.expr(op.operand("ptr")) + ", " +
                          e.expr(op.operand("offsets"));
       if (auto *mask = op.operand("mask"))
         args += ", mask=" + e.expr(mask);
       if (auto *other = op.operand("other"))
         args += ", other=" + e.expr(other);
       if (std::string c = cacheModifierOf(op); !c.empty())
         args += fmt::format(", cache_modifier={}", pyStringLiteral(c));
       e.line(fmt::format("async_copy.buffer_load_to_shared({})  # line {}", args, op.pos.line));
       for (auto *r : op.results)
         e.bind(r, "None");
     }},
    // The in-register transpose AMD's pass puts before an LDS store of a
    // transposed operand changes only which register holds which element:
    // a convert to its #linear result, which the backend lowers in place.
    {"amdg.in_thread_transpose",
     [](Emitter &e, const Operation &op) {
       e.statement(op, fmt::format("gl.convert_layout({}, {})", e.expr(op.operands[0]),
                                   e.layoutOf(op.results[0]->type, op.pos.line)));
     }},
    {"rocdl.s.setprio", [](Emitter &e, const Operation &op) { e.notCarried(op, kPingpongHint); }},
    {"rocdl.sched.barrier",
     [](Emitter &e, const Operation &op) { e.notCarried(op, kPingpongHint); }},
};

} // namespace

void addAmdEmitters(EmitterTable &t) { addSpellings(t, kAmdSpellings); }

} // namespace tilexform::transcribe
