// The executable is linked statically, and glibc's user-database lookups
// would load the name-service modules of whichever glibc the machine has at
// run time (the linker warns of it). tilexform never needs a user's entry:
// LLVM asks for one only to expand `~user` in a path or to find the home
// directory when HOME is unset, and neither is part of any command. These
// definitions take the place of glibc's and find no one, which every caller
// handles.
#include <cstddef>
#include <pwd.h>

extern "C" int getpwnam_r(const char *, struct passwd *, char *, size_t, struct passwd **result) {
  *result = nullptr;
  return 0;
}

extern "C" int getpwuid_r(uid_t, struct passwd *, char *, size_t, struct passwd **result) {
  *result = nullptr;
  return 0;
}
