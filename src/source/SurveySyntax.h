// Walks and small predicates over the Python syntax tree that every part of
// survey shares: traversal without recursion, call arguments, bound names,
// the file's imports and the kernel-language namespaces.
#pragma once

#include "tilexform/source/Python.h"

#include <llvm/ADT/StringRef.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tilexform::source::detail {

using K = NodeKind;

template <class F> void forEachChild(Node *n, F &&f) {
  for (auto *list :
       {&n->decorators, &n->params, &n->kids, &n->body, &n->handlers, &n->orelse, &n->finalbody})
    for (Node *c : *list)
      if (c)
        f(c);
}

/// Pre-order walk with the chain of ancestors; `f(node, ancestors)` returns
/// whether to descend into the node. Iterative: a long operator chain makes a
/// deep tree, and no walk may recurse that deep.
template <class F> void traverse(Node *root, F &&f) {
  struct Frame {
    Node *node;
    bool leave;
  };
  std::vector<Frame> work{{root, false}};
  std::vector<Node *> ancestors, children;
  while (!work.empty()) {
    Frame frame = work.back();
    work.pop_back();
    if (frame.leave) {
      ancestors.pop_back();
      continue;
    }
    if (!f(frame.node, ancestors))
      continue;
    ancestors.push_back(frame.node);
    work.push_back({frame.node, true});
    children.clear();
    forEachChild(frame.node, [&](Node *c) { children.push_back(c); });
    for (auto it = children.rbegin(); it != children.rend(); ++it)
      work.push_back({*it, false});
  }
}

template <class F> void walkAll(Node *n, F &&f) {
  traverse(n, [&](Node *m, const std::vector<Node *> &) {
    f(m);
    return true;
  });
}

inline bool isScope(const Node *n) {
  return n->kind == K::FunctionDef || n->kind == K::ClassDef || n->kind == K::Lambda;
}

/// Walks a kernel body without entering nested function definitions.
template <class F> void walkBody(const std::vector<Node *> &body, F &&f) {
  for (Node *s : body)
    traverse(s, [&](Node *n, const std::vector<Node *> &) {
      f(n);
      return !isScope(n);
    });
}

std::string lastComponent(const std::string &dotted);
const Node *keywordArg(const Node *call, llvm::StringRef name);
std::vector<const Node *> positionalArgs(const Node *call);
void collectNames(const Node *n, std::vector<const Node *> &out);
/// Names bound by an assignment target (x, (a, b), *rest); not x.attr or x[i].
void targetNames(const Node *t, std::set<std::string> &out);
/// An integer literal's value (`0`, `-1`); false for anything else.
bool integerLiteral(const Node *n, int64_t &value);

struct Imports {
  std::map<std::string, std::string> alias; // bound name -> module path
  bool targetsCdna3 = false;
  /// The dotted path a Name/Attribute chain names, through the imports.
  std::string resolve(const Node *n) const;
};
Imports collectImports(Node *root);

bool isGluonPath(const std::string &r);
/// A call into a kernel language namespace (tl.*, gl.*, and Gluon's arch
/// submodules).
bool isLanguagePath(const std::string &r);
/// tl.dot, tl.dot_scaled and Gluon's MMA instructions.
bool isDotLike(const std::string &r);
/// A global or shared memory access: loads, stores, atomics, async copies.
bool isMemoryAccess(const std::string &r, const Node *func);

enum class Dialect { None, Triton, Gluon };
Dialect jitDialect(const std::string &r);
bool isTritonHelper(const std::string &r, llvm::StringRef name);

} // namespace tilexform::source::detail
