// The names of one Python scope of the anchor: every value, parameter and
// module-level name is given here, so two never collide and none shadows a
// keyword, a builtin or a name the module imports.
#pragma once

#include "tilexform/ir/Module.h"

#include <map>
#include <set>
#include <string>

namespace tilexform::transcribe {

class Scope {
public:
  /// The Python name of `v`, made from its SSA name on first use: unique in
  /// this scope, an identifier, no keyword or reserved name.
  std::string nameFor(const ir::Value *v);
  /// The same, made from `base` instead of the SSA name (the source's name).
  std::string nameFor(const ir::Value *v, const std::string &base);
  /// Whether `v` has a name yet.
  bool named(const ir::Value *v) const { return names_.count(v) != 0; }
  /// Takes `name` for something else of the module (the kernel, a helper).
  void reserve(const std::string &name) { used_.insert(name); }
  /// A fresh name made from `base`, taken.
  std::string fresh(const std::string &base);

  /// Names no value may take: Python's keywords and the names the module
  /// binds itself.
  static const std::set<std::string> &reserved();

  /// `name` as a Python identifier: other characters become `_`, a leading
  /// digit gets a `k` in front, and a reserved word gets `_kernel` after it.
  static std::string identifier(const std::string &name);
  /// Whether `name` is already one (an identifier and not reserved).
  static bool isIdentifier(const std::string &name);

private:
  std::map<const ir::Value *, std::string> names_;
  std::set<std::string> used_;
};

} // namespace tilexform::transcribe
