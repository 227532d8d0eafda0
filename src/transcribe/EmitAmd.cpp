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

/// A buffer op's keywords: `mask=` and `other=` for those of its operands
/// it has (of `names`), then its cache modifier as `keyword` (`cache=".cg"`
/// for cdna3/cdna4's buffer ops).
std::vector<py::Keyword> bufferKeywords(Emitter &e, const Operation &op,
                                        std::initializer_list<const char *> names,
                                        const char *keyword) {
  std::vector<py::Keyword> kw;
  for (const char *n : names)
    if (auto *v = op.operand(n))
      kw.push_back({n, e.expr(v)});
  if (std::string c = cacheModifierOf(op); !c.empty())
    kw.push_back({keyword, py::string(c)});
  return kw;
}

const Spelling kAmdSpellings[] = {
    {"amdg.buffer_load",
     [](Emitter &e, const Operation &op) {
       if (op.operand("stride"))
         return e.gap("op", op.name + " with stride", op.pos.line,
                      "Gluon's buffer_load takes no stride operand");
       e.statement(op, py::call(e.amdModule() + ".buffer_load",
                                {e.expr(op.operand("ptr")), e.expr(op.operand("offsets"))},
                                bufferKeywords(e, op, {"mask", "other"}, "cache")));
     }},
    {"amdg.buffer_store",
     [](Emitter &e, const Operation &op) {
       if (op.operand("stride"))
         return e.gap("op", op.name + " with stride", op.pos.line,
                      "Gluon's buffer_store takes no stride operand");
       e.statement(op, py::call(e.amdModule() + ".buffer_store",
                                {e.expr(op.operand("value")), e.expr(op.operand("ptr")),
                                 e.expr(op.operand("offsets"))},
                                bufferKeywords(e, op, {"mask"}, "cache")));
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
       e.line(py::print(py::call("async_copy.buffer_load_to_shared",
                                 {e.expr(op.operand("dest")), e.expr(op.operand("ptr")),
                                  e.expr(op.operand("offsets"))},
                                 bufferKeywords(e, op, {"mask", "other"}, "cache_modifier"))),
              op.pos.line);
       for (auto *r : op.results)
         e.bind(r, py::none());
     }},
    // The in-register transpose AMD's pass puts before an LDS store of a
    // transposed operand changes only which register holds which element:
    // a convert to its #linear result, which the backend lowers in place.
    {"amdg.in_thread_transpose",
     [](Emitter &e, const Operation &op) {
       e.statement(op, py::call("gl.convert_layout", {e.expr(op.operands[0]),
                                                      e.layout(op.results[0]->type, op.pos.line)}));
     }},
    {"rocdl.s.setprio", [](Emitter &e, const Operation &op) { e.notCarried(op, kPingpongHint); }},
    {"rocdl.sched.barrier",
     [](Emitter &e, const Operation &op) { e.notCarried(op, kPingpongHint); }},
};

} // namespace

void addAmdEmitters(EmitterTable &t) { addSpellings(t, kAmdSpellings); }

} // namespace tilexform::transcribe
