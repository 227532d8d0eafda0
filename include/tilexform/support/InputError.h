// The one error type for bad input: a file, a position in it (line 0 when
// none applies) and what is wrong. The CLI prints it as one line,
// `file:line:col: error: message`.
#pragma once

#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <memory>

#include <string>

namespace tilexform {

class InputError : public llvm::ErrorInfo<InputError> {
public:
  static char ID;
  InputError(std::string file, unsigned line, unsigned col, std::string message)
      : file(std::move(file)), line(line), col(col), message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }
  std::string file;
  unsigned line, col;
  std::string message;
};

/// 1-based line and column of byte `offset` in `text`.
struct TextPosition {
  unsigned line, col;
};
TextPosition positionOf(llvm::StringRef text, size_t offset);

/// A whole input file, or an InputError "cannot read: why".
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readInputFile(const std::string &path);

/// `file:line:col: error: message` (no position when line is 0); any other
/// error as `error: message`. Always one line.
std::string errorLine(llvm::Error err);

} // namespace tilexform
