// Pieces of the reader that work on text rather than tokens: alias
// definitions and their expansion into the text MLIR's parser sees, and the
// resolution of `loc(...)` to a file position and a source name.
#pragma once

#include "tilexform/ir/Module.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace tilexform::ir::detail {

std::string trim(const std::string &s);
/// Index of the `"` closing a string that opens at `i`, or npos.
size_t skipString(llvm::StringRef s, size_t i);
/// Index of the bracket closing the one at `i` ((, [, {, <), or npos.
size_t matchBracket(llvm::StringRef s, size_t i);

/// How deep brackets may nest in text handed to MLIR's (recursive) parser,
/// and regions in a module: far above any real dump, far below the stack.
constexpr size_t kMaxNesting = 256;
/// The offset where `text`'s brackets (outside strings) first nest deeper
/// than `limit`, or npos.
size_t nestingTooDeep(const std::string &text, size_t limit = kMaxNesting);

/// `#name = ...` and `!name = ...` definitions: expanded once, in dependency
/// order, so text handed to MLIR never holds an alias.
class AliasTable {
public:
  struct Definition {
    std::string name, text;
    size_t offset; // of the name in the buffer
  };
  void add(std::string name, std::string text, size_t offset);
  bool has(const std::string &name) const;
  /// Expands every definition; on a cycle or runaway growth returns the
  /// offending definition's index with a message.
  bool expandAll(std::string &message, size_t &offset);
  /// `text` with every alias replaced by its expansion; `firstChange` is the
  /// index of the first replacement (npos when none).
  std::string substitute(const std::string &text, size_t *firstChange = nullptr) const;
  const std::vector<Definition> &definitions() const { return defs_; }
  const std::string &expansion(const std::string &name) const;
  /// From now on `substitute` writes `#ttg.alias_ref<index>` for `name`.
  void bind(const std::string &name, size_t index) { refs_[name] = index; }

private:
  std::unordered_map<std::string, size_t> refs_;
  std::vector<Definition> defs_;
  std::unordered_map<std::string, std::string> attrs_, types_;
};

/// Resolves location text (inside `loc(...)`) through `#locN` aliases.
class LocationResolver {
public:
  void addAlias(llvm::StringRef name, std::string inner) { aliases_[name] = std::move(inner); }
  SourceLoc resolve(llvm::StringRef text, int depth = 0);
  /// The first `#locN` used but never defined, if any.
  const std::string &missing() const { return missing_; }

private:
  llvm::StringMap<std::string> aliases_;
  llvm::StringMap<SourceLoc> cache_;
  std::string missing_;
};

} // namespace tilexform::ir::detail
