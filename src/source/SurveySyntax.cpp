#include "SurveySyntax.h"
#include "tilexform/hw/ArchData.h"

#include <algorithm>

namespace tilexform::source::detail {

std::string lastComponent(const std::string &dotted) {
  size_t dot = dotted.rfind('.');
  return dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

const Node *keywordArg(const Node *call, llvm::StringRef name) {
  for (size_t i = 1; i < call->kids.size(); ++i) {
    const Node *a = call->kids[i];
    if (a && a->kind == K::Keyword && a->text == name)
      return a->kids[0];
  }
  return nullptr;
}

std::vector<const Node *> positionalArgs(const Node *call) {
  std::vector<const Node *> out;
  for (size_t i = 1; i < call->kids.size(); ++i)
    if (call->kids[i] && call->kids[i]->kind != K::Keyword)
      out.push_back(call->kids[i]);
  return out;
}

void collectNames(const Node *n, std::vector<const Node *> &out) {
  if (!n)
    return;
  walkAll(const_cast<Node *>(n), [&](Node *m) {
    if (m->kind == K::Name)
      out.push_back(m);
  });
}

void targetNames(const Node *t, std::set<std::string> &out) {
  if (!t)
    return;
  if (t->kind == K::Name)
    out.insert(t->text);
  else if (t->kind == K::Tuple || t->kind == K::List || t->kind == K::Starred)
    for (const Node *c : t->kids)
      targetNames(c, out);
}

bool integerLiteral(const Node *n, int64_t &value) {
  if (!n)
    return false;
  bool negative = false;
  if (n->kind == K::UnaryOp && n->text == "-" && !n->kids.empty()) {
    negative = true;
    n = n->kids[0];
  }
  if (n->kind != K::Constant || llvm::StringRef(n->text).getAsInteger(0, value))
    return false;
  if (negative)
    value = -value;
  return true;
}

std::string Imports::resolve(const Node *n) const {
  std::string d = dottedName(n);
  if (d.empty())
    return d;
  size_t dot = d.find('.');
  std::string head = d.substr(0, dot);
  auto it = alias.find(head);
  if (it == alias.end())
    return d;
  return it->second + (dot == std::string::npos ? "" : d.substr(dot));
}

Imports collectImports(Node *root) {
  Imports im;
  walkAll(root, [&](Node *n) {
    if (n->kind == K::Import) {
      for (Node *a : n->kids) {
        if (!a->alias.empty())
          im.alias[a->alias] = a->text;
        else
          im.alias[a->text.substr(0, a->text.find('.'))] = a->text.substr(0, a->text.find('.'));
        if (llvm::StringRef(a->text).contains("amd.cdna3"))
          im.targetsCdna3 = true;
      }
    } else if (n->kind == K::ImportFrom) {
      if (llvm::StringRef(n->text).contains("amd.cdna3"))
        im.targetsCdna3 = true;
      for (Node *a : n->kids) {
        if (a->text == "*")
          continue;
        im.alias[a->alias.empty() ? a->text : a->alias] = n->text + "." + a->text;
        if (a->text == "cdna3")
          im.targetsCdna3 = true;
      }
    } else if (n->kind == K::Str) {
      std::string v = llvm::StringRef(n->value).lower();
      // A target string: the Gluon module's name or an arch of its family.
      static const std::vector<std::string> cdna3 = hw::archsOfFamily("cdna3");
      if (v.find("cdna3") != std::string::npos ||
          std::any_of(cdna3.begin(), cdna3.end(),
                      [&](const std::string &arch) { return v.find(arch) != std::string::npos; }))
        im.targetsCdna3 = true;
    } else if ((n->kind == K::Name || n->kind == K::Attribute) && n->text == "cdna3") {
      im.targetsCdna3 = true;
    }
  });
  return im;
}

bool isGluonPath(const std::string &r) {
  llvm::StringRef s(r);
  return s.starts_with("triton.experimental.gluon") || s.starts_with("gluon.") ||
         s.starts_with("gl.") || s.starts_with("ttgl.");
}

bool isLanguagePath(const std::string &r) {
  llvm::StringRef s(r);
  return s.starts_with("triton.language.") || s.starts_with("triton.experimental.gluon.") ||
         s.starts_with("tl.") || s.starts_with("gl.") || s.starts_with("ttgl.");
}

bool isDotLike(const std::string &r) {
  static const std::set<std::string> names = {
      "dot",    "dot_scaled",    "mfma",        "mfma_scaled",        "wmma",   "wmma_scaled",
      "mma_v2", "warpgroup_mma", "tcgen05_mma", "tcgen05_mma_scaled", "dot_fma"};
  return isLanguagePath(r) && names.count(lastComponent(r));
}

bool isMemoryAccess(const std::string &r, const Node *func) {
  std::string last = lastComponent(r);
  llvm::StringRef l(last);
  if (isLanguagePath(r))
    return l == "load" || l == "store" || l.starts_with("atomic_") ||
           l.contains("load_to_shared") || l.starts_with("async_copy") ||
           l.starts_with("async_load") || l == "buffer_load" || l == "buffer_store";
  // A tensor descriptor's own methods (desc.load([...]), desc.store(...)).
  return func && func->kind == K::Attribute && (l == "load" || l == "store") &&
         !llvm::StringRef(r).starts_with("torch") && !llvm::StringRef(r).starts_with("np");
}

Dialect jitDialect(const std::string &r) {
  if (lastComponent(r) != "jit")
    return Dialect::None;
  if (isGluonPath(r) || llvm::StringRef(r).contains("gluon"))
    return Dialect::Gluon;
  if (r == "jit" || llvm::StringRef(r).starts_with("triton"))
    return Dialect::Triton;
  return Dialect::None;
}

bool isTritonHelper(const std::string &r, llvm::StringRef name) {
  return lastComponent(r) == name && (llvm::StringRef(r).starts_with("triton") || r == name);
}

} // namespace tilexform::source::detail
