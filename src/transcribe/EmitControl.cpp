// Control flow: loops, branches and returns, spelled in Gluon.
#include "Emitter.h"
#include "OpText.h"

#include "tilexform/ir/Dialects.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

namespace tilexform::transcribe {

using ir::Operation;
using ir::Value;

namespace {

std::string withoutSuffix(std::string n) {
  if (!n.empty() && n[0] == '%')
    n = n.substr(1);
  if (size_t hash = n.find('#'); hash != std::string::npos)
    n.resize(hash);
  size_t us = n.rfind('_');
  if (us != std::string::npos && us > 0 && us + 1 < n.size() &&
      std::all_of(n.begin() + us + 1, n.end(), [](char c) { return std::isdigit(c) != 0; }))
    n.resize(us);
  return n;
}

/// Readable: a carried value is named after what it carries: its own name
/// when the source gave it one, else the value the body yields for it, else
/// its initial value's.
std::string carriedName(Emitter &e, const Value *arg, const Operation *yielded, const Value *init) {
  // A pipeliner's counter is named after its role (`stage`, `phase`): what
  // the body does with it (a barrier wait's parity) or with the value it
  // yields.
  for (const Value *v : {arg, yielded && !yielded->results.empty() ? yielded->results[0] : arg}) {
    std::string n = e.sourceName(v);
    if (Emitter::isCounterName(n))
      return n;
  }
  // A value the loop hands to a counter's variable for the next iteration
  // (`phase, next_phase = next_phase, ...`): that counter's next value.
  if (const ir::Block *b = arg->ownerBlock; b && !b->ops.empty()) {
    const Operation *yield = b->ops.back().get();
    for (size_t j = 0; yield->name == "scf.yield" && j < yield->operands.size(); ++j)
      if (yield->operands[j] == arg && j + 1 < b->arguments.size() && b->arguments[j + 1] != arg)
        if (std::string n = e.sourceName(b->arguments[j + 1]); Emitter::isCounterName(n))
          return "next_" + n;
  }
  // A value the source does not name is carried under its role (a mask,
  // a predicate), not under a name the pipeliner's copies borrowed.
  std::string own = withoutSuffix(arg->name);
  if (e.readable() && yielded && !yielded->results.empty() &&
      !e.namesItsValue(yielded->results[0])) {
    if (std::string role = e.roleOf(yielded->results[0]); role != e.neutralName())
      return role;
    // The argument's name is the borrowed one too (MLIR prints it after it).
    if (own == yielded->loc.name)
      return e.neutralName();
  }
  if (!own.empty() && own.rfind("arg", 0) != 0 && !std::isdigit(static_cast<unsigned char>(own[0])))
    return own;
  for (const Operation *d :
       {yielded, static_cast<const Operation *>(init ? init->definingOp : nullptr)})
    if (d && !d->results.empty()) {
      std::string n = e.sourceName(d->results[0]);
      bool numbered =
          n.size() > 1 && n[0] == 'v' &&
          std::all_of(n.begin() + 1, n.end(), [](char c) { return std::isdigit(c) != 0; });
      if (!n.empty() && !numbered)
        return n;
    }
  return "";
}

void emitFor(Emitter &e, const Operation &op) {
  // scf.for %iv = %lb to %ub step %st iter_args(%a = %init) -> ...
  auto lb = op.operand("lowerBound"), ub = op.operand("upperBound"), st = op.operand("step");
  auto inits = op.operandGroup("initArgs");
  if (op.regions.empty() || op.regions[0]->blocks.empty())
    return e.gap("op", op.name, op.pos.line, "a loop without a body");
  const ir::Block &b = *op.regions[0]->blocks[0];
  if (b.arguments.size() != inits.size() + 1)
    return e.gap("op", op.name, op.pos.line, "loop arguments the reader could not pair");
  const Operation *yield = b.ops.empty() ? nullptr : b.ops.back().get();
  if (yield && yield->name != "scf.yield")
    yield = nullptr;
  // A loop carries each value its yield gives back, one per result (a
  // loop whose results are not bound, as hand-written IR has them, has
  // none to read).
  if ((op.results.size() != inits.size() && !op.results.empty()) || (!inits.empty() && !yield) ||
      (yield && yield->operands.size() != inits.size()))
    return e.gap("damaged", op.name, op.pos.line,
                 fmt::format("a loop with {} carried values, {} results and {} yielded",
                             inits.size(), op.results.size(),
                             yield ? std::to_string(yield->operands.size()) : "none"));
  std::vector<std::string> carried;
  for (size_t i = 0; i < inits.size(); ++i) {
    const Value *arg = b.arguments[i + 1];
    py::Expr init = e.expr(inits[i]);
    // An accumulator an async warpgroup MMA leaves in flight across the
    // back-edge is carried as one from the start.
    const Operation *src = yield && i < yield->operands.size() && yield->operands[i]
                               ? yield->operands[i]->definingOp
                               : nullptr;
    if (src && src->name == "ttng.warp_group_dot" && src->attr("isAsync") &&
        ir::attrText(src->attr("isAsync")) == "true" && isTensor(inits[i]->type)) {
      e.need("hopper_init");
      init = py::call("warpgroup_mma_init", {init});
    }
    if (init.isNone() || isToken(arg->type)) {
      e.bind(arg, py::none());
      carried.push_back("");
      continue;
    }
    // Faithful keeps plain's names: the readable base is not asked for.
    std::string n = e.nameAs(arg, e.readable() ? carriedName(e, arg, src, inits[i]) : "");
    carried.push_back(n);
    e.line(n + " = " + py::print(init));
  }
  // Readable: the induction variable keeps its SSA name only where that is
  // not merely the loop's own (MLIR names it after the loop's results).
  if (e.readable()) {
    std::string iv = withoutSuffix(b.arguments[0]->name);
    bool own = iv.rfind("arg", 0) == 0;
    for (auto *r : op.results)
      own = own || withoutSuffix(r->name) == iv;
    for (const std::string &c : carried)
      own = own || c == iv;
    // The source's own (`for start_n in range(...)`), where the source is
    // at hand: the pipeliner renames the loop's values after what it
    // carries.
    std::string fromSource = e.loopVariable(op);
    e.nameAs(b.arguments[0], !fromSource.empty() ? fromSource : own ? "i" : iv);
  }
  std::string numStages = op.intAttr("tt.num_stages") ? fmt::format("plain: tt.num_stages = {}",
                                                                    *op.intAttr("tt.num_stages"))
                                                      : "";
  e.line(fmt::format("for {} in {}:", e.nameFor(b.arguments[0]),
                     py::print(py::call("range", {e.expr(lb), e.expr(ub), e.expr(st)}))),
         op.pos.line, numStages);
  e.emitNested(&b, carried, /*skipUnchanged=*/true);
  // The loop's results are the carried variables (readable: by their
  // names; faithful: copied to the results' own).
  for (size_t i = 0; i < op.results.size() && i < carried.size(); ++i) {
    if (carried[i].empty()) {
      e.bind(op.results[i], py::none());
      continue;
    }
    if (e.readable())
      e.bind(op.results[i], py::name(carried[i]));
    else
      e.line(fmt::format("{} = {}", e.nameFor(op.results[i]), carried[i]));
  }
}

void emitIf(Emitter &e, const Operation &op) {
  const Value *cond = op.operand("condition");
  // Each branch of an if with results yields them; one without an else
  // cannot have any.
  auto yields = [&](size_t region) -> std::optional<size_t> {
    if (op.regions.size() <= region || op.regions[region]->blocks.empty() ||
        op.regions[region]->blocks[0]->ops.empty())
      return std::nullopt;
    const Operation *last = op.regions[region]->blocks[0]->ops.back().get();
    return last->name == "scf.yield" ? std::optional<size_t>(last->operands.size()) : std::nullopt;
  };
  if (!op.results.empty() && (yields(0) != op.results.size() || yields(1) != op.results.size()))
    return e.gap("damaged", op.name, op.pos.line,
                 fmt::format("an if with {} results whose branches do not both yield them",
                             op.results.size()));
  std::vector<std::string> results;
  for (auto *r : op.results)
    results.push_back(isToken(r->type) ? "" : e.nameFor(r));
  auto branch = [&](const ir::Region *r) {
    e.emitNested(r && !r->blocks.empty() ? r->blocks[0].get() : nullptr, results, false);
  };
  e.line("if " + py::print(e.expr(cond)) + ":", op.pos.line);
  branch(op.regions.empty() ? nullptr : op.regions[0].get());
  if (op.regions.size() > 1 && !op.regions[1]->blocks.empty() &&
      !op.regions[1]->blocks[0]->ops.empty()) {
    e.line("else:");
    branch(op.regions[1].get());
  }
  for (size_t i = 0; i < op.results.size(); ++i)
    if (results[i].empty())
      e.bind(op.results[i], py::none());
}

void emitWhile(Emitter &e, const Operation &op) {
  // scf.while (%a = %init) : (...) -> (...) { before: ...; scf.condition(%c) %a }
  // do { ^bb0(%a2): after; scf.yield %next }, as Triton writes `while c: ...`:
  // the carried values are assigned before the loop, the condition is the
  // before region as one expression, the body reassigns them.
  auto inits = op.operandGroup("inits");
  if (op.regions.size() != 2 || op.regions[0]->blocks.empty() || op.regions[1]->blocks.empty())
    return e.gap("op", op.name, op.pos.line, "a while loop without its two regions");
  const ir::Block &before = *op.regions[0]->blocks[0];
  const ir::Block &after = *op.regions[1]->blocks[0];
  const Operation *cond = before.ops.empty() ? nullptr : before.ops.back().get();
  if (!cond || cond->name != "scf.condition" || before.arguments.size() != inits.size())
    return e.gap("op", op.name, op.pos.line,
                 "a while loop whose condition the reader could not pair");
  auto passed = cond->operandGroup("args");
  const Value *test = cond->operand("condition");
  // The values the condition passes on must be the carried ones, in order.
  if (passed.size() != before.arguments.size() || after.arguments.size() != passed.size() ||
      op.results.size() != passed.size() || !test)
    return e.gap("op", op.name, op.pos.line, "a while loop whose condition passes other values");
  for (size_t i = 0; i < passed.size(); ++i)
    if (passed[i] != before.arguments[i])
      return e.gap("op", op.name, op.pos.line, "a while loop whose condition passes other values");
  std::vector<std::string> carried;
  for (size_t i = 0; i < inits.size(); ++i) {
    const Value *arg = before.arguments[i];
    py::Expr init = e.expr(inits[i]);
    if (init.isNone() || isToken(arg->type)) {
      e.bind(arg, py::none());
      e.bind(after.arguments[i], py::none());
      e.bind(op.results[i], py::none());
      carried.push_back("");
      continue;
    }
    std::string n = e.nameFor(arg);
    e.bind(after.arguments[i], py::name(n));
    e.bind(op.results[i], py::name(n));
    carried.push_back(n);
    e.line(n + " = " + py::print(init));
  }
  std::vector<const Operation *> testOps;
  for (size_t i = 0; i + 1 < before.ops.size(); ++i)
    testOps.push_back(before.ops[i].get());
  if (!fitsOneExpression(testOps) || !e.foldOps(testOps))
    return e.gap("op", op.name, op.pos.line,
                 "a while condition with ops Python cannot write as one expression");
  e.line("while " + py::print(e.expr(test)) + ":", op.pos.line);
  e.emitNested(&after, carried, /*skipUnchanged=*/true);
}

} // namespace

void Emitter::emitFunctionBody(const ir::Region &body) {
  if (body.blocks.empty())
    return;
  std::set<const ir::Block *> seen;
  emitBlockTree(body, *body.blocks.front(), /*nested=*/false, seen);
  for (auto &b : body.blocks)
    if (!seen.count(b.get()))
      gap("op", "cf.br", b->ops.empty() ? 0 : b->ops.front()->pos.line,
          "a block no early exit reaches (control flow that joins again)");
}

// A block, then where its terminator goes: an early exit `cf.cond_br %c,
// ^exit, ^rest` is `if c:` around the exiting block (which returns), and the
// rest follows at the same level.
void Emitter::emitBlockTree(const ir::Region &body, const ir::Block &b, bool nested,
                            std::set<const ir::Block *> &seen) {
  seen.insert(&b);
  const Operation *term = b.ops.empty() ? nullptr : b.ops.back().get();
  for (auto &o : b.ops)
    if (o.get() != term ||
        (term->name != "cf.cond_br" && term->name != "cf.br" && term->name != "tt.return"))
      emitOp(*o);
  if (!term)
    return;
  if (term->name == "tt.return") {
    ++opsTotal_;
    ++opsDone_;
    // A noinline function returns its values; the kernel returns nothing,
    // and only an early exit needs the word.
    std::vector<std::string> values;
    for (auto *v : term->operands)
      values.push_back(py::print(expr(v)));
    if (nested || !values.empty())
      line(fmt::format("return{}{}", values.empty() ? "" : " ", llvm::join(values, ", ")),
           term->pos.line);
    return;
  }
  if (term->name != "cf.cond_br" && term->name != "cf.br")
    return;
  ++opsTotal_;
  auto blockNamed = [&](const std::string &label) -> const ir::Block * {
    for (auto &blk : body.blocks)
      if (blk->label == label)
        return blk.get();
    return nullptr;
  };
  const std::vector<std::string> &labels = term->successors;
  const Value *cond = term->operand("condition");
  if (term->name == "cf.br" || labels.size() != 2 || !cond)
    return gap("op", term->name, term->pos.line,
               "control flow that joins again (only early exits are spelled)");
  const ir::Block *taken = blockNamed(labels[0]), *rest = blockNamed(labels[1]);
  // The exit is the successor that returns; it may be either one, and
  // several exits may share it (`if a: return` then `if b: return` branch
  // to one returning block): each `if` then repeats it, as the source wrote.
  auto returns = [](const ir::Block *blk) {
    return blk && !blk->ops.empty() && blk->ops.back()->name == "tt.return";
  };
  bool negate = false;
  if (!returns(taken) && returns(rest)) {
    std::swap(taken, rest);
    negate = true;
  }
  if (!taken || !rest || !taken->arguments.empty() || !rest->arguments.empty() ||
      (seen.count(taken) && !returns(taken)) || seen.count(rest))
    return gap("op", term->name, term->pos.line,
               "a branch to a block with arguments or two predecessors");
  ++opsDone_;
  py::Expr test = negate ? py::unary("not", py::paren(expr(cond))) : expr(cond);
  line("if " + py::print(test) + ":", term->pos.line);
  // A shared exit block is counted once, however often it is repeated.
  bool again = seen.count(taken) != 0;
  size_t total = opsTotal_, done = opsDone_;
  ++indent_;
  emitBlockTree(body, *taken, /*nested=*/true, seen);
  --indent_;
  if (again && opsTotal_ - total == opsDone_ - done) {
    opsTotal_ = total;
    opsDone_ = done;
  }
  emitBlockTree(body, *rest, nested, seen);
}

namespace {

const Spelling kControlSpellings[] = {
    {"scf.for", emitFor},
    {"scf.if", emitIf},
    {"scf.while", emitWhile},
    {"tt.return", [](Emitter &, const Operation &) {}},
    // A call of one of the dump's noinline functions, each written as a
    // `@gluon.jit(noinline=True)` function of the module.
    {"tt.call",
     [](Emitter &e, const Operation &op) {
       std::string callee = e.functionName(op.symbol);
       if (callee.empty())
         return e.gap("op", "tt.call", op.pos.line,
                      fmt::format("a call of {}, which the dump does not define", op.symbol));
       std::vector<py::Expr> args;
       for (auto *v : op.operands)
         args.push_back(e.expr(v));
       e.statement(op, py::call(callee, std::move(args)));
     }},
};

} // namespace

void addControlEmitters(EmitterTable &t) { addSpellings(t, kControlSpellings); }

} // namespace tilexform::transcribe
