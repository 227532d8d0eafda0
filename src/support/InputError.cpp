#include "tilexform/support/InputError.h"

#include <fmt/format.h>
#include <llvm/Support/FileSystem.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace tilexform {

char InputError::ID = 0;

void InputError::log(llvm::raw_ostream &os) const {
  os << file;
  if (line)
    os << ":" << line << ":" << col;
  os << ": " << message;
}

namespace {
std::atomic<uint64_t> gMaxInputSize{kDefaultMaxInputSize};

} // namespace

std::string describeSystemError(int err) {
  switch (err) {
  case ENOENT:
    return "no such file or directory";
  case ELOOP:
    return "too many levels of symbolic links (a symlink loop?)";
  case EACCES:
    return "permission denied";
  case EISDIR:
    return "is a directory";
  default:
    return std::strerror(err);
  }
}

uint64_t maxInputSize() { return gMaxInputSize.load(); }
void setMaxInputSize(uint64_t bytes) { gMaxInputSize.store(bytes); }

bool isRegularFile(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string clipForMessage(llvm::StringRef text, size_t max) {
  if (text.size() <= max)
    return text.str();
  return text.take_front(max).str() + "...";
}

namespace {

// The paths readInputFile has read in this run (for wasReadAsInput).
std::set<std::string> &readInputs() {
  static std::set<std::string> paths;
  return paths;
}
std::mutex &readInputsMutex() {
  static std::mutex m;
  return m;
}

} // namespace

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readInputFile(const std::string &path) {
  auto fail = [&](const std::string &why) { return llvm::make_error<InputError>(path, 0, 0, why); };
  // O_NONBLOCK: opening a FIFO must not wait for a writer; the descriptor's
  // type is checked before anything is read.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return fail(describeSystemError(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return fail(describeSystemError(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return fail("is a directory");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(S_ISFIFO(st.st_mode)  ? "not a regular file (a FIFO)"
                : S_ISCHR(st.st_mode) ? "not a regular file (a character device)"
                : S_ISBLK(st.st_mode) ? "not a regular file (a block device)"
                                      : "not a regular file (a socket)");
  }
  uint64_t size = uint64_t(st.st_size);
  if (size > maxInputSize()) {
    ::close(fd);
    return fail(fmt::format("{} bytes, above the input limit of {} bytes (--max-input-size)", size,
                            maxInputSize()));
  }
  // Read, not mapped (LLVM maps unless the file is volatile and the buffer
  // null-terminated): the text is kept for as long as what is made of it, and
  // a mapped file truncated meanwhile would fault the process.
  auto buffer = llvm::MemoryBuffer::getOpenFile(llvm::sys::fs::convertFDToNativeFile(fd), path,
                                                size, /*RequiresNullTerminator=*/true,
                                                /*IsVolatile=*/true);
  ::close(fd);
  if (!buffer)
    return fail(describeSystemError(buffer.getError().value()));
  {
    std::lock_guard<std::mutex> lock(readInputsMutex());
    readInputs().insert(path);
  }
  return std::move(*buffer);
}

bool wasReadAsInput(const std::string &path) {
  std::lock_guard<std::mutex> lock(readInputsMutex());
  return readInputs().count(path) != 0;
}

llvm::Expected<std::string> readStandardInput() {
  // Blocking reads of whatever stdin is (a pipe, a file, a terminal), up to
  // the limit: a stream without end (`< /dev/zero`) is refused, not read.
  std::string text;
  char chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return llvm::make_error<InputError>("<stdin>", 0, 0, describeSystemError(errno));
    }
    if (n == 0)
      break;
    if (text.size() + size_t(n) > maxInputSize())
      return llvm::make_error<InputError>(
          "<stdin>", 0, 0,
          fmt::format("more than {} bytes, the input limit (--max-input-size)", maxInputSize()));
    text.append(chunk, size_t(n));
  }
  return text;
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
  // An error names the place; it never echoes a whole garbage line.
  constexpr size_t kMaxLine = 400;
  if (line.size() > kMaxLine)
    line = line.substr(0, kMaxLine) + "...";
  return line;
}

} // namespace tilexform
