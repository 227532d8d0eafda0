#include "tilexform/support/SourceFiles.h"

#include "tilexform/support/InputError.h"

#include <fmt/format.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tilexform {

SourceText::SourceText(std::string text) : text_(std::move(text)) {
  size_t at = 0;
  while (at < text_.size()) {
    starts_.push_back(uint32_t(at));
    size_t nl = text_.find('\n', at);
    if (nl == std::string::npos)
      break;
    at = nl + 1;
  }
}

llvm::StringRef SourceText::operator[](size_t i) const {
  size_t begin = starts_[i];
  size_t end = i + 1 < starts_.size() ? starts_[i + 1] : text_.size();
  llvm::StringRef l(text_.data() + begin, end - begin);
  l.consume_back("\n");
  l.consume_back("\r");
  return l;
}

namespace {

/// `path` with `.` and `..` taken out lexically, made absolute against the
/// working directory.
std::string lexicallyAbsolute(llvm::StringRef path) {
  llvm::SmallString<256> p(path);
  if (llvm::sys::fs::make_absolute(p))
    return "";
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return std::string(p);
}

std::string resolved(const std::string &path, int &err) {
  char buf[PATH_MAX];
  if (!::realpath(path.c_str(), buf)) {
    err = errno;
    return "";
  }
  err = 0;
  return buf;
}

const char *const kNotFound = "no such file or directory";

} // namespace

std::string resolvedPath(const std::string &path) {
  int err = 0;
  return resolved(path, err);
}

bool isBelowDirectory(llvm::StringRef path, llvm::StringRef root) {
  if (root.empty() || path.empty())
    return false;
  if (root == "/")
    return path.size() > 1 && path.starts_with("/");
  return path.starts_with(root) && path.size() > root.size() && path[root.size()] == '/';
}

SourceFiles::SourceFiles(const std::vector<std::string> &roots, uint64_t maxSize)
    : maxSize_(maxSize) {
  for (const std::string &r : roots) {
    if (r.empty())
      continue;
    int err = 0;
    std::string real = resolved(r, err);
    struct stat st;
    if (real.empty() || ::stat(real.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      continue;
    roots_.push_back(real);
    // The root as written, too, for the lexical check before anything is
    // touched (a root reached through a symlink is spelled both ways).
    std::string spelled = lexicallyAbsolute(r);
    if (!spelled.empty() && spelled != real)
      spelledRoots_.push_back(spelled);
  }
}

SourceFiles::~SourceFiles() = default;

bool SourceFiles::insideRoots(llvm::StringRef path) const {
  for (const std::string &r : roots_)
    if (isBelowDirectory(path, r))
      return true;
  return false;
}

bool SourceFiles::lexicallyInsideRoots(llvm::StringRef path) const {
  if (insideRoots(path))
    return true;
  for (const std::string &r : spelledRoots_)
    if (isBelowDirectory(path, r))
      return true;
  return false;
}

const SourceText *SourceFiles::tryRead(const std::string &candidate, std::string &why) {
  // Nothing outside the roots is touched, not even stat'ed: first the path
  // as written (with `..` taken out), then with every link resolved.
  std::string lexical = lexicallyAbsolute(candidate);
  if (lexical.empty() || !lexicallyInsideRoots(lexical)) {
    why = "outside the source roots";
    return nullptr;
  }
  int err = 0;
  std::string real = resolved(lexical, err);
  if (real.empty()) {
    why = describeSystemError(err);
    return nullptr;
  }
  if (!insideRoots(real)) {
    why = "outside the source roots (through a symlink or `..`)";
    return nullptr;
  }
  if (!llvm::StringRef(real).ends_with(".py")) {
    why = "not a .py file";
    return nullptr;
  }
  if (auto it = byResolved_.find(real); it != byResolved_.end())
    return it->second.get();

  // Not waited on if a FIFO was swapped in after the checks above, nor
  // followed if a symlink was swapped in for the file itself.
  RegularFile file = RegularFile::open(real, std::min<uint64_t>(maxSize_, UINT32_MAX),
                                       /*followLastLink=*/false);
  if (!file) {
    why = file.why();
    return nullptr;
  }
  int fd = file.fd();
#ifdef __linux__
  // What was opened, as the kernel names it: a directory of the path
  // replaced by a link between the checks and the open is caught here.
  {
    char buf[PATH_MAX];
    std::string self = "/proc/self/fd/" + std::to_string(fd);
    ssize_t n = ::readlink(self.c_str(), buf, sizeof buf - 1);
    if (n > 0 && !insideRoots(llvm::StringRef(buf, size_t(n)))) {
      why = "outside the source roots (changed while being opened)";
      return nullptr;
    }
  }
#endif
  std::string text;
  if (!file.readAll(text)) {
    why = file.why();
    return nullptr;
  }
  if (text.find('\0') != std::string::npos) {
    why = "holds a NUL byte (not Python source)";
    return nullptr;
  }
  auto &slot = byResolved_[real];
  slot = std::make_unique<SourceText>(std::move(text));
  return slot.get();
}

size_t SourceFiles::askedFor() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return byName_.size();
}

size_t SourceFiles::found() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return size_t(std::count_if(byName_.begin(), byName_.end(),
                              [](const auto &kv) { return kv.second.text != nullptr; }));
}

const SourceText *SourceFiles::lines(const std::string &file) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = byName_.find(file); it != byName_.end())
    return it->second.text;
  Entry &entry = byName_[file];
  if (roots_.empty()) {
    entry.refusal = "no source root to read it from";
    return nullptr;
  }
  if (file.empty() || file.find('\0') != std::string::npos) {
    entry.refusal = "not a file name";
    return nullptr;
  }
  std::vector<std::string> candidates;
  bool absolute = llvm::sys::path::is_absolute(file);
  if (absolute) {
    candidates.push_back(file);
  } else {
    for (const std::string &r : roots_) {
      llvm::SmallString<256> p(r);
      llvm::sys::path::append(p, file);
      candidates.push_back(std::string(p));
    }
  }
  llvm::StringRef base = llvm::sys::path::filename(file);
  if (!base.empty() && base != "." && base != ".." && base != file)
    for (const std::string &r : roots_) {
      llvm::SmallString<256> p(r);
      llvm::sys::path::append(p, base);
      candidates.push_back(std::string(p));
    }
  // The reason shown is the first that is not "not found" (a candidate that
  // exists says more), else "not found".
  std::string firstWhy;
  for (const std::string &c : candidates) {
    std::string why;
    if (const SourceText *t = tryRead(c, why)) {
      entry.text = t;
      entry.refusal.clear();
      return t;
    }
    if (firstWhy.empty() || (firstWhy == kNotFound && why != kNotFound))
      firstWhy = why;
  }
  entry.refusal = firstWhy == kNotFound ? "not found below the source roots" : firstWhy;
  return nullptr;
}

std::string SourceFiles::refusal(const std::string &file) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = byName_.find(file);
  return it == byName_.end() ? "" : it->second.refusal;
}

} // namespace tilexform
