// The one error type for bad input: a file, a position in it (line 0 when
// none applies) and what is wrong. The CLI prints it as one line,
// `file:line:col: error: message`.
#pragma once

#include "tilexform/support/TextPosition.h"

#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstdint>
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

/// The one way every command reads an input file: only a regular file
/// (a FIFO, device, socket or directory is refused without blocking on it,
/// also behind a symlink), at most `maxInputSize()` bytes (checked before
/// reading), or an InputError naming the path and why.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readInputFile(const std::string &path);

/// A file opened for reading the one safe way, shared by readInputFile and
/// the source-file service: without blocking (a FIFO is not waited on),
/// close-on-exec, never as a controlling terminal; only a regular file of at
/// most `limit` bytes (checked on the descriptor, before anything is read).
/// Closed when destroyed. `followLastLink` false also refuses a symlink in
/// place of the file itself (O_NOFOLLOW).
class RegularFile {
public:
  static RegularFile open(const std::string &path, uint64_t limit, bool followLastLink = true);
  RegularFile(RegularFile &&other) noexcept;
  RegularFile &operator=(RegularFile &&) = delete;
  ~RegularFile();

  explicit operator bool() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  /// The size fstat gave, when open.
  uint64_t size() const { return size_; }
  /// Why it is not open: "is a directory", "not a regular file (a FIFO)",
  /// "N bytes, above the input limit of L bytes (--max-input-size)", ...
  const std::string &why() const { return why_; }

  /// The rest of the file, read to its end, or false with why() set when it
  /// grew past the limit meanwhile or a read failed.
  bool readAll(std::string &out);

private:
  RegularFile() = default;
  int fd_ = -1;
  uint64_t size_ = 0;
  uint64_t limit_ = 0;
  std::string why_;
};

/// "N bytes, above the input limit of L bytes (--max-input-size)".
std::string aboveInputLimit(uint64_t size, uint64_t limit);

/// Whether readInputFile read `path` (as written) in this run: the files an
/// error may quote a line of. A position in any other file (a location a
/// dump names) is never read to quote it.
bool wasReadAsInput(const std::string &path);

/// All of standard input (`-` on a command line), at most `maxInputSize()`
/// bytes, or an InputError naming `<stdin>`.
llvm::Expected<std::string> readStandardInput();

/// The input size limit (bytes); the CLI sets it from --max-input-size.
uint64_t maxInputSize();
void setMaxInputSize(uint64_t bytes);
constexpr uint64_t kDefaultMaxInputSize = uint64_t(32) << 20;

/// Whether `path` is a regular file (following symlinks), without opening
/// it: tree walks skip everything else.
bool isRegularFile(const std::string &path);

/// A system error as a message: "no such file or directory", "too many
/// levels of symbolic links (a symlink loop?)".
std::string describeSystemError(int err);

/// At most `max` characters of `text` for an error message, with `...`.
std::string clipForMessage(llvm::StringRef text, size_t max = 80);

/// `file:line:col: error: message` (no position when line is 0); any other
/// error as `error: message`. Always one line.
std::string errorLine(llvm::Error err);

} // namespace tilexform
