#include "Scope.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

namespace tilexform::transcribe {

const std::set<std::string> &Scope::reserved() {
  static const std::set<std::string> words = {"False",
                                              "None",
                                              "True",
                                              "and",
                                              "as",
                                              "assert",
                                              "async",
                                              "await",
                                              "break",
                                              "class",
                                              "continue",
                                              "def",
                                              "del",
                                              "elif",
                                              "else",
                                              "except",
                                              "finally",
                                              "for",
                                              "from",
                                              "global",
                                              "if",
                                              "import",
                                              "in",
                                              "is",
                                              "lambda",
                                              "nonlocal",
                                              "not",
                                              "or",
                                              "pass",
                                              "raise",
                                              "return",
                                              "try",
                                              "while",
                                              "with",
                                              "yield",
                                              "gl",
                                              "gluon",
                                              "triton",
                                              "tl",
                                              "range",
                                              "float",
                                              "int",
                                              "len",
                                              "print",
                                              "launch",
                                              "async_copy",
                                              "mbarrier",
                                              "tma",
                                              "cdna3",
                                              "cdna4",
                                              "warpgroup_mma",
                                              "warpgroup_mma_wait",
                                              "warpgroup_mma_init",
                                              "fence_async_shared",
                                              "mma_v2",
                                              "NUM_WARPS"};
  return words;
}

namespace {

// Other characters as `_`, and `prefix` before a leading digit.
std::string sanitized(std::string name, const char *prefix) {
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  if (name.empty() || llvm::isDigit(name[0]))
    name = prefix + name;
  return name;
}

} // namespace

std::string Scope::identifier(const std::string &name) {
  std::string out = sanitized(name, "k");
  if (reserved().count(out))
    out += "_kernel";
  return out;
}

bool Scope::isIdentifier(const std::string &name) { return identifier(name) == name; }

std::string Scope::fresh(const std::string &base) {
  std::string name = base;
  for (int n = 1; used_.count(name) || reserved().count(name); ++n)
    name = fmt::format("{}_{}", base, n);
  used_.insert(name);
  return name;
}

std::string Scope::nameFor(const ir::Value *v) {
  std::string base = v->name;
  if (!base.empty() && base[0] == '%')
    base = base.substr(1);
  return nameFor(v, base);
}

std::string Scope::nameFor(const ir::Value *v, const std::string &source) {
  auto it = names_.find(v);
  if (it != names_.end())
    return it->second;
  std::string base = sanitized(source, "v");
  if (reserved().count(base))
    base += "_";
  std::string name = base;
  for (int n = 1; used_.count(name); ++n)
    name = fmt::format("{}_{}", base, n);
  used_.insert(name);
  names_[v] = name;
  return name;
}

} // namespace tilexform::transcribe
