#include "tilexform/support/RunArena.h"

#include <atomic>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tilexform::arena {

namespace {

// Address space only: pages are committed as they are first touched.
constexpr size_t kReserve = size_t(64) << 20;

std::atomic<uintptr_t> gBase{0}, gNext{0}, gEnd{0};

} // namespace

void begin() {
#if defined(__linux__)
  if (gEnd.load(std::memory_order_acquire))
    return;
  void *p = mmap(nullptr, kReserve, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return;
  madvise(p, kReserve, MADV_HUGEPAGE); // a hint; ignored where huge pages are off
  auto at = reinterpret_cast<uintptr_t>(p);
  gBase.store(at, std::memory_order_relaxed);
  gNext.store(at, std::memory_order_relaxed);
  gEnd.store(at + kReserve, std::memory_order_release); // publishes the two above
#endif
}

void *allocate(size_t size, size_t align) noexcept {
  uintptr_t end = gEnd.load(std::memory_order_acquire);
  if (!end || size > kReserve)
    return nullptr;
  size = size ? (size + 15) & ~size_t(15) : 16; // a distinct block even for 0 bytes
  uintptr_t at = gNext.load(std::memory_order_relaxed), aligned, next;
  do {
    aligned = (at + align - 1) & ~uintptr_t(align - 1);
    next = aligned + size;
    if (next > end)
      return nullptr;
  } while (!gNext.compare_exchange_weak(at, next, std::memory_order_relaxed));
  return reinterpret_cast<void *>(aligned);
}

bool owns(const void *p) noexcept {
  auto at = reinterpret_cast<uintptr_t>(p);
  uintptr_t base = gBase.load(std::memory_order_relaxed);
  return base && at >= base && at < base + kReserve;
}

} // namespace tilexform::arena
