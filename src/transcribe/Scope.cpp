#include "Scope.h"

#include "AnchorBuiltins.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

namespace tilexform::transcribe {

const std::set<std::string> &Scope::reserved() {
  static const std::set<std::string> words = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
      "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if",
      "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
      "while", "with", "yield", "gl", "gluon", "triton", "tl", "range", "float", "int", "len",
      "print", "launch", "async_copy", "mbarrier", "tma", "cdna3", "cdna4", "warpgroup_mma",
      "warpgroup_mma_wait", "warpgroup_mma_init", "fence_async_shared", "mma_v2", "NUM_WARPS",
      // Python binds it; no assignment may.
      "__debug__",
      // The rest of what the module imports
      // or defines at its top level.
      "builtin", "libdevice", "TensorDescriptor", "allocate_tensor_memory", "tcgen05_commit",
      "tcgen05_mma", "tcgen05_mma_scaled", "rdna3", "rdna4",
      // Builtins that reach outside a kernel: the module's read-back refuses
      // any use of them.
      "breakpoint", "compile", "delattr", "eval", "exec", "exit", "getattr", "globals", "input",
      "locals", "open", "quit", "setattr", "vars", "os", "sys", "subprocess", "importlib",
      "builtins"};
  return words;
}

bool Scope::isReserved(const std::string &name) {
  // A dunder name means something to Python (`__getattr__` at a module's
  // top level answers every missing attribute; `__debug__` cannot be bound).
  bool dunder = name.size() > 4 && name.compare(0, 2, "__") == 0 &&
                name.compare(name.size() - 2, 2, "__") == 0;
  return dunder || reserved().count(name) != 0 ||
         llvm::any_of(anchorBuiltins(), [&](const AnchorBuiltin &b) { return name == b.name; });
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
  if (isReserved(out))
    out += "_kernel";
  return out;
}

bool Scope::isIdentifier(const std::string &name) { return identifier(name) == name; }

std::string Scope::fresh(const std::string &base) {
  std::string name = base;
  for (int n = 1; inUse(name) || isReserved(name); ++n)
    name = fmt::format("{}_{}", base, n);
  used_.insert(name);
  module_.insert(name);
  return name;
}

std::string Scope::claim(const std::string &wanted) {
  auto it = claims_.find(wanted);
  if (it != claims_.end())
    return it->second;
  std::string name = isIdentifier(wanted) && !taken(wanted) ? wanted : fresh(identifier(wanted));
  used_.insert(name);
  module_.insert(name);
  claims_[wanted] = name;
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
  if (isReserved(base))
    base += "_";
  std::string name = base;
  // From the last suffix taken for this base (the ones below it stay
  // taken): a dump of thousands of values of one name is linear.
  for (int &n = suffixes_[base]; inUse(name);)
    name = fmt::format("{}_{}", base, ++n);
  used_.insert(name);
  names_[v] = name;
  return name;
}

} // namespace tilexform::transcribe
