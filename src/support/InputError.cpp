#include "tilexform/support/InputError.h"

#include <fmt/format.h>

namespace tilexform {

char InputError::ID = 0;

void InputError::log(llvm::raw_ostream &os) const {
  os << file;
  if (line)
    os << ":" << line << ":" << col;
  os << ": " << message;
}

TextPosition positionOf(llvm::StringRef text, size_t offset) {
  llvm::StringRef before = text.take_front(offset);
  size_t nl = before.rfind('\n');
  unsigned col = nl == llvm::StringRef::npos ? before.size() + 1 : before.size() - nl;
  return {static_cast<unsigned>(1 + before.count('\n')), col};
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readInputFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::make_error<InputError>(path, 0, 0, "cannot read: " + buffer.getError().message());
  return std::move(*buffer);
}

std::string errorLine(llvm::Error err) {
  std::string line;
  llvm::handleAllErrors(
      std::move(err),
      [&](const InputError &e) {
        line = e.line ? fmt::format("{}:{}:{}: error: {}", e.file, e.line, e.col, e.message)
                      : fmt::format("{}: error: {}", e.file, e.message);
      },
      [&](const llvm::ErrorInfoBase &e) { line = "error: " + e.message(); });
  for (auto &c : line)
    if (c == '\n' || c == '\r')
      c = ' ';
  return line;
}

} // namespace tilexform
