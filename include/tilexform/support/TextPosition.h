// The one way a byte offset in a text becomes a 1-based `line:col` (and
// back), for every reader that names where its input went wrong.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilexform {

/// 1-based line and column of a byte in a text.
struct TextPosition {
  unsigned line, col;
};

/// How a column counts: bytes (as MLIR's locations do) or UTF-8 characters
/// (as an editor shows a line of text).
enum class ColumnUnit { Bytes, Characters };

/// The position of byte `offset` in `text` (one scan of the text before it).
TextPosition positionOf(llvm::StringRef text, size_t offset, ColumnUnit unit = ColumnUnit::Bytes);

/// The byte offset of a 1-based `line:col` (column in bytes; column 0 counts
/// as 1): the inverse of positionOf for a position inside the text.
size_t offsetOf(llvm::StringRef text, unsigned line, unsigned col);

/// positionOf for many offsets in one buffer: the line starts are found once
/// and each position by binary search over them.
class LineTable {
public:
  explicit LineTable(llvm::StringRef buffer);
  TextPosition position(size_t offset) const;

private:
  std::vector<uint32_t> lineStarts_;
};

} // namespace tilexform
