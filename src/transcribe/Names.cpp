#include "Names.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

namespace tilexform::transcribe {

namespace {

/// A location as a key: its names, its position and the calls it is in.
std::string locationKey(const ir::SourceLoc &loc, bool withFirstName) {
  std::string key =
      fmt::format("{}\x1f{}\x1f{}:{}:{}", loc.name, withFirstName ? loc.firstName : "", loc.file,
                  loc.line, withFirstName ? loc.col : 0);
  for (const ir::CallSite &c : loc.callers)
    key += fmt::format("\x1f{}:{}:{}", c.file, c.line, c.col);
  return key;
}

/// Control flow with results: its location names all of them (each
/// assignment of a loop-carried variable renames the loop), and passes copy
/// it to the ops they make for the loop.
bool isControlFlow(const ir::Operation &op) {
  return op.name == "scf.for" || op.name == "scf.while" || op.name == "scf.if";
}

} // namespace

NamePlan::NamePlan(const ir::Module &m) {
  std::set<std::string> loopLocations, names;
  std::vector<const ir::Operation *> named;
  std::map<const ir::Operation *, size_t> order; // in the walk: within a block, the block's order
  m.walk([&](const ir::Operation *op) {
    order.emplace(op, order.size());
    if (op->loc.name.empty())
      return;
    names.insert(op->loc.name);
    if (isControlFlow(*op) && !op->results.empty())
      loopLocations.insert(locationKey(op->loc, true));
    else
      named.push_back(op);
  });
  // The ops of one statement: one name, one source line, one call chain.
  std::map<std::string, std::set<const ir::Operation *>> statements;
  for (const ir::Operation *op : named) {
    if (loopLocations.count(locationKey(op->loc, true)))
      borrowed_.insert(op);
    else
      statements[locationKey(op->loc, false)].insert(op);
  }
  for (auto &[key, ops] : statements) {
    // The statement's result: what no other op of it reads to compute a
    // value (a buffer the value is put in is the value's, not a reader).
    std::map<const ir::Block *, std::vector<const ir::Operation *>> results;
    for (const ir::Operation *op : ops) {
      if (op->name == "ttg.local_alloc" || op->results.empty())
        continue;
      bool readInside = false;
      for (const ir::Value *r : op->results)
        for (auto &[user, _] : r->uses)
          readInside = readInside || (user != op && !user->results.empty() &&
                                      user->name != "ttg.local_alloc" && ops.count(user));
      if (readInside)
        subExpressions_.insert(op);
      else
        results[op->parentBlock].push_back(op);
    }
    // Several in one block: the statement's own result is the last, and
    // its copies in other layouts are the same op; an op of another kind
    // is a sub-expression another statement shares (CSE keeps the first
    // statement's location).
    for (auto &[block, rs] : results) {
      const ir::Operation *last = *std::max_element(
          rs.begin(), rs.end(), [&](auto *a, auto *b) { return order[a] < order[b]; });
      for (const ir::Operation *op : rs)
        if (op->name != last->name)
          subExpressions_.insert(op);
    }
  }
  while (names.count(neutral_))
    neutral_ = "_" + neutral_;
}

bool NamePlan::namesItsValue(const ir::Value *v) const {
  const ir::Operation *d = v ? v->definingOp : nullptr;
  return d && !borrowed_.count(d) && !subExpressions_.count(d);
}

} // namespace tilexform::transcribe
