// per_tensor_launch_loop: a host loop over a collection of tensors that
// launches a kernel once per element; batch them into one grouped launch.
#include "../SurveyRules.h"

#include <algorithm>

namespace tilexform::source::detail::rules {

namespace {

bool isLiteralSweep(const Node *iter) {
  if (iter->kind != K::List && iter->kind != K::Tuple)
    return false;
  return std::all_of(iter->kids.begin(), iter->kids.end(),
                     [](const Node *c) { return c->kind == K::Constant; });
}

/// The loop runs once per element of a collection of tensors: it iterates
/// a sequence (`for t in tensors`, `zip(...)`, `enumerate(...)`) and passes
/// an element (or one of its attributes), or iterates `range(len(X))` and
/// passes `X[i]`. A `range` over numbers whose variable is passed itself —
/// radix passes, chunk offsets, shifts — is not a tensor list.
bool passesLoopTensor(const Node *loop, const Node *call, const std::set<std::string> &vars) {
  const Node *iter = loop->kids[1];
  std::string fn = iter->kind == K::Call ? dottedName(iter->kids[0]) : "";
  bool overRange = fn == "range";
  bool overLen = overRange && iter->kids.size() == 2 && iter->kids[1]->kind == K::Call &&
                 dottedName(iter->kids[1]->kids[0]) == "len";
  if (overRange && !overLen)
    return false;
  // Over anything else, the loop must walk a collection: a name or
  // attribute holding the tensors, zip/enumerate of them, or a mapping's
  // items/values; a generator call (a chunker's (offset, length) pairs)
  // is no tensor list.
  if (!overRange) {
    std::string last = lastComponent(fn);
    bool collection = iter->kind == K::Name || iter->kind == K::Attribute ||
                      iter->kind == K::List || iter->kind == K::Tuple || last == "zip" ||
                      last == "enumerate" || last == "items" || last == "values";
    if (!collection)
      return false;
  }
  // A slice of one tensor by the loop variable is a chunk, not a tensor.
  for (const Node *a : positionalArgs(call))
    if (a->kind == K::Subscript && a->kids[1]->kind == K::Slice) {
      std::vector<const Node *> names;
      collectNames(a->kids[1], names);
      for (const Node *n : names)
        if (vars.count(n->text))
          return false;
    }
  for (const Node *a : positionalArgs(call)) {
    if (overLen) {
      // X[i] exactly: not a slice, not arithmetic on the index.
      const Node *x = a;
      while (x->kind == K::Attribute ||
             (x->kind == K::Call && !x->kids.empty() && x->kids[0]->kind == K::Attribute))
        x = x->kids[0];
      if (x->kind == K::Subscript && x->kids[1]->kind == K::Name && vars.count(x->kids[1]->text))
        return true;
      continue;
    }
    const Node *base = a;
    while (base->kind == K::Attribute || (base->kind == K::Call && !base->kids.empty()))
      base = base->kids[0];
    if (base->kind == K::Name && vars.count(base->text))
      return true;
  }
  return false;
}

/// The loop's iterations depend on each other: a name the launch passes is
/// reassigned in the loop body (`src, dst = dst, src`, `x = out`), so one
/// launch reads what the previous wrote.
bool carriesDependency(const Node *loop, const Node *call, const std::set<std::string> &vars) {
  std::set<std::string> passed;
  for (const Node *a : positionalArgs(call)) {
    std::vector<const Node *> names;
    collectNames(a, names);
    for (const Node *n : names)
      if (!vars.count(n->text))
        passed.insert(n->text);
  }
  bool carried = false;
  for (Node *s : loop->body)
    walkAll(s, [&](Node *n) {
      std::set<std::string> assigned;
      if (n->kind == K::Assign)
        for (size_t i = 0; i + 1 < n->kids.size(); ++i)
          targetNames(n->kids[i], assigned);
      if (n->kind == K::AugAssign)
        targetNames(n->kids[0], assigned);
      for (auto &a : assigned)
        if (passed.count(a))
          carried = true;
    });
  return carried;
}

} // namespace

void perTensorLaunchLoop(FileAnalysis &file, Launch &launch) {
  const Node *tensorLoop = nullptr;
  for (auto it = launch.ancestors.rbegin(); it != launch.ancestors.rend(); ++it) {
    Node *a = *it;
    if (a->kind == K::FunctionDef)
      break;
    if (a->kind != K::For)
      continue;
    std::set<std::string> vars;
    targetNames(a->kids[0], vars);
    if (passesLoopTensor(a, launch.call, vars) && !isLiteralSweep(a->kids[1]) &&
        !carriesDependency(a, launch.call, vars)) {
      tensorLoop = a;
      break;
    }
  }
  if (!tensorLoop || !file.firstReport(tensorLoop))
    return;
  const std::string &name = launch.kernel->record.name;
  launch.kernel->record.findings.push_back(file.finding(
      "per_tensor_launch_loop", tensorLoop, name,
      "'" + name + "' is launched once per tensor in the loop at line " +
          std::to_string(tensorLoop->line) +
          ": batch the tensors into one launch (a grouped kernel over a pointer table)"));
}

} // namespace tilexform::source::detail::rules
