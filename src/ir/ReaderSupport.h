// Pieces of the reader that work on text rather than tokens: alias
// definitions and their expansion into the text MLIR's parser sees, and the
// resolution of `loc(...)` to a file position and a source name.
#pragma once

#include "tilexform/ir/Module.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <mlir/IR/BuiltinTypes.h>

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

/// The most elements a shaped type in a dump may have: layouts count
/// elements in 32 bits, and no block of a kernel comes near (a 4 GiB
/// tensor of f16 would be 2^31).
constexpr int64_t kMaxShapeElements = (int64_t(1) << 31) - 1;
/// The most bits one shaped type may hold (elements times element width):
/// sizes in bytes stay far inside 64 bits, summed over every allocation.
constexpr int64_t kMaxShapeBits = int64_t(1) << 40;

/// Why `type`'s shape (or a shape inside it: a memdesc's allocation, a
/// tensor descriptor's block, a pointer's pointee) is out of range, or "":
/// sizes computed from it would wrap.
inline std::string shapeSizeProblem(mlir::Type type, int depth = 0) {
  if (!type || depth > 16)
    return "";
  auto check = [&](llvm::ArrayRef<int64_t> dims, mlir::Type element) -> std::string {
    int64_t elements = 1;
    for (int64_t d : dims) {
      if (mlir::ShapedType::isDynamic(d))
        continue;
      if (d < 0 || d > kMaxShapeElements || __builtin_mul_overflow(elements, d, &elements) ||
          elements > kMaxShapeElements)
        return "the shape has more than 2^31 - 1 elements (out of range)";
    }
    unsigned bits = element && element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
    int64_t total = 0;
    if (__builtin_mul_overflow(elements, int64_t(bits), &total) || total > kMaxShapeBits)
      return "the shape holds more than 2^40 bits (out of range)";
    return shapeSizeProblem(element, depth + 1);
  };
  if (auto t = mlir::dyn_cast<TritonType>(type)) {
    auto &info = t.info();
    if (std::string p = check(info.shape, info.elementType); !p.empty())
      return p;
    return check(info.allocShape, info.elementType);
  }
  if (auto t = mlir::dyn_cast<mlir::ShapedType>(type); t && t.hasRank())
    return check(t.getShape(), t.getElementType());
  return "";
}

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
///
/// Each alias is resolved once and its callers are shared by every location
/// that names it. A location nests at most kMaxLocationDepth levels (alias
/// references, call sites, names, fused parts; a legitimate inlining chain
/// takes two to four a frame); a deeper one, or a cycle of aliases, resolves
/// as unknown. The bound is the location's own height, so the answer does
/// not depend on which op named an alias first, and each alias is resolved
/// at most kMaxLocationDepth + 1 times: resolution is linear in the text.
class LocationResolver {
public:
  static constexpr unsigned kMaxLocationDepth = 64;

  void addAlias(llvm::StringRef name, std::string inner) { aliases_[name] = std::move(inner); }
  SourceLoc resolve(llvm::StringRef text);
  /// The first `#locN` used but never defined, if any.
  const std::string &missing() const { return missing_; }

private:
  /// What is known of one alias.
  struct Entry {
    SourceLoc loc;
    unsigned height = 0;      // when done: how deep its definition nests
    bool done = false;        // resolved within the bound
    bool active = false;      // being resolved (a cycle reaches it again)
    unsigned tooDeepAt = ~0u; // the least depth at which it did not fit
  };
  /// `text` at `depth`; `height` is how deep it nests, or kTooDeep when
  /// depth + height would pass the bound (the answer is then unknown).
  SourceLoc resolve(llvm::StringRef text, unsigned depth, unsigned &height);
  static constexpr unsigned kTooDeep = ~0u;

  llvm::StringMap<std::string> aliases_;
  llvm::StringMap<Entry> cache_;
  std::string missing_;
};

} // namespace tilexform::ir::detail
