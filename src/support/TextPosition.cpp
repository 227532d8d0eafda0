#include "tilexform/support/TextPosition.h"

#include <algorithm>

namespace tilexform {

TextPosition positionOf(llvm::StringRef text, size_t offset, ColumnUnit unit) {
  llvm::StringRef before = text.take_front(offset);
  size_t nl = before.rfind('\n');
  llvm::StringRef lineStart = nl == llvm::StringRef::npos ? before : before.drop_front(nl + 1);
  unsigned line = static_cast<unsigned>(1 + before.count('\n'));
  if (unit == ColumnUnit::Bytes)
    return {line, static_cast<unsigned>(lineStart.size() + 1)};
  // UTF-8 continuation bytes (10xxxxxx) do not start a character.
  unsigned col = 1;
  for (char c : lineStart)
    if ((static_cast<unsigned char>(c) >> 6) != 0x2)
      ++col;
  return {line, col};
}

size_t offsetOf(llvm::StringRef text, unsigned line, unsigned col) {
  size_t off = 0;
  for (unsigned l = 1; l < line && off < text.size(); ++off)
    if (text[off] == '\n')
      ++l;
  return off + (col ? col - 1 : 0);
}

LineTable::LineTable(llvm::StringRef buffer) {
  lineStarts_.reserve(buffer.size() / 64 + 1);
  lineStarts_.push_back(0);
  for (size_t i = buffer.find('\n'); i != llvm::StringRef::npos; i = buffer.find('\n', i + 1))
    lineStarts_.push_back(uint32_t(i + 1));
}

TextPosition LineTable::position(size_t offset) const {
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), uint32_t(offset));
  size_t line = size_t(it - lineStarts_.begin()); // 1-based
  return {unsigned(line), unsigned(offset - lineStarts_[line - 1] + 1)};
}

} // namespace tilexform
