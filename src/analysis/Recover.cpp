#include "tilexform/analysis/Recover.h"

#include "tilexform/hw/ArchData.h"
#include "tilexform/hw/Target.h"
#include "tilexform/layout/Kind.h"
#include "tilexform/source/GeneratedModule.h"
#include "tilexform/support/PythonText.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Support/SHA256.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

namespace tilexform::analysis {

using ir::Operation;
using ir::Value;

namespace {

// What an op is, from the op-schema table.
bool opIs(const Operation *op, ir::OpFlags flag) { return op->schema && op->schema->is(flag); }
bool isDot(const Operation *op) { return opIs(op, ir::OpFlagDot); }
bool isGlobalLoad(const Operation *op) { return opIs(op, ir::OpFlagGlobalLoad); }
bool isAsyncCopy(const Operation *op) { return opIs(op, ir::OpFlagAsyncCopy); }
bool isGlobalStore(const Operation *op) { return opIs(op, ir::OpFlagGlobalStore); }
bool isLoop(const Operation *op) { return opIs(op, ir::OpFlagLoop); }
// Views of a shared buffer: the result aliases the source.
bool isMemdescView(const Operation *op) { return opIs(op, ir::OpFlagMemdescView); }
// Ops that move data without computing on it: a layout flows through them to
// a dot operand.
bool isDataMovement(const Operation *op) { return opIs(op, ir::OpFlagDataMovement); }

// The accumulator operand of a dot (`c`, or tcgen05's `d`).
const Value *accumulatorOf(const Operation *op) {
  if (auto *c = op->operand("c"))
    return c;
  return op->operand("d");
}

// The shared-memory destination of an async copy.
const Value *copyDestination(const Operation *op) {
  if (auto *r = op->operand("result"))
    return r;
  return op->operand("dest");
}

// Which loop-carried init operand feeds region argument `k` (k >= 1) of an
// scf.for, and which region argument operand `idx` of the loop feeds.
const Value *forInit(const Operation *loop, size_t k) {
  auto inits = loop->operandGroup("initArgs");
  return k >= 1 && k - 1 < inits.size() ? inits[k - 1] : nullptr;
}
std::optional<size_t> forInitIndex(const Operation *loop, unsigned idx) {
  if (!loop->schema)
    return std::nullopt;
  int seg = loop->schema->segmentIndex("initArgs");
  if (seg < 0 || size_t(seg) >= loop->segments.size())
    return std::nullopt;
  auto [first, count] = loop->segments[size_t(seg)];
  if (idx < first || idx >= first + count)
    return std::nullopt;
  return idx - first;
}

// Ops Triton 3.6's Gluon has no builtin for: recovering every layout does not
// make a body with these transcribable.
const std::map<std::string, std::string> &noGluonBuiltin() {
  static const std::map<std::string, std::string> m = {
      {"amdg.instruction_sched_hint", "compiler scheduling hint; Gluon has no builtin"},
      {"amdg.cond_barrier", "conditional barrier inserted by the AMD ping-pong scheduler"},
      {"ttg.predicate_stage", "pipeliner-internal op"},
      {"ttg.mask", "pipeliner-internal op"},
      {"amdg.upcast_mxfp", "AMD MX upcast; no Gluon builtin in 3.6"},
  };
  return m;
}

std::string elementTypeTextUncached(mlir::Type t) {
  if (auto r = mlir::dyn_cast<mlir::RankedTensorType>(t))
    return ir::typeText(r.getElementType());
  if (auto m = mlir::dyn_cast<ir::TritonType>(t))
    return ir::typeText(m.info().elementType);
  return ir::typeText(t);
}

std::string memoryOfUncached(mlir::Type t) {
  if (auto m = mlir::dyn_cast<ir::TritonType>(t)) {
    if (m.kind() != ir::TritonTypeKind::MemDesc)
      return "global";
    std::string space = ir::attrText(m.info().memorySpace);
    return space.find("tensor_memory") != std::string::npos ? "tensor_memory" : "shared";
  }
  return "registers";
}

std::string memoryOf(mlir::Type t) { return memoryOfUncached(t); }

/// Types are uniqued and a dump uses few of them at thousands of sites: each
/// is printed once per module.
class TypeTextCache {
public:
  const std::string &element(mlir::Type t) { return get(element_, t, elementTypeTextUncached); }
  const std::string &memory(mlir::Type t) { return get(memory_, t, memoryOfUncached); }

private:
  using Map = llvm::DenseMap<mlir::Type, std::string>;
  static const std::string &get(Map &m, mlir::Type t, std::string (*f)(mlir::Type)) {
    auto it = m.find(t);
    if (it == m.end())
      it = m.try_emplace(t, f(t)).first;
    return it->second;
  }
  Map element_, memory_;
};

std::vector<int64_t> shapeOf(mlir::Type t) {
  if (auto r = mlir::dyn_cast<mlir::RankedTensorType>(t))
    return {r.getShape().begin(), r.getShape().end()};
  if (auto m = mlir::dyn_cast<ir::TritonType>(t))
    return m.info().shape;
  return {};
}

bool isMemdesc(mlir::Type t) {
  auto m = mlir::dyn_cast_or_null<ir::TritonType>(t);
  return m && m.kind() == ir::TritonTypeKind::MemDesc;
}

// The warps a site runs with: a warp_specialize partition's num_warps(N), or
// the module's.
unsigned expectedWarps(const Operation *op, unsigned moduleWarps) {
  for (const Operation *o = op; o; o = o->parentOp()) {
    const ir::Block *b = o->parentBlock;
    if (!b || !b->parent)
      break;
    const std::string &label = b->parent->label;
    auto at = label.find("num_warps(");
    if (at != std::string::npos)
      return unsigned(std::strtoul(label.c_str() + at + 10, nullptr, 10));
  }
  return moduleWarps;
}

class Recoverer {
public:
  Recoverer(const ir::Module &mod, gluon::GluonApi api, std::string arch, size_t maxSites)
      : mod_(mod), api_(api), maxSites_(maxSites) {
    report_.facts = mod.facts;
    report_.api = api;
    report_.arch = arch.empty() ? mod.facts.arch() : arch;
    unsigned idx = 0;
    mod.walk([&](Operation *op) {
      order_[op] = idx++;
      allOps_.push_back(op);
    });
    for (Operation *op : allOps_)
      end_[op] = lastIndexIn(op);
  }

  RecoverReport run() {
    collectLayouts();
    assignRoles();
    proveLayouts();
    checkWarps();
    findUnsupportedOps();
    analyseLoops();
    analyseLoads();
    analyseShared();
    digest();
    return std::move(report_);
  }

private:
  unsigned lastIndexIn(const Operation *op) {
    unsigned last = order_.at(op);
    for (auto &r : op->regions)
      for (auto &b : r->blocks)
        for (auto &o : b->ops)
          last = std::max(last, lastIndexIn(o.get()));
    return last;
  }

  // ---- layouts and sites ----------------------------------------------------

  std::string nameFor(const layout::Encoding &enc);

  size_t layoutIndex(mlir::Type type) {
    // Types are uniqued: one answer per type, worked out once.
    auto cached = byType_.find(type);
    if (cached != byType_.end())
      return cached->second;
    size_t idx = layoutIndexUncached(type);
    byType_[type] = idx;
    return idx;
  }

  size_t layoutIndexUncached(mlir::Type type) {
    auto enc = ir::encodingOf(type);
    if (!enc || !enc->isLayout())
      return npos;
    // Encodings are uniqued with their attribute: one text per encoding.
    auto known = byEncoding_.find(enc.get());
    if (known != byEncoding_.end())
      return known->second;
    std::string text = layout::printEncoding(*enc);
    auto it = byText_.find(text);
    if (it != byText_.end()) {
      byEncoding_[enc.get()] = it->second;
      return it->second;
    }
    RecoveredLayout l;
    l.attr = text;
    l.kind = enc->kind();
    l.encoding = enc;
    l.name = nameFor(*enc);
    l.shape = ir::layoutShapeOf(type);
    l.warps = layout::warpsInLayout(*enc);
    report_.layouts.push_back(std::move(l));
    byText_[text] = report_.layouts.size() - 1;
    byEncoding_[enc.get()] = report_.layouts.size() - 1;
    return report_.layouts.size() - 1;
  }

  /// A use site of `v`'s layout, if it has one: the `index`th `what`
  /// ("result", "operand", "region argument") of `op`.
  void addSite(const Operation *op, const char *what, size_t index, const Value *v) {
    if (!v || !v->type)
      return;
    size_t idx = layoutIndex(v->type);
    if (idx == npos)
      return;
    valueLayout_[v] = idx;
    RecoveredLayout &l = report_.layouts[idx];
    bool listed = !maxSites_ || l.siteCount < maxSites_;
    ++l.siteCount;
    if (l.encoding->isShared()) {
      std::vector<int64_t> buffer = layout::bufferShape(*l.encoding, shapeOf(v->type));
      if (std::find(l.bufferShapes.begin(), l.bufferShapes.end(), buffer) == l.bufferShapes.end())
        l.bufferShapes.push_back(std::move(buffer));
    }
    if (!listed)
      return;
    UseSite s;
    s.op = op ? op->name : "block argument";
    s.position = what;
    s.position += ' ';
    s.position += std::to_string(index);
    if (op) {
      s.line = op->pos.line;
      s.col = op->pos.col;
      s.source = op->loc;
    }
    s.shape = shapeOf(v->type);
    s.elementType = typeTexts_.element(v->type);
    s.memory = typeTexts_.memory(v->type);
    l.sites.push_back(std::move(s));
  }

  void collectLayouts() {
    // Aliases first, in the dump's order, so names and order are stable.
    for (auto &a : mod_.aliases) {
      auto l = mlir::dyn_cast_or_null<ir::LayoutEncodingAttr>(a.attr);
      if (!l || !l.getEncoding()->isLayout())
        continue;
      std::string text = l.getText().str();
      if (byText_.count(text))
        continue;
      RecoveredLayout r;
      r.attr = text;
      r.kind = l.getEncoding()->kind();
      r.encoding = l.getEncoding();
      r.name = a.name;
      r.warps = layout::warpsInLayout(*r.encoding);
      report_.layouts.push_back(std::move(r));
      byText_[text] = report_.layouts.size() - 1;
    }
    for (Operation *op : allOps_) {
      for (size_t i = 0; i < op->results.size(); ++i)
        addSite(op, "result", i, op->results[i]);
      for (size_t i = 0; i < op->operands.size(); ++i)
        addSite(op, "operand", i, op->operands[i]);
      for (auto &r : op->regions)
        for (auto &b : r->blocks)
          for (size_t i = 0; i < b->arguments.size(); ++i)
            addSite(op, "region argument", i, b->arguments[i]);
    }
    // A layout only ever written as an alias (never used) keeps its place
    // but has no shape: evaluate it where proofs need one.
  }

  // ---- roles ----------------------------------------------------------------

  // The memdesc a view (memdesc_index, trans, ...) or loop argument stands for.
  const Value *bufferRoot(const Value *v, int depth = 0) {
    if (depth > 64 || !v)
      return v;
    if (v->definingOp && isMemdescView(v->definingOp) && v->definingOp->operand("src"))
      return bufferRoot(v->definingOp->operand("src"), depth + 1);
    if (v->ownerBlock) {
      // A loop-carried view: its initial value comes from the loop operands.
      const Operation *loop = v->ownerBlock->parent ? v->ownerBlock->parent->parent : nullptr;
      if (loop && loop->name == "scf.for") {
        auto &args = v->ownerBlock->arguments;
        auto it = std::find(args.begin(), args.end(), v);
        if (const Value *init = forInit(loop, size_t(it - args.begin())))
          return bufferRoot(init, depth + 1);
      }
    }
    return v;
  }

  // Every value that holds the same buffer as `root` (views, loop-carried
  // views), found by walking forward.
  void bufferAliases(const Value *root, std::vector<const Value *> &out) {
    // Breadth first: `work` only grows; `head` is the front of the queue.
    llvm::SmallVector<const Value *, 16> work{root};
    llvm::SmallPtrSet<const Value *, 16> seen{root};
    for (size_t head = 0; head < work.size(); ++head) {
      const Value *v = work[head];
      out.push_back(v);
      for (auto &[user, idx] : v->uses) {
        std::vector<const Value *> next;
        if (isMemdescView(user) && idx == 0)
          next.assign(user->results.begin(), user->results.end());
        else
          next = carriedBy(user, idx);
        for (auto *n : next)
          if (n && isMemdesc(n->type) && seen.insert(n).second)
            work.push_back(n);
      }
    }
  }

  // Values a loop or yield passes operand `idx` of `op` on to.
  std::vector<const Value *> carriedBy(const Operation *op, unsigned idx) {
    std::vector<const Value *> out;
    if (op->name == "scf.yield") {
      const Operation *loop = op->parentOp();
      if (loop && loop->name == "scf.for") {
        if (idx < loop->results.size())
          out.push_back(loop->results[idx]);
        if (!loop->regions.empty() && idx + 1 < loop->regions[0]->blocks[0]->arguments.size())
          out.push_back(loop->regions[0]->blocks[0]->arguments[idx + 1]);
      } else if (loop && loop->name == "scf.if" && idx < loop->results.size()) {
        out.push_back(loop->results[idx]);
      }
    } else if (op->name == "scf.for") {
      if (auto k = forInitIndex(op, idx)) {
        if (*k < op->results.size())
          out.push_back(op->results[*k]);
        if (!op->regions.empty() && *k + 1 < op->regions[0]->blocks[0]->arguments.size())
          out.push_back(op->regions[0]->blocks[0]->arguments[*k + 1]);
      }
    }
    return out;
  }

  // Which dot operands (bit 0: A, bit 1: B) the data in `start` reaches by
  // moves, shared-memory round trips and loop carries.
  unsigned reachesDotOperand(const Value *start) {
    auto memo = reach_.find(start);
    if (memo != reach_.end())
      return memo->second;
    unsigned bits = 0;
    llvm::SmallVector<const Value *, 16> work{start};
    llvm::SmallPtrSet<const Value *, 16> seen{start};
    auto push = [&](const Value *v) {
      if (v && seen.insert(v).second)
        work.push_back(v);
    };
    int budget = 4096;
    for (size_t head = 0; head < work.size() && --budget > 0; ++head) {
      const Value *v = work[head];
      for (auto &[user, idx] : v->uses) {
        const std::string &n = user->name;
        if (isDot(user)) {
          if (idx == 0)
            bits |= 1;
          else if (n == "tt.dot_scaled") {
            // a [scale], b [scale], c: use the operand's own dot_op index.
            auto enc = ir::encodingOf(v->type);
            if (auto *d = enc ? enc->as<layout::DotOperandEncoding>() : nullptr)
              bits |= d->opIdx == 0 ? 1 : 2;
          } else if (idx == 1)
            bits |= 2;
          continue;
        }
        if (n == "ttg.local_store" && idx == 0 && user->operand("dst")) {
          std::vector<const Value *> views;
          bufferAliases(bufferRoot(user->operand("dst")), views);
          for (auto *w : views)
            push(w);
          continue;
        }
        if (isAsyncCopy(user) && idx == 0) {
          const Value *dst = copyDestination(user);
          if (dst && dst != v && isMemdesc(dst->type)) {
            std::vector<const Value *> views;
            bufferAliases(bufferRoot(dst), views);
            for (auto *w : views)
              push(w);
          }
          continue;
        }
        if (isDataMovement(user)) {
          for (auto *r : user->results)
            push(r);
          if (isMemdesc(v->type) && isMemdescView(user)) {
            std::vector<const Value *> views;
            for (auto *r : user->results)
              bufferAliases(r, views);
            for (auto *w : views)
              push(w);
          }
          continue;
        }
        for (auto *c : carriedBy(user, idx))
          push(c);
      }
    }
    reach_[start] = bits;
    return bits;
  }

  void assignRoles() {
    std::vector<std::set<std::string>> roles(report_.layouts.size());
    auto note = [&](const Value *v, const std::string &role) {
      auto it = valueLayout_.find(v);
      if (it != valueLayout_.end())
        roles[it->second].insert(role);
    };
    for (Operation *op : allOps_) {
      const std::string &n = op->name;
      if (isDot(op)) {
        for (auto *r : op->results)
          note(r, "accumulator");
        if (const Value *acc = accumulatorOf(op))
          note(acc, "accumulator");
      }
      if (isGlobalLoad(op))
        for (auto *r : op->results)
          note(r, "global_load");
      if (isAsyncCopy(op) && !op->operands.empty() && !isMemdesc(op->operands[0]->type))
        note(op->operands[0], "global_load");
      if (isGlobalStore(op)) {
        // The stored values (and masks): every register tensor that is not
        // a tensor of pointers.
        for (auto *o : op->operands) {
          auto t = mlir::dyn_cast_or_null<mlir::RankedTensorType>(o->type);
          if (t && !mlir::isa<ir::TritonType>(t.getElementType()))
            note(o, "global_store");
        }
      }
      if (n == "tt.reduce" || n == "tt.scan") {
        for (auto *o : op->operands)
          note(o, "reduction");
        for (auto *r : op->results)
          note(r, "reduction");
      }
    }
    for (auto &[v, idx] : valueLayout_) {
      auto enc = report_.layouts[idx].encoding;
      if (auto *d = enc->as<layout::DotOperandEncoding>()) {
        roles[idx].insert(d->opIdx == 0 ? "operand_a" : "operand_b");
        continue;
      }
      unsigned bits = reachesDotOperand(v);
      bool shared = isMemdesc(v->type);
      if (bits & 1)
        roles[idx].insert(shared ? "shared_a" : "load_a");
      if (bits & 2)
        roles[idx].insert(shared ? "shared_b" : "load_b");
      if (shared)
        roles[idx].insert(memoryOf(v->type) == "tensor_memory" ? "tensor_memory"
                                                               : "shared_staging");
    }
    static const std::vector<std::string> priority = {
        "accumulator", "operand_a",    "operand_b",     "shared_a",
        "shared_b",    "load_a",       "load_b",        "reduction",
        "global_load", "global_store", "tensor_memory", "shared_staging"};
    for (size_t i = 0; i < report_.layouts.size(); ++i) {
      auto &l = report_.layouts[i];
      for (auto &p : priority)
        if (roles[i].count(p))
          l.roles.push_back(p);
      l.role = l.roles.empty() ? (l.sites.empty() ? "unused" : "elementwise") : l.roles.front();
      if (l.shape.empty() && !l.sites.empty())
        l.shape = l.sites.front().shape;
    }
  }

  // ---- proofs ---------------------------------------------------------------

  void proveLayouts() {
    for (auto &l : report_.layouts) {
      auto g = gluon::emitGluon(*l.encoding, api_);
      if (!g.expr && l.encoding->isShared() && l.bufferShapes.size() == 1) {
        // A shared layout Gluon has no class for, used at one buffer shape:
        // its own linear layout there, which is the same memory layout.
        auto lin = gluon::emitGluonAsLinear(*l.encoding, l.bufferShapes.front(), api_);
        if (lin.expr) {
          auto rt = gluon::checkLinearRoundTrip(*l.encoding, *lin.expr, l.bufferShapes.front());
          l.gluon = lin.expr;
          l.asLinear = true;
          l.status = rt.exact ? Verdict::Exact : Verdict::Differs;
          l.reason = rt.exact ? fmt::format("{}; written as its linear layout at {}", g.reason,
                                            shapeText(l.bufferShapes.front()))
                              : rt.detail;
          continue;
        }
      }
      if (!g.expr && l.encoding->isShared() && l.bufferShapes.size() > 1) {
        for (auto &shape : l.bufferShapes) {
          auto lin = gluon::emitGluonAsLinear(*l.encoding, shape, api_);
          if (!lin.expr || !gluon::checkLinearRoundTrip(*l.encoding, *lin.expr, shape).exact) {
            l.gluonAtShape.clear();
            break;
          }
          l.gluonAtShape.emplace_back(shape, *lin.expr);
        }
      }
      if (!g.expr) {
        l.status = Verdict::Unrecoverable;
        l.reason = g.reason;
        if (l.encoding->isShared() && l.bufferShapes.size() > 1)
          l.reason += fmt::format(" (nor can its linear layout stand for it: it is used at {} "
                                  "buffer shapes)",
                                  l.bufferShapes.size());
        continue;
      }
      l.gluon = g.expr;
      std::vector<int64_t> shape = l.shape;
      if (!l.sites.empty())
        shape = layout::bufferShape(*l.encoding, std::move(shape));
      if (l.encoding->is<layout::OpaqueEncoding>())
        shape.clear();
      auto rt = gluon::checkRoundTrip(*l.encoding, *g.expr, shape);
      l.status = rt.exact ? Verdict::Exact : Verdict::Differs;
      l.reason = rt.detail;
    }
  }

  void checkWarps() {
    unsigned moduleWarps = unsigned(mod_.facts.numWarps.value_or(0));
    if (!moduleWarps)
      return;
    std::set<std::string> reported;
    for (Operation *op : allOps_) {
      auto check = [&](const Value *v) {
        auto it = valueLayout_.find(v);
        if (it == valueLayout_.end())
          return;
        auto &l = report_.layouts[it->second];
        if (!l.warps || !l.encoding->isDistributed())
          return;
        unsigned expected = expectedWarps(op, moduleWarps);
        if (l.warps != expected && reported.insert(l.name).second)
          report_.warpMismatches.push_back({l.name, l.warps, expected, op->pos.line});
      };
      for (auto *r : op->results)
        check(r);
    }
  }

  void findUnsupportedOps() {
    std::map<std::string, UnsupportedOp> found;
    for (Operation *op : allOps_) {
      std::string reason;
      auto it = noGluonBuiltin().find(op->name);
      if (it != noGluonBuiltin().end())
        reason = it->second;
      else if (!op->known)
        reason = "an op tilexform does not know (newer Triton?)";
      else
        continue;
      auto &u = found[op->name];
      if (u.count++ == 0) {
        u.name = op->name;
        u.line = op->pos.line;
        u.reason = reason;
      }
    }
    for (auto &[n, u] : found)
      report_.unsupportedOps.push_back(u);
  }

  // ---- loops ----------------------------------------------------------------

  void analyseLoops() {
    for (Operation *op : allOps_) {
      if (!isLoop(op))
        continue;
      LoopFacts f;
      f.op = op->name;
      f.line = op->pos.line;
      f.function = op->enclosingFunction();
      f.source = op->loc;
      f.numStages = op->intAttr("tt.num_stages");
      f.iterArgs = unsigned(op->results.size());
      std::set<const Value *> yielded;
      for (unsigned i = order_[op] + 1; i <= end_[op]; ++i) {
        Operation *in = allOps_[i];
        const std::string &n = in->name;
        if (isGlobalLoad(in) || isAsyncCopy(in))
          ++f.loads;
        if (isAsyncCopy(in))
          ++f.asyncCopies;
        if (isDot(in))
          ++f.dots;
        if (n == "ttg.memdesc_index" && in->operand("src")) {
          auto t = mlir::dyn_cast_or_null<ir::TritonType>(in->operand("src")->type);
          if (t && !t.info().shape.empty() && !t.info().elementType.isInteger(64))
            f.buffers = std::max<unsigned>(f.buffers, unsigned(t.info().shape[0]));
        }
        if (n == "scf.yield" && in->parentOp() == op)
          for (auto *y : in->operands)
            yielded.insert(y);
      }
      // Loads issued for a later iteration: a loaded value or a shared buffer
      // the loop carries to its next iteration.
      bool carriesBuffer = false;
      for (auto *y : yielded) {
        if (isMemdesc(y->type) && memoryOf(y->type) == "shared")
          carriesBuffer = true;
        if (y->definingOp && isGlobalLoad(y->definingOp))
          f.prefetch = true;
      }
      if (carriesBuffer && f.loads > 0)
        f.prefetch = true;
      if (f.numStages) {
        f.verdict = *f.numStages > 1 ? Verdict::Pipelined : Verdict::NotPipelined;
        f.why = fmt::format("tt.num_stages = {} on the loop", *f.numStages);
      } else if (f.asyncCopies > 0 && f.buffers >= 2) {
        f.verdict = Verdict::Pipelined;
        f.why =
            fmt::format("{} async copies into {}-buffered shared memory", f.asyncCopies, f.buffers);
      } else if (f.prefetch) {
        f.verdict = Verdict::Pipelined;
        f.why = "global loads are issued one iteration ahead (loop-carried shared buffers or "
                "loaded values)";
      } else if (f.loads > 0) {
        f.verdict = Verdict::NotPipelined;
        f.why = fmt::format("{} global loads consumed in the same iteration, no multi-buffering",
                            f.loads);
      } else {
        f.verdict = Verdict::Inconclusive;
        f.why = "no global loads in the loop";
      }
      report_.loops.push_back(std::move(f));
    }
  }

  // ---- load operand buckets -------------------------------------------------

  bool insideLoop(const Operation *op) {
    for (auto *p = op->parentOp(); p; p = p->parentOp())
      if (isLoop(p))
        return true;
    return false;
  }

  void analyseLoads() {
    for (Operation *op : allOps_) {
      if (op->name != "tt.load" && op->name != "amdg.buffer_load")
        continue;
      LoadSite s;
      s.op = op->name;
      s.line = op->pos.line;
      s.stride = op->operand("stride") != nullptr;
      // Every operand but the stride: ptr[, offsets][, mask[, other]].
      s.operands = unsigned(op->operands.size()) - (s.stride ? 1 : 0);
      s.bucket = !op->operand("mask") ? "bare" : !op->operand("other") ? "mask-only" : "mask+other";
      s.contiguity = op->intAttr("contiguity");
      s.inLoop = insideLoop(op);
      report_.loads.push_back(std::move(s));
    }
  }

  // ---- shared memory --------------------------------------------------------

  /// a + b, held at the int64 bounds instead of wrapping.
  static int64_t saturatingAdd(int64_t a, int64_t b) {
    int64_t sum = 0;
    if (!__builtin_add_overflow(a, b, &sum))
      return sum;
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }

  void analyseShared() {
    auto &sh = report_.shared;
    sh.compilerBytes = mod_.facts.shared;
    sh.capacity = hw::sharedCapacity(report_.arch);
    if (!sh.capacity)
      sh.capacityNote = report_.arch.empty() ? "the module names no target; pass --arch"
                        : !hw::warpSize(report_.arch)
                            ? hw::declinedNote(report_.arch)
                            : "no shared-memory/LDS figure for " + report_.arch +
                                  " in data/hw (declined "
                                  "rather than guessed)";
    struct Interval {
      unsigned from, to;
      int64_t bytes;
    };
    std::vector<Interval> intervals;
    for (Operation *op : allOps_) {
      if (op->name != "ttg.local_alloc" || op->results.empty())
        continue;
      const Value *root = op->results[0];
      auto t = mlir::dyn_cast_or_null<ir::TritonType>(root->type);
      if (!t || memoryOf(root->type) != "shared")
        continue;
      auto &info = t.info();
      std::vector<int64_t> dims = info.allocShape.empty() ? info.shape : info.allocShape;
      // The reader bounds every shape (2^31 - 1 elements, 2^40 bits); the
      // arithmetic is checked all the same, and an unknown (dynamic) extent
      // leaves the size unknown rather than a wrapped number.
      int64_t elems = 1;
      bool sized = true;
      for (auto d : dims)
        sized = sized && d >= 0 && !__builtin_mul_overflow(elems, d, &elems);
      unsigned bits =
          info.elementType.isIntOrFloat() ? info.elementType.getIntOrFloatBitWidth() : 8;
      int64_t totalBits = 0;
      sized = sized && !__builtin_mul_overflow(elems, int64_t(bits), &totalBits) &&
              totalBits <= std::numeric_limits<int64_t>::max() - 7;
      if (!sized)
        continue;
      SharedAllocation a;
      a.op = op->name;
      a.line = op->pos.line;
      a.name = root->name;
      a.type = ir::typeText(root->type);
      a.bytes = (totalBits + 7) / 8;
      // Live from the allocation to the last use of any view of it; a use
      // inside a loop the allocation is outside of keeps it live for the loop.
      std::vector<const Value *> views;
      bufferAliases(root, views);
      unsigned from = order_[op], to = from;
      for (auto *v : views)
        for (auto &[user, idx] : v->uses) {
          unsigned last = order_[user];
          for (auto *p = user->parentOp(); p; p = p->parentOp())
            if (isLoop(p) && order_[p] > from)
              last = std::max(last, end_[p]);
          to = std::max(to, last);
        }
      a.firstLine = op->pos.line;
      a.lastLine = allOps_[to]->pos.line;
      intervals.push_back({from, to, a.bytes});
      sh.declaredBytes = saturatingAdd(sh.declaredBytes, a.bytes);
      sh.allocations.push_back(std::move(a));
    }
    std::vector<std::pair<unsigned, int64_t>> events;
    for (auto &iv : intervals) {
      events.emplace_back(iv.from, iv.bytes);
      events.emplace_back(iv.to + 1, -iv.bytes);
    }
    std::sort(events.begin(), events.end(), [](auto &a, auto &b) {
      return a.first != b.first ? a.first < b.first : a.second < b.second;
    });
    int64_t live = 0;
    for (auto &[at, delta] : events) {
      live = saturatingAdd(live, delta);
      sh.peakBytes = std::max(sh.peakBytes, live);
    }
  }

  // ---- digest ---------------------------------------------------------------

  void digest() {
    std::vector<std::string> ctors;
    for (auto &l : report_.layouts)
      if (l.gluon)
        ctors.push_back(*l.gluon);
    std::sort(ctors.begin(), ctors.end());
    ctors.erase(std::unique(ctors.begin(), ctors.end()), ctors.end());
    std::string text;
    for (auto &c : ctors)
      text += c + "\n";
    text += fmt::format("num_warps={}\n", mod_.facts.numWarps.value_or(0));
    llvm::SHA256 sha;
    sha.update(llvm::StringRef(text));
    auto hash = sha.final();
    std::string hex;
    for (uint8_t b : hash)
      hex += fmt::format("{:02x}", b);
    report_.constantsDigest = "sha256:" + hex;
  }

  static constexpr size_t npos = size_t(-1);
  const ir::Module &mod_;
  gluon::GluonApi api_;
  RecoverReport report_;
  std::vector<Operation *> allOps_;
  llvm::DenseMap<const Operation *, unsigned> order_, end_;
  std::map<std::string, size_t> byText_;
  TypeTextCache typeTexts_;
  size_t maxSites_ = 0; // sites listed per layout (0: all)
  std::unordered_map<const layout::Encoding *, size_t> byEncoding_;
  llvm::DenseMap<mlir::Type, size_t> byType_;
  std::unordered_map<const Value *, size_t> valueLayout_;
  std::unordered_map<const Value *, unsigned> reach_;
};

std::string Recoverer::nameFor(const layout::Encoding &enc) {
  auto parentName = [&](const layout::EncodingPtr &p) -> std::string {
    std::string t = layout::printEncoding(*p);
    auto it = byText_.find(t);
    std::string n = it != byText_.end() ? report_.layouts[it->second].name : p->kind();
    return n[0] == '#' ? n.substr(1) : n;
  };
  std::string base;
  if (auto *s = enc.as<layout::SliceEncoding>())
    base = fmt::format("slice{}_{}", s->dim, parentName(s->parent));
  else if (auto *d = enc.as<layout::DotOperandEncoding>())
    base = fmt::format("dot{}_{}{}", d->opIdx, parentName(d->parent),
                       d->kWidth ? fmt::format("_k{}", d->kWidth) : "");
  else
    base = enc.kind();
  // Names are Python identifiers in the anchor module: `ttig.dpas` -> `ttig_dpas`.
  for (char &c : base)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      c = '_';
  std::string name = base;
  for (int i = 1; std::any_of(report_.layouts.begin(), report_.layouts.end(),
                              [&](const RecoveredLayout &l) { return l.name == name; });
       ++i)
    name = fmt::format("{}_{}", base, i);
  return name;
}

std::string constantName(const std::string &role) {
  static const std::map<std::string, std::string> names = {
      {"accumulator", "ACC_LAYOUT"},     {"operand_a", "A_OPERAND_LAYOUT"},
      {"operand_b", "B_OPERAND_LAYOUT"}, {"shared_a", "A_SHARED_LAYOUT"},
      {"shared_b", "B_SHARED_LAYOUT"},   {"load_a", "A_LOAD_LAYOUT"},
      {"load_b", "B_LOAD_LAYOUT"},       {"reduction", "REDUCE_LAYOUT"},
      {"global_load", "LOAD_LAYOUT"},    {"global_store", "STORE_LAYOUT"},
      {"tensor_memory", "TMEM_LAYOUT"},  {"shared_staging", "SHARED_LAYOUT"},
      {"elementwise", "LAYOUT"},         {"unused", "UNUSED_LAYOUT"}};
  auto it = names.find(role);
  return it == names.end() ? "LAYOUT" : it->second;
}

} // namespace

RecoverReport recover(const ir::Module &mod, gluon::GluonApi api, const std::string &arch,
                      size_t maxSites) {
  return Recoverer(mod, api, arch, maxSites).run();
}

namespace {

/// The layout of the report that is the parent of layout `i` (a slice or dot
/// operand of it), if that parent is itself recovered.
std::optional<size_t> parentIndex(const RecoverReport &r, size_t i) {
  const RecoveredLayout &l = r.layouts[i];
  if (!l.encoding || !l.gluon)
    return std::nullopt;
  layout::EncodingPtr parent;
  if (auto *s = l.encoding->as<layout::SliceEncoding>())
    parent = s->parent;
  else if (auto *d = l.encoding->as<layout::DotOperandEncoding>())
    parent = d->parent;
  if (!parent)
    return std::nullopt;
  for (size_t k = 0; k < r.layouts.size(); ++k)
    if (k != i && r.layouts[k].gluon && r.layouts[k].encoding && *r.layouts[k].encoding == *parent)
      return k;
  return std::nullopt;
}

std::string stem(const std::string &name) {
  llvm::StringRef n(name);
  n.consume_back("_LAYOUT");
  return n.str();
}

/// The names of the constants, given each layout's recovered parent.
std::vector<std::string> constantNames(const RecoverReport &r,
                                       const std::vector<std::optional<size_t>> &parents) {
  size_t n = r.layouts.size();
  std::vector<std::string> names(n);
  std::set<std::string> taken;
  auto claim = [&](const std::string &base) {
    std::string name = base;
    for (int k = 1; taken.count(name); ++k)
      name = fmt::format("{}_{}", base, k);
    taken.insert(name);
    return name;
  };
  // Shared layouts by what they are (one buffer's layout often serves both
  // operands); the others by role, for every layout that is no slice or
  // operand of another.
  for (size_t i = 0; i < n; ++i) {
    if (!r.layouts[i].gluon || parents[i])
      continue;
    const layout::KindInfo *kind =
        r.layouts[i].encoding ? layout::kindOf(*r.layouts[i].encoding) : nullptr;
    names[i] = claim(kind && kind->constantName ? kind->constantName(*r.layouts[i].encoding)
                                                : constantName(r.layouts[i].role));
  }
  // Then each derived layout from its parent's name (chains resolve in turns).
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < n; ++i) {
      if (!names[i].empty() || !parents[i] || names[*parents[i]].empty())
        continue;
      const RecoveredLayout &l = r.layouts[i];
      std::string base;
      if (auto *s = l.encoding->as<layout::SliceEncoding>())
        base = fmt::format("{}_SLICE{}_LAYOUT", stem(names[*parents[i]]), s->dim);
      else if (l.role == "operand_a" || l.role == "operand_b")
        base = constantName(l.role);
      else
        base = fmt::format("{}_OPERAND{}_LAYOUT", stem(names[*parents[i]]),
                           l.encoding->as<layout::DotOperandEncoding>()->opIdx);
      names[i] = claim(base);
      progress = true;
    }
  }
  // A cycle cannot occur (a parent is strictly smaller); name any rest by role.
  for (size_t i = 0; i < n; ++i)
    if (r.layouts[i].gluon && names[i].empty())
      names[i] = claim(constantName(r.layouts[i].role));
  return names;
}

std::vector<std::optional<size_t>> parentIndices(const RecoverReport &r) {
  std::vector<std::optional<size_t>> parents(r.layouts.size());
  for (size_t i = 0; i < parents.size(); ++i)
    parents[i] = parentIndex(r, i);
  return parents;
}

} // namespace

std::vector<std::string> layoutConstantNames(const RecoverReport &r) {
  return constantNames(r, parentIndices(r));
}

std::vector<LayoutConstant> layoutConstants(const RecoverReport &r) {
  std::vector<std::optional<size_t>> parents = parentIndices(r);
  std::vector<std::string> names = constantNames(r, parents);
  size_t n = r.layouts.size();
  std::vector<bool> emitted(n, false);
  std::vector<LayoutConstant> out;
  // Depth-first over parents, so a parent is defined before its users.
  std::function<void(size_t)> emit = [&](size_t i) {
    if (emitted[i] || !r.layouts[i].gluon)
      return;
    emitted[i] = true;
    std::string expr = *r.layouts[i].gluon;
    std::optional<size_t> named;
    if (auto p = parents[i]) {
      emit(*p);
      std::string inline_ = "parent=" + *r.layouts[*p].gluon;
      size_t at = expr.find(inline_);
      if (at != std::string::npos) {
        expr.replace(at, inline_.size(), "parent=" + names[*p]);
        named = p;
      }
    }
    out.push_back(LayoutConstant{i, names[i], std::move(expr), named});
  };
  for (size_t i = 0; i < n; ++i)
    emit(i);
  return out;
}

llvm::Expected<std::string> anchorModule(const RecoverReport &r, const std::string &sourcePath) {
  std::string out;
  out +=
      "# Gluon layouts recovered by tilexform from a plain Triton dump. Generated; do not edit.\n";
  // Python takes a module's encoding from its first two lines: stated here,
  // before any line that holds input text (a dump named `coding:utf-7`).
  out += "# -*- coding: utf-8 -*-\n";
  out += fmt::format("# source dump: {}\n", pyCommentText(sourcePath));
  out += fmt::format("# target: {}\n",
                     r.facts.target.empty() ? "unknown" : pyCommentText(r.facts.target));
  out += fmt::format("# num_warps: {}\n",
                     r.facts.numWarps ? std::to_string(*r.facts.numWarps) : "unknown");
  out += fmt::format("# threads_per_warp: {}\n",
                     r.facts.threadsPerWarp ? std::to_string(*r.facts.threadsPerWarp) : "unknown");
  out += fmt::format("# gluon api: {}\n", gluon::gluonApiName(r.api));
  out += fmt::format("# constants-digest: {}\n", r.constantsDigest);
  out += "from triton.experimental.gluon import language as gl\n";
  // Constants in the order parents come first; a layout with no constructor
  // is a comment where the report lists it.
  std::vector<LayoutConstant> constants = layoutConstants(r);
  std::vector<std::optional<size_t>> order;
  size_t next = 0;
  for (auto &c : constants) {
    for (; next < c.index; ++next)
      if (!r.layouts[next].gluon)
        order.push_back(next);
    order.push_back(std::nullopt);
  }
  for (; next < r.layouts.size(); ++next)
    if (!r.layouts[next].gluon)
      order.push_back(next);
  size_t constant = 0;
  for (auto &slot : order) {
    size_t i = slot ? *slot : constants[constant].index;
    const RecoveredLayout &l = r.layouts[i];
    out += "\n";
    std::string sites;
    if (!l.sites.empty()) {
      auto &s = l.sites.front();
      sites = fmt::format("{} sites, first: {} {} at line {}{}", l.siteCount, s.op, s.position,
                          s.line, s.source.name.empty() ? "" : " (" + s.source.name + ")");
    } else {
      sites = "defined but not used";
    }
    out += fmt::format("# {} ({}), role {}: {}\n", pyCommentText(l.name), pyCommentText(l.kind),
                       pyCommentText(l.role), pyCommentText(sites));
    if (!l.gluon) {
      out += fmt::format("# UNRECOVERABLE: {}\n# {}\n", pyCommentText(l.reason),
                         pyCommentText(l.attr));
      continue;
    }
    const LayoutConstant &c = constants[constant++];
    out += fmt::format("{} = gl.constexpr({})\n", c.name, c.expr);
  }
  if (auto err = source::checkGeneratedModule(out))
    return std::move(err);
  return out;
}

} // namespace tilexform::analysis
