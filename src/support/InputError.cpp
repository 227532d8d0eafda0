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
