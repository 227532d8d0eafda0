// Writing a file the user named, safely: a unique temporary beside it,
// created exclusively, renamed over the target only when fully written;
// never through a symlink, never over a FIFO or device, nothing left behind
// on failure, and errors that name only the path the user gave.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace tilexform {

/// Writes `contents` to `path`. An existing `path` is replaced only with
/// `overwrite` and only when it is a regular file. Without `overwrite` the
/// file is published in one exclusive step (RENAME_NOREPLACE, else a hard
/// link): of several processes writing one new path at once exactly one
/// succeeds, the others fail saying it exists (an I/O error: the path was
/// free when they started).
llvm::Error writeFileAtomically(const std::string &path, llvm::StringRef contents, bool overwrite);

/// Why writing failed, for the exit code: the target exists (a usage error)
/// or writing itself failed (an I/O error).
class OutputFileError : public llvm::ErrorInfo<OutputFileError> {
public:
  static char ID;
  OutputFileError(std::string message, bool exists) : message(std::move(message)), exists(exists) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }
  std::string message;
  bool exists;
};

} // namespace tilexform
