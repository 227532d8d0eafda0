#include "tilexform/support/OutputFile.h"

#include "tilexform/support/InputError.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tilexform {

char OutputFileError::ID = 0;

llvm::Error writeFileAtomically(const std::string &path, llvm::StringRef contents, bool overwrite) {
  auto fail = [&](const std::string &why, bool exists = false) {
    return llvm::make_error<OutputFileError>(path + ": " + why, exists);
  };
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      return fail("is a symbolic link; not written through it", !overwrite);
    if (!S_ISREG(st.st_mode))
      return fail("exists and is not a regular file", !overwrite);
    if (!overwrite)
      return fail("exists; pass --force to overwrite it", true);
  } else if (errno != ENOENT) {
    return fail(describeSystemError(errno));
  }
  std::string dir = ".", base = path;
  if (auto slash = path.rfind('/'); slash != std::string::npos) {
    dir = slash == 0 ? "/" : path.substr(0, slash);
    base = path.substr(slash + 1);
  }
  if (base.empty())
    return fail("names a directory, not a file");
  // mkstemp creates the file with O_EXCL: never an existing file or link.
  std::string tmpl = dir + "/." + base + ".tilexform-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) {
    int err = errno;
    if (err == ENOENT)
      return fail("no such directory '" + dir + "'");
    return fail(describeSystemError(err));
  }
  std::string tmp(name.data());
  auto abandon = [&](int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return fail("cannot write: " + describeSystemError(err));
  };
  const char *p = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return abandon(errno);
    }
    p += n;
    left -= size_t(n);
  }
  // Permissions as a plain new file would get them (mkstemp makes it 0600).
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return fail("cannot write: " + describeSystemError(err));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return fail("cannot write: " + describeSystemError(err));
  }
  return llvm::Error::success();
}

} // namespace tilexform
