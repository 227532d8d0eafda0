#include "tilexform/support/InputError.h"
#include "tilexform/support/PythonText.h"

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

std::string aboveInputLimit(uint64_t size, uint64_t limit) {
  return fmt::format("{} bytes, above the input limit of {} bytes (--max-input-size)", size, limit);
}

namespace {

std::string fileTypeWord(mode_t mode) {
  if (S_ISDIR(mode))
    return "is a directory";
  if (S_ISFIFO(mode))
    return "not a regular file (a FIFO)";
  if (S_ISCHR(mode))
    return "not a regular file (a character device)";
  if (S_ISBLK(mode))
    return "not a regular file (a block device)";
  return "not a regular file (a socket)";
}

} // namespace

RegularFile RegularFile::open(const std::string &path, uint64_t limit, bool followLastLink) {
  RegularFile file;
  file.limit_ = limit;
  // O_NONBLOCK: opening a FIFO must not wait for a writer; the descriptor's
  // type is checked before anything is read.
  int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (followLastLink ? 0 : O_NOFOLLOW);
  int fd = ::open(path.c_str(), flags);
  if (fd < 0) {
    file.why_ = describeSystemError(errno);
    return file;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    file.why_ = describeSystemError(errno);
    ::close(fd);
    return file;
  }
  if (!S_ISREG(st.st_mode)) {
    file.why_ = fileTypeWord(st.st_mode);
    ::close(fd);
    return file;
  }
  if (uint64_t(st.st_size) > limit) {
    file.why_ = aboveInputLimit(uint64_t(st.st_size), limit);
    ::close(fd);
    return file;
  }
  file.fd_ = fd;
  file.size_ = uint64_t(st.st_size);
  return file;
}

RegularFile::RegularFile(RegularFile &&other) noexcept
    : fd_(other.fd_), size_(other.size_), limit_(other.limit_), why_(std::move(other.why_)) {
  other.fd_ = -1;
}

RegularFile::~RegularFile() {
  if (fd_ >= 0)
    ::close(fd_);
}

namespace {

/// Reads `fd` to its end into `out`, never past `limit` bytes in all: an
/// empty string, or why not (a system error; `over` set when the limit was
/// passed, a stream without end such as `< /dev/zero` included).
std::string readBounded(int fd, uint64_t limit, std::string &out, bool &over) {
  over = false;
  char chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return describeSystemError(errno);
    }
    if (n == 0)
      return "";
    if (out.size() + size_t(n) > limit) {
      over = true;
      return aboveInputLimit(out.size() + size_t(n), limit);
    }
    out.append(chunk, size_t(n));
  }
}

} // namespace

bool RegularFile::readAll(std::string &out) {
  // A file that grows past the limit meanwhile is refused.
  out.reserve(out.size() + size_t(size_));
  bool over;
  why_ = readBounded(fd_, limit_, out, over);
  return why_.empty();
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readInputFile(const std::string &path) {
  RegularFile file = RegularFile::open(path, maxInputSize());
  if (!file)
    return llvm::make_error<InputError>(path, 0, 0, file.why());
  // Read, not mapped (LLVM maps unless the file is volatile and the buffer
  // null-terminated): the text is kept for as long as what is made of it, and
  // a mapped file truncated meanwhile would fault the process.
  auto buffer = llvm::MemoryBuffer::getOpenFile(llvm::sys::fs::convertFDToNativeFile(file.fd()),
                                                path, file.size(),
                                                /*RequiresNullTerminator=*/true,
                                                /*IsVolatile=*/true);
  if (!buffer)
    return llvm::make_error<InputError>(path, 0, 0, describeSystemError(buffer.getError().value()));
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
  bool over;
  std::string why = readBounded(STDIN_FILENO, maxInputSize(), text, over);
  if (over)
    return llvm::make_error<InputError>(
        "<stdin>", 0, 0,
        fmt::format("more than {} bytes, the input limit (--max-input-size)", maxInputSize()));
  if (!why.empty())
    return llvm::make_error<InputError>("<stdin>", 0, 0, why);
  return text;
}

std::string errorLine(llvm::Error err) {
  std::string line;
  llvm::handleAllErrors(
      std::move(err),
      [&](const InputError &e) {
        // The file as it is shown (a line feed in its name is `\n`, not a
        // second line), the message on one line.
        std::string file = visibleText(e.file);
        line = e.line ? fmt::format("{}:{}:{}: error: {}", file, e.line, e.col, e.message)
                      : fmt::format("{}: error: {}", file, e.message);
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
