// The readable anchor's folds (see Fold.h). Each rule is what Gluon 3.6's
// semantic does with the spelling it allows:
//  - a binary operator, gl.where and gl.load broadcast a scalar operand to
//    the other operand's shape with the other operand's layout (a tt.splat
//    of that type), and a tensor of shape 1 along a dim to the other's shape
//    with its own layout (a tt.broadcast, whose layout Triton's IR keeps);
//  - a Python number meeting a tensor takes the tensor's dtype (a float
//    16-bit tensor divided by one is promoted to fp32 instead, so that is
//    not folded), bitwise operators promote it from int32, and gl.load's
//    `other` casts it from fp32 or int32 to the element type;
//  - Python evaluates a statement's expression left to right, so the ops
//    written inside it reach the compiler in that order, at the statement.
// The last is why every fold is checked against plain's order: the ops of
// a statement's expression must be the ops right before it in its block,
// in evaluation order (constants aside: the compiler hoists them); where
// they are not, the first operand out of place is written as a statement.
#include "Fold.h"
#include "OpText.h"

#include "tilexform/ir/Dialects.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tilexform::transcribe {

using ir::Operation;
using ir::Value;

namespace {

const std::set<std::string> &binaryOps() {
  static const std::set<std::string> ops = {
      "arith.addi", "arith.addf", "arith.subi",  "arith.subf",  "arith.muli", "arith.mulf",
      "arith.divf", "arith.remf", "arith.divsi", "arith.remsi", "arith.andi", "arith.ori",
      "arith.xori", "arith.shli", "arith.shrsi", "arith.cmpf",  "tt.addptr"};
  return ops;
}

/// A binary op Gluon spells with a Python operator on signed or float
/// operands (the unsigned ones go through bitcasts).
bool isOperatorOp(const Operation &op) {
  if (op.operands.size() != 2 || op.results.size() != 1)
    return false;
  if (op.name == "arith.cmpi") {
    static const std::set<std::string> signedPredicates = {"eq", "ne", "slt", "sle", "sgt", "sge"};
    return signedPredicates.count(op.enumAttr("predicate")) != 0;
  }
  if (op.name == "arith.cmpf") {
    static const std::set<std::string> spelt = {"oeq", "une", "olt", "ole", "ogt", "oge"};
    return spelt.count(op.enumAttr("predicate")) != 0;
  }
  return binaryOps().count(op.name) != 0;
}

/// Ops whose spelling is one expression of their operands, read in order.
bool isExpressionOp(const Operation &op) {
  if (op.results.size() != 1)
    return false;
  llvm::StringRef n(op.name);
  if (n == "tt.reduce" || n == "tt.scan")
    return op.regions.size() == 1;
  if (!op.regions.empty() || n == "arith.constant")
    return false;
  if (n.starts_with("arith.") || n.starts_with("math."))
    return true;
  static const std::set<std::string> ops = {"tt.splat",
                                            "tt.addptr",
                                            "tt.expand_dims",
                                            "tt.broadcast",
                                            "tt.make_range",
                                            "tt.get_program_id",
                                            "tt.get_num_programs",
                                            "tt.load",
                                            "ttg.convert_layout",
                                            "tt.fp_to_fp",
                                            "tt.bitcast",
                                            "tt.precise_sqrt",
                                            "tt.precise_divf",
                                            "tt.extern_elementwise",
                                            "ttg.local_load",
                                            "tt.trans",
                                            "tt.reshape",
                                            "tt.join",
                                            "tt.gather",
                                            "tt.histogram",
                                            "tt.dot",
                                            "ttng.warp_group_dot"};
  return ops.count(op.name) != 0;
}

/// Ops that read the operands they are given inside one expression, in
/// operand order.
bool isConsumer(const Operation &op) {
  if (isExpressionOp(op))
    return true;
  static const std::set<std::string> ops = {"tt.store",       "tt.atomic_rmw",
                                            "tt.atomic_cas",  "tt.reduce.return",
                                            "tt.scan.return", "ttng.warp_group_dot_wait",
                                            "scf.if",         "scf.yield"};
  if (!ops.count(op.name))
    return false;
  if (op.name != "scf.yield")
    return true;
  // A yield is assignments to the loop's or the if's variables; a while's
  // before region is one expression already.
  const Operation *parent = op.parentOp();
  if (!parent)
    return false;
  if (parent->name == "scf.while")
    return op.parentBlock && op.parentBlock->parent && parent->regions.size() == 2 &&
           op.parentBlock->parent == parent->regions[1].get();
  return parent->name == "scf.for" || parent->name == "scf.if";
}

bool hasHints(const Operation &op) {
  return op.attr("tt.divisibility") || op.attr("tt.contiguity") || op.attr("tt.constancy");
}

bool inWhileCondition(const Operation &op) {
  const Operation *parent = op.parentOp();
  return parent && parent->name == "scf.while" && op.parentBlock && !parent->regions.empty() &&
         op.parentBlock->parent == parent->regions[0].get();
}

std::string elementText(const Value *v) {
  return v && v->type ? ir::typeText(elementOf(v->type)) : "";
}

/// The operands Gluon broadcasts operand `k` of `c` against; empty when it
/// broadcasts it against none.
std::vector<unsigned> partnersOf(const Operation &c, unsigned k) {
  if (isOperatorOp(c) && k < 2)
    return {1 - k};
  if (c.name == "arith.select" && c.operands.size() == 3 && (k == 1 || k == 2) &&
      isTensor(c.operands[0]->type))
    return {3 - k};
  if (c.name == "tt.load") {
    const Value *ptr = c.operand("ptr");
    const Value *v = k < c.operands.size() ? c.operands[k] : nullptr;
    if (!ptr || !v || v == ptr || (v != c.operand("mask") && v != c.operand("other")))
      return {};
    for (unsigned i = 0; i < c.operands.size(); ++i)
      if (c.operands[i] == ptr)
        return {i};
  }
  return {};
}

/// `c`'s operands in the order Triton's code generator evaluates their
/// expressions: the keyword arguments the emitter writes for the op
/// (`mask=`, `other=`, `use_acc=`, `pred=`, `mbarriers=`) before its
/// positional ones, as it visits them. The table follows the emitters
/// (src/transcribe/Emit*.cpp): an op that gains a keyword there gains its
/// segment here.
std::vector<const Value *> evaluationOrder(const Operation &c) {
  static const std::map<std::string, std::vector<std::string>> kKeywordSegments = {
      {"tt.load", {"mask", "other"}},
      {"tt.store", {"mask"}},
      {"tt.atomic_rmw", {"mask"}},
      {"tt.histogram", {"mask"}},
      {"ttg.async_copy_global_to_local", {"mask", "other"}},
      {"amdg.buffer_load", {"mask", "other"}},
      {"amdg.buffer_store", {"mask"}},
      {"amdg.buffer_load_to_local", {"mask", "other"}},
      {"ttng.warp_group_dot", {"useC"}},
      {"ttng.tc_gen5_mma", {"useD", "pred", "barriers", "barrier_preds"}},
      {"ttng.tc_gen5_mma_scaled", {"useD", "pred", "barriers", "barrier_preds"}},
      {"ttng.tmem_store", {"pred"}},
      {"ttng.barrier_expect", {"pred"}},
      {"ttng.wait_barrier", {"pred"}},
      {"ttng.arrive_barrier", {"pred"}},
      {"ttng.async_tma_copy_global_to_local", {"pred"}},
      {"ttng.tc_gen5_commit", {"pred"}}};
  std::vector<const Value *> order;
  auto it = kKeywordSegments.find(c.name);
  if (it == kKeywordSegments.end()) {
    order.assign(c.operands.begin(), c.operands.end());
    return order;
  }
  std::set<const Value *> keywords;
  for (const std::string &seg : it->second)
    for (const Value *v : c.operandGroup(seg))
      if (keywords.insert(v).second)
        order.push_back(v);
  for (const Value *v : c.operands)
    if (!keywords.count(v))
      order.push_back(v);
  return order;
}

/// The ops a statement for an op makes, in the order Python makes them
/// (the op itself last), each with the span of the entries before it that
/// are folded into its spelling.
struct Sequence {
  struct Entry {
    const Operation *op;
    /// The ops folded into `op`'s spelling are entries [first, end): right
    /// before it, or for a broadcast (written as its operand, made when the
    /// op that reads it is applied) before its user's later operands.
    size_t first, end;
  };
  std::vector<Entry> entries;
};

/// The ops `c`'s statement makes: each operand's folded expression in
/// evaluation order, the broadcasts Gluon makes when it applies the op,
/// then `c`. With an explicit stack: a folded expression may be as deep as
/// its block is long.
Sequence sequence(const FoldPlan &plan, const Operation &c) {
  struct Frame {
    const Operation *op;
    bool self; // false: a broadcast, made by its user after its operands
    size_t start;
    std::vector<const Value *> order;
    size_t next = 0;
    std::vector<Sequence::Entry> implicit;
  };
  Sequence seq;
  std::vector<Frame> stack;
  stack.push_back({&c, true, 0, evaluationOrder(c), 0, {}});
  while (!stack.empty()) {
    Frame &f = stack.back();
    if (f.next < f.order.size()) {
      const Value *v = f.order[f.next++];
      const Operation *d = v ? v->definingOp : nullptr;
      const FoldKind *k = d ? plan.kindOf(d) : nullptr;
      if (k && *k != FoldKind::Literal)
        stack.push_back(
            {d, *k == FoldKind::Expression, seq.entries.size(), evaluationOrder(*d), 0, {}});
      continue;
    }
    Frame done = std::move(f);
    stack.pop_back();
    seq.entries.insert(seq.entries.end(), done.implicit.begin(), done.implicit.end());
    Sequence::Entry entry{done.op, done.start, seq.entries.size()};
    if (done.self)
      seq.entries.push_back(entry);
    else
      stack.back().implicit.push_back(entry);
  }
  return seq;
}

class Planner {
public:
  explicit Planner(FoldPlan &plan) : plan_(plan) {}

  /// `op` and the ops nested in it, in pre-order.
  void collect(const Operation &op) {
    ir::Module::walkFrom(op, [&](const Operation *o) {
      ops_.push_back(o);
      for (auto &r : o->regions)
        for (auto &b : r->blocks)
          index(*b);
    });
  }

  /// The ops of one block: each op's previous one that is no constant.
  void index(const ir::Block &b) {
    const Operation *last = nullptr;
    for (auto &o : b.ops) {
      previous_[o.get()] = last;
      if (o->name != "arith.constant")
        last = o.get();
    }
  }

  void run() {
    for (const Operation *op : ops_)
      if (op->name == "arith.constant" && literalEverywhere(*op))
        plan_.folds[op] = FoldKind::Literal;
    for (const Operation *op : ops_)
      if ((op->name == "tt.splat" || op->name == "tt.broadcast") && implicitAtUse(*op))
        plan_.folds[op] = FoldKind::Broadcast;
    for (const Operation *op : ops_)
      if (!plan_.kindOf(op) && isExpressionOp(*op) && inlinedAtUse(*op))
        plan_.folds[op] = FoldKind::Expression;
    keepPlainOrder();
    // An expression deeper than anything a kernel writes (a dump's chain
    // of thousands of ops) is cut into statements, so that Python's parser
    // and compiler take it; a cut may put ops out of plain's order again.
    if (boundDepth())
      keepPlainOrder();
  }

private:
  /// The op's one use, in its own block, by an op that reads it inside an
  /// expression; null otherwise.
  static const std::pair<Operation *, unsigned> *oneUse(const Operation &op) {
    if (op.results.size() != 1 || !op.results[0] || op.results[0]->uses.size() != 1)
      return nullptr;
    const auto &use = op.results[0]->uses[0];
    if (!use.first || use.first->parentBlock != op.parentBlock || !isConsumer(*use.first) ||
        inWhileCondition(op) || hasHints(op))
      return nullptr;
    if (use.first->name == "scf.yield" && isToken(op.results[0]->type))
      return nullptr;
    return &use;
  }

  /// Whether `v` is a tensor of `shape` that is written as itself (not left
  /// to Gluon's broadcasting); `structural`: nor could it be.
  bool explicitTensor(const Value *v, const std::vector<int64_t> &shape, bool structural) const {
    if (!v || !v->type || !isTensor(v->type) || shapeOf(v->type) != shape)
      return false;
    const Operation *d = v->definingOp;
    if (!d)
      return true;
    if (structural)
      return d->name != "arith.constant" && d->name != "tt.splat" && d->name != "tt.broadcast";
    const FoldKind *k = plan_.kindOf(d);
    return !k || *k == FoldKind::Expression;
  }

  bool literalEverywhere(const Operation &op) const {
    if (op.results.size() != 1 || !op.results[0] || !isTensor(op.results[0]->type) ||
        op.results[0]->uses.empty() || hasHints(op))
      return false;
    auto lit = constantValue(op);
    if (!lit || !lit->dense)
      return false;
    const Value *r = op.results[0];
    std::string elem = elementText(r);
    for (const auto &[c, k] : r->uses) {
      if (!c || c->parentBlock == nullptr || inWhileCondition(*c))
        return false;
      std::vector<unsigned> partners = partnersOf(*c, k);
      if (partners.empty())
        return false;
      for (unsigned p : partners)
        if (p >= c->operands.size() || c->operands[p] == r ||
            !explicitTensor(c->operands[p], shapeOf(r->type), /*structural=*/true))
          return false;
      llvm::StringRef n(c->name);
      if ((n == "arith.divf" || n == "arith.remf") && (elem == "f16" || elem == "bf16"))
        return false;
      if ((n == "arith.andi" || n == "arith.ori" || n == "arith.xori") && elem != "i32" &&
          elem != "i1")
        return false;
      if ((n == "arith.shli" || n == "arith.shrsi" || n == "tt.addptr") && elem != "i32")
        return false;
      if (n == "tt.load" && !exactAfterCast(lit->text, elem))
        return false;
    }
    return true;
  }

  /// Whether a Python number read as fp32 or int32 and cast to `elem` is
  /// the number itself.
  static bool exactAfterCast(const std::string &text, const std::string &elem) {
    if (elem == "i32" || elem == "f32")
      return true;
    if (elem != "f16" && elem != "bf16")
      return false;
    if (text == "float(\"inf\")" || text == "float(\"-inf\")")
      return true;
    char *end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    return end && *end == '\0' && std::isfinite(v) && v == std::floor(v) && std::fabs(v) <= 256;
  }

  bool implicitAtUse(const Operation &op) const {
    const auto *use = oneUse(op);
    if (!use || op.operands.size() != 1)
      return false;
    const Operation &c = *use->first;
    std::vector<unsigned> partners = partnersOf(c, use->second);
    if (partners.empty())
      return false;
    std::vector<int64_t> full = shapeOf(op.results[0]->type);
    for (unsigned p : partners) {
      if (p >= c.operands.size() || c.operands[p] == op.results[0])
        return false;
      const Value *o = c.operands[p];
      if (explicitTensor(o, full, false))
        continue;
      // Two broadcasts meet: their shapes must broadcast to the result's.
      const Operation *d = o ? o->definingOp : nullptr;
      const FoldKind *k = d ? plan_.kindOf(d) : nullptr;
      if (op.name != "tt.broadcast" || !d || d->name != "tt.broadcast" || !k ||
          *k != FoldKind::Broadcast || d->operands.size() != 1 || !d->operands[0])
        return false;
      std::vector<int64_t> a = shapeOf(op.operands[0]->type), b = shapeOf(d->operands[0]->type);
      if (a.size() != full.size() || b.size() != full.size())
        return false;
      for (size_t i = 0; i < full.size(); ++i)
        if ((a[i] == b[i] ? a[i] : a[i] == 1 ? b[i] : b[i] == 1 ? a[i] : -1) != full[i])
          return false;
    }
    return true;
  }

  bool inlinedAtUse(const Operation &op) const { return oneUse(op) != nullptr; }

  /// The statements: the ops written on their own.
  std::vector<const Operation *> statements() const {
    std::vector<const Operation *> out;
    for (const Operation *op : ops_)
      if (!plan_.kindOf(op) && op->name != "arith.constant" && op->parentBlock)
        out.push_back(op);
    return out;
  }

  /// Plain's order: unfolds until every statement's expression is the ops
  /// right before it in its block, in evaluation order (constants aside).
  /// Walking a statement's ops back from it, the first one not where plain
  /// has it is written as a statement (with the ops folded into it, which
  /// are then checked against it in turn), and the walk goes on past it.
  /// Each op is walked once, by the statement it ends up in.
  void keepPlainOrder() {
    for (const Operation *op : statements()) {
      Sequence seq = sequence(plan_, *op);
      if (seq.entries.size() >= 2)
        keepPlainOrder(seq);
    }
  }

  void keepPlainOrder(const Sequence &seq) {
    const auto &e = seq.entries;
    constexpr size_t kNone = SIZE_MAX;
    // A statement to check: the entry it is, and the entries of its
    // expression [first, end).
    struct Check {
      size_t self, first, end;
    };
    std::vector<Check> work{{e.size() - 1, e.back().first, e.size() - 1}};
    // At the last entry of an unfolded broadcast's expression: where that
    // expression starts, and the statement whose walk skips it there.
    std::vector<std::pair<size_t, size_t>> skip(e.size(), {kNone, kNone});
    while (!work.empty()) {
      Check c = work.back();
      work.pop_back();
      const Operation *at = e[c.self].op;
      for (size_t k = c.end; k > c.first;) {
        size_t i = k - 1;
        if (skip[i].second == c.self) {
          k = skip[i].first;
          continue;
        }
        const Operation *before = previous_.count(at) ? previous_.at(at) : nullptr;
        if (before == e[i].op) {
          at = before;
          k = i;
          continue;
        }
        // Out of place: a statement of its own.
        plan_.folds.erase(e[i].op);
        if (e[i].end > e[i].first)
          work.push_back({i, e[i].first, e[i].end});
        if (e[i].end == i) {
          k = e[i].first;
        } else {
          if (e[i].end > e[i].first)
            skip[e[i].end - 1] = {e[i].first, c.self};
          k = i;
        }
      }
    }
  }

  /// Cuts every statement's expression to kMaxExpressionDepth levels of
  /// folded ops: an op whose own expression reaches that depth is written
  /// as a statement. Returns whether it cut any.
  bool boundDepth() {
    bool cut = false;
    std::unordered_map<const Operation *, size_t> depth;
    for (const Operation *op : statements()) {
      Sequence seq = sequence(plan_, *op);
      // Each entry comes after the ops folded into it.
      for (const Sequence::Entry &entry : seq.entries) {
        size_t deepest = 0;
        for (const Value *v : entry.op->operands) {
          const Operation *d = v ? v->definingOp : nullptr;
          const FoldKind *k = d ? plan_.kindOf(d) : nullptr;
          auto it = k && *k != FoldKind::Literal ? depth.find(d) : depth.end();
          if (it == depth.end())
            continue;
          if (it->second >= kMaxExpressionDepth) {
            plan_.folds.erase(d);
            cut = true;
            continue;
          }
          deepest = std::max(deepest, it->second);
        }
        // A broadcast is written as its operand: no level of its own.
        const FoldKind *k = entry.op == op ? nullptr : plan_.kindOf(entry.op);
        depth[entry.op] = deepest + (k && *k == FoldKind::Broadcast ? 0 : 1);
      }
    }
    return cut;
  }

  FoldPlan &plan_;
  std::vector<const Operation *> ops_;
  std::unordered_map<const Operation *, const Operation *> previous_;
};

} // namespace

FoldPlan planFolds(const Operation &function) {
  FoldPlan plan;
  Planner p(plan);
  for (auto &r : function.regions)
    for (auto &b : r->blocks) {
      p.index(*b);
      for (auto &o : b->ops)
        p.collect(*o);
    }
  p.run();
  return plan;
}

std::vector<const Operation *> expressionOps(const FoldPlan &plan, const Value *v) {
  std::vector<const Operation *> out;
  const Operation *d = v ? v->definingOp : nullptr;
  const FoldKind *k = d ? plan.kindOf(d) : nullptr;
  if (!k || *k == FoldKind::Literal)
    return out;
  for (const Sequence::Entry &e : sequence(plan, *d).entries)
    out.push_back(e.op);
  return out;
}

bool fitsOneExpression(const std::vector<const Operation *> &ops) {
  // Per op: its levels, and the ops its text writes.
  std::unordered_map<const Operation *, std::pair<size_t, size_t>> made;
  for (const Operation *op : ops) {
    size_t levels = 1, written = 1;
    for (const Value *v : op->operands) {
      auto it = v && v->definingOp ? made.find(v->definingOp) : made.end();
      if (it == made.end())
        continue;
      levels = std::max(levels, it->second.first + 1);
      written += it->second.second;
      if (written > kMaxExpressionOps)
        return false;
    }
    if (levels > kMaxExpressionDepth)
      return false;
    made[op] = {levels, written};
  }
  return true;
}

} // namespace tilexform::transcribe
