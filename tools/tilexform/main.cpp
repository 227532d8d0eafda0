#include "tilexform/cli/Commands.h"

#include <cstdlib> // defines __GLIBC__ where it is glibc

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
#define TILEXFORM_OWN_ALLOCATOR 1 // a sanitizer's: the heap is not glibc's
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TILEXFORM_OWN_ALLOCATOR 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(TILEXFORM_OWN_ALLOCATOR)
#include <cstdint>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

namespace {

/// A run touches a few megabytes of heap, and in a virtual machine each
/// first touch of a 4 KiB page costs microseconds: the kitchen-sink dump paid
/// more for its 700 heap page faults than for reading it. The heap is grown
/// once by 8 MiB and those bytes asked for as transparent huge pages, which
/// the kernel then gives a 2 MiB page at a time when they are touched (what
/// glibc's `glibc.malloc.hugetlb=1` tunable does; set here, since a tool
/// cannot ask its users for an environment). Nothing is touched or committed
/// in advance; where huge pages are off, the advice is ignored.
/// The next chunk glibc carves from the heap's top: a request larger than
/// any free chunk comes from there, and the top then starts right after it.
uintptr_t topChunk() {
  const size_t request = size_t(64) << 10; // untouched, so never committed
  auto at = reinterpret_cast<uintptr_t>(std::malloc(request));
  return at ? at - 16 + ((request + 8 + 15) & ~size_t(15)) : 0;
}

void growHeapInHugePages() {
  const size_t pad = size_t(8) << 20, huge = size_t(2) << 20;
  mallopt(M_TOP_PAD, int(pad));
  mallopt(M_TRIM_THRESHOLD, int(4 * pad));
  mallopt(M_MMAP_THRESHOLD, int(2 * huge)); // the fillers below come from the heap
  // A filler, never touched (so never committed), takes the top chunk up to
  // just below the next 2 MiB boundary: glibc writes the top chunk's 16-byte
  // header there, below it, and everything after it can be huge pages (a
  // 2 MiB range with any page touched before the advice stays small pages).
  uintptr_t top = topChunk();
  if (!top)
    return;
  uintptr_t boundary = (top + huge - 1) & ~(huge - 1);
  if (boundary - top < 4096)
    boundary += huge;
  size_t chunk = boundary - 16 - top; // header (8) and request, in 16-byte steps
  if (reinterpret_cast<uintptr_t>(std::malloc(chunk - 8)) != top + 16)
    return; // not where it was expected: leave the heap as it is
  uintptr_t end = reinterpret_cast<uintptr_t>(sbrk(0)) & ~(huge - 1);
  if (end > boundary)
    madvise(reinterpret_cast<void *>(boundary), end - boundary, MADV_HUGEPAGE);
}

} // namespace
#else
namespace {
void growHeapInHugePages() {}
} // namespace
#endif

int main(int argc, char **argv) {
  growHeapInHugePages();
  return tilexform::cli::run(argc, argv);
}
