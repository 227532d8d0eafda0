#include "tilexform/source/GeneratedModule.h"

#include "tilexform/source/Python.h"
#include "tilexform/support/PythonText.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSet.h>

#include <vector>

namespace tilexform::source {

char UnsafeModuleError::ID = 0;

void UnsafeModuleError::log(llvm::raw_ostream &os) const { os << message; }

namespace {

llvm::Error unsafe(unsigned line, const std::string &what) {
  return llvm::make_error<UnsafeModuleError>(
      fmt::format("the generated module is not what tilexform writes (line {}: {}); nothing was "
                  "written. This is a fault of tilexform's: please report it with the input",
                  line, what));
}

bool isTritonModule(llvm::StringRef module) {
  return module == "triton" || module.starts_with("triton.");
}

// `gluon.jit`, `gluon.jit(...)` or `builtin`.
bool allowedDecorator(const Node *d) {
  if (d->kind == NodeKind::Call && !d->kids.empty())
    return dottedName(d->kids[0]) == "gluon.jit";
  std::string name = dottedName(d);
  return name == "gluon.jit" || name == "builtin";
}

// Names a generated body never reads: each reaches outside the kernel.
const llvm::StringSet<> &forbiddenNames() {
  static const llvm::StringSet<> names = {
      "__import__", "__builtins__", "breakpoint", "compile", "delattr",    "eval",      "exec",
      "exit",       "getattr",      "globals",    "input",   "locals",     "open",      "quit",
      "setattr",    "vars",         "os",         "sys",     "subprocess", "importlib", "builtins"};
  return names;
}

// The nodes under a function, without recursion (a body may nest deeply).
llvm::Error checkBody(const Node *fn) {
  std::vector<const Node *> stack(fn->body.begin(), fn->body.end());
  for (const Node *p : fn->params)
    stack.push_back(p);
  while (!stack.empty()) {
    const Node *n = stack.back();
    stack.pop_back();
    if (!n)
      continue;
    switch (n->kind) {
    case NodeKind::Import:
    case NodeKind::ImportFrom:
    case NodeKind::Global:
    case NodeKind::Nonlocal:
    case NodeKind::ClassDef:
    case NodeKind::Del:
    case NodeKind::Lambda:
    case NodeKind::Await:
    case NodeKind::Yield:
    case NodeKind::Try:
    case NodeKind::With:
      return unsafe(n->line, "a statement or expression a kernel body never holds");
    case NodeKind::Name:
      if (forbiddenNames().contains(n->text))
        return unsafe(n->line, fmt::format("the name '{}'", n->text));
      break;
    case NodeKind::Attribute:
      if (llvm::StringRef(n->text).starts_with("__"))
        return unsafe(n->line, fmt::format("the attribute '{}'", n->text));
      break;
    default:
      break;
    }
    for (auto *list :
         {&n->kids, &n->body, &n->orelse, &n->finalbody, &n->handlers, &n->decorators, &n->params})
      stack.insert(stack.end(), list->begin(), list->end());
  }
  return llvm::Error::success();
}

llvm::Error checkTopLevel(const Node *s) {
  switch (s->kind) {
  case NodeKind::ImportFrom:
    if (isTritonModule(s->text))
      return llvm::Error::success();
    return unsafe(s->line, fmt::format("an import from '{}'", s->text));
  case NodeKind::Import:
    for (const Node *a : s->kids)
      if (!isTritonModule(a->text))
        return unsafe(s->line, fmt::format("an import of '{}'", a->text));
    return llvm::Error::success();
  case NodeKind::Assign: {
    if (s->kids.size() != 2 || s->kids[0]->kind != NodeKind::Name)
      return unsafe(s->line, "an assignment of another form than NAME = ...");
    const Node *value = s->kids[1];
    if (s->kids[0]->text == "NUM_WARPS" && value->kind == NodeKind::Constant)
      return llvm::Error::success();
    if (value->kind == NodeKind::Call && !value->kids.empty() &&
        dottedName(value->kids[0]) == "gl.constexpr")
      return checkBody(s);
    return unsafe(s->line, fmt::format("'{}' is bound to something other than a layout constant",
                                       s->kids[0]->text));
  }
  case NodeKind::FunctionDef: {
    if (s->decorators.empty() && s->text != "launch")
      return unsafe(s->line, fmt::format("the undecorated function '{}'", s->text));
    for (const Node *d : s->decorators)
      if (!allowedDecorator(d))
        return unsafe(d->line,
                      fmt::format("a decorator of '{}' tilexform does not write", s->text));
    return checkBody(s);
  }
  default:
    return unsafe(s->line, "a statement at the module's top level tilexform does not write");
  }
}

// The encoding the first two lines declare (PEP 263), lowercased; "" for
// none.
std::string declaredEncoding(llvm::StringRef text) {
  for (int i = 0; i < 2 && !text.empty(); ++i) {
    auto [line, rest] = text.split('\n');
    text = rest;
    llvm::StringRef t = line.ltrim(" \t\f");
    if (!t.starts_with("#"))
      continue;
    for (size_t at = t.find("coding"); at != llvm::StringRef::npos; at = t.find("coding", at + 1)) {
      llvm::StringRef after = t.drop_front(at + 6);
      if (after.empty() || (after[0] != ':' && after[0] != '='))
        continue;
      llvm::StringRef name = after.drop_front(1).ltrim(" \t").take_while(
          [](char c) { return llvm::isAlnum(c) || c == '_' || c == '-' || c == '.'; });
      if (!name.empty())
        return name.lower();
    }
  }
  return "";
}

} // namespace

llvm::Error checkGeneratedModule(llvm::StringRef text) {
  std::string encoding = declaredEncoding(text);
  if (!encoding.empty() && encoding != "utf-8" && encoding != "utf8" && encoding != "utf_8")
    return unsafe(1, "the first lines declare the encoding '" + encoding + "'");
  if (size_t at = unsafePythonTextAt(text); at != llvm::StringRef::npos)
    return unsafe(unsigned(text.take_front(at).count('\n')) + 1,
                  "a line break other than \\n, a NUL or bytes that are not UTF-8");
  auto parsed = parsePython(text, "<generated>");
  if (!parsed)
    return unsafe(0, "Python does not parse it: " + llvm::toString(parsed.takeError()));
  for (const Node *s : (*parsed)->root->body)
    if (auto err = checkTopLevel(s))
      return err;
  return llvm::Error::success();
}

} // namespace tilexform::source
