#include "tilexform/support/OutputFile.h"

#include "tilexform/support/InputError.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tilexform {

char OutputFileError::ID = 0;

namespace {

/// Gives the written temporary `tmp` the name `path` only if no file has
/// it: 0, or the errno. renameat2's RENAME_NOREPLACE where the kernel and
/// the file system have it, else a hard link (which never replaces either)
/// and the temporary's name removed.
int publishExclusively(const std::string &tmp, const std::string &path) {
#ifdef RENAME_NOREPLACE
  if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP && errno != EOPNOTSUPP)
    return errno;
#endif
  if (::link(tmp.c_str(), path.c_str()) != 0)
    return errno;
  ::unlink(tmp.c_str());
  return 0;
}

} // namespace

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
  if (overwrite) {
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      int err = errno;
      ::unlink(tmp.c_str());
      return fail("cannot write: " + describeSystemError(err));
    }
    return llvm::Error::success();
  }
  // Without --force the file is published only if the name is still free:
  // the check above is not enough, another process (a second run writing the
  // same --out) may create it meanwhile. Both ways below fail with EEXIST,
  // atomically, when the name exists (even as a dangling link).
  if (int err = publishExclusively(tmp, path)) {
    ::unlink(tmp.c_str());
    if (err == EEXIST)
      return fail("exists now: another process created it while this one ran; not "
                  "overwritten (pass --force to overwrite it)");
    return fail("cannot write: " + describeSystemError(err));
  }
  return llvm::Error::success();
}

} // namespace tilexform
