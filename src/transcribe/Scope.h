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
  /// Its name when it has one, else empty.
  std::string nameOf(const ir::Value *v) const {
    auto it = names_.find(v);
    return it != names_.end() ? it->second : "";
  }
  /// Takes `name` for something else of the module (the kernel, a helper).
  void reserve(const std::string &name) { used_.insert(name); }
  /// Takes `name` for a module-level binding of this, the module's, scope
  /// (a layout constant, the kernel): no claim takes it.
  void reserveModule(const std::string &name) {
    used_.insert(name);
    module_.insert(name);
  }
  /// Whether `name` is taken in this scope (or, for a function's scope, at
  /// the module's top level), or reserved everywhere.
  bool taken(const std::string &name) const { return inUse(name) || isReserved(name); }
  /// A function's scope inside the module's: no value of it takes a
  /// module-level name (a helper's own, the kernel's, a constant's).
  void setOuter(const Scope *outer) { outer_ = outer; }
  /// A fresh module-level name made from `base`, taken.
  std::string fresh(const std::string &base);
  /// The module name of something the source calls `wanted` (a helper):
  /// `wanted` itself the first time when it is an identifier nothing in this
  /// scope or reserved takes, else a fresh one; the same answer for the
  /// same `wanted` after that.
  std::string claim(const std::string &wanted);

  /// Names no value may take: Python's keywords and the names the module
  /// binds itself.
  static const std::set<std::string> &reserved();
  /// Whether no value may take `name`: one of reserved(), or a dunder name.
  static bool isReserved(const std::string &name);

  /// `name` as a Python identifier: other characters become `_`, a leading
  /// digit gets a `k` in front, and a reserved word gets `_kernel` after it.
  static std::string identifier(const std::string &name);
  /// Whether `name` is already one (an identifier and not reserved).
  static bool isIdentifier(const std::string &name);

private:
  bool inUse(const std::string &name) const {
    return used_.count(name) != 0 || (outer_ && outer_->module_.count(name) != 0);
  }

  const Scope *outer_ = nullptr;
  std::map<const ir::Value *, std::string> names_;
  std::map<std::string, std::string> claims_;
  std::set<std::string> module_; // the module-level names among used_
  std::set<std::string> used_;
  std::map<std::string, int> suffixes_; // per base: the last suffix nameFor took
};

} // namespace tilexform::transcribe
