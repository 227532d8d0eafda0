// per_tensor_launch_loop: a host loop over a collection of tensors that
// launches a kernel once per element; batch them into one grouped launch.
// The element must reach the kernel as a pointer (a tensor): a loop over
// numbers passed as scalars (reflector indices, offsets) is no tensor list.
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

/// The name an address is based on: the leftmost operand of its `+`/`-`
/// chain (`x_ptr + pid * stride + offs` is based on x_ptr), through casts
/// (`p.to(...)`) and indexing.
std::string addressBase(const Node *n) {
  while (n) {
    if (n->kind == K::BinOp && (n->text == "+" || n->text == "-"))
      n = n->kids[0];
    else if (n->kind == K::Call && n->kids[0]->kind == K::Attribute)
      n = n->kids[0]->kids[0];
    else if (n->kind == K::Subscript || n->kind == K::Attribute)
      n = n->kids[0];
    else
      break;
  }
  return n && n->kind == K::Name ? n->text : "";
}

/// The kernel's parameters it uses as pointers: the base of the address of
/// a load, store, atomic or block pointer, followed back through the locals
/// it is computed from. A tensor argument arrives as a pointer; a number
/// (a reflector index, an offset) does not.
std::set<std::string> pointerParams(FileAnalysis &file, const Node *def) {
  std::set<std::string> pointers;
  std::vector<std::pair<std::string, const Node *>> assigns;
  walkBody(def->body, [&](Node *n) {
    if (n->kind == K::Assign)
      for (size_t i = 0; i + 1 < n->kids.size(); ++i)
        if (n->kids[i]->kind == K::Name)
          assigns.emplace_back(n->kids[i]->text, n->kids.back());
    if (n->kind != K::Call)
      return;
    std::string r = file.imports().resolve(n->kids[0]);
    std::string last = lastComponent(r);
    bool address =
        isLanguagePath(r) &&
        (last == "load" || last == "store" || llvm::StringRef(last).starts_with("atomic_") ||
         last == "make_block_ptr" || last == "make_tensor_descriptor");
    std::vector<const Node *> pos = positionalArgs(n);
    const Node *base =
        pos.empty() ? keywordArg(n, last == "make_block_ptr" ? "base" : "pointer") : pos.front();
    if (!address || !base)
      return;
    if (std::string b = addressBase(base); !b.empty())
      pointers.insert(b);
  });
  for (bool changed = true; changed;) {
    changed = false;
    for (auto &[name, value] : assigns)
      if (pointers.count(name))
        if (std::string b = addressBase(value); !b.empty())
          changed |= pointers.insert(b).second;
  }
  return pointers;
}

/// Whether the loop element reaches the kernel as a pointer: the parameter
/// it is passed to is used as an address. Unknown (true) for a kernel of
/// another file.
bool elementIsPointer(FileAnalysis &file, const Launch &launch, const std::set<std::string> &vars) {
  const Node *def = launch.kernel->def;
  if (!def)
    return true;
  std::set<std::string> pointers = pointerParams(file, def);
  auto passesVar = [&](const Node *a) {
    const Node *base = a;
    while (base->kind == K::Attribute || (base->kind == K::Call && !base->kids.empty()) ||
           base->kind == K::Subscript) {
      // `xs[i]`: the element the loop index picks.
      if (base->kind == K::Subscript && base->kids[1]->kind == K::Name &&
          vars.count(base->kids[1]->text))
        return true;
      base = base->kids[0];
    }
    return base->kind == K::Name && vars.count(base->text);
  };
  size_t index = 0;
  for (size_t i = 1; i < launch.call->kids.size(); ++i) {
    const Node *a = launch.call->kids[i];
    if (a->kind == K::Keyword) {
      if (passesVar(a->kids[0]) && pointers.count(a->text))
        return true;
      continue;
    }
    if (a->kind != K::Starred && passesVar(a) && index < def->params.size() &&
        pointers.count(def->params[index]->text))
      return true;
    ++index;
  }
  return false;
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
        !carriesDependency(a, launch.call, vars) && elementIsPointer(file, launch, vars)) {
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
