// The executable's operator new and delete: a run of one input takes its
// blocks from the run arena (tilexform/support/RunArena.h), every other
// allocation is malloc's. Not in sanitizer builds (see CMakeLists.txt).
#include "tilexform/support/RunArena.h"

#include <cstdlib>
#include <new>

namespace {

void *allocate(std::size_t size, std::size_t align) noexcept {
  if (void *p = tilexform::arena::allocate(size, align))
    return p;
  if (align <= __STDCPP_DEFAULT_NEW_ALIGNMENT__)
    return std::malloc(size ? size : 1);
  std::size_t rounded = (size + align - 1) & ~(align - 1);
  return std::aligned_alloc(align, rounded ? rounded : align);
}

void *allocateOrThrow(std::size_t size, std::size_t align) {
  for (;;) {
    if (void *p = allocate(size, align))
      return p;
    std::new_handler handler = std::get_new_handler();
    if (!handler)
      throw std::bad_alloc();
    handler();
  }
}

void release(void *p) noexcept {
  if (!tilexform::arena::owns(p))
    std::free(p);
}

constexpr std::size_t kDefault = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

} // namespace

void *operator new(std::size_t n) { return allocateOrThrow(n, kDefault); }
void *operator new[](std::size_t n) { return allocateOrThrow(n, kDefault); }
void *operator new(std::size_t n, std::align_val_t a) { return allocateOrThrow(n, std::size_t(a)); }
void *operator new[](std::size_t n, std::align_val_t a) {
  return allocateOrThrow(n, std::size_t(a));
}
void *operator new(std::size_t n, const std::nothrow_t &) noexcept { return allocate(n, kDefault); }
void *operator new[](std::size_t n, const std::nothrow_t &) noexcept {
  return allocate(n, kDefault);
}
void *operator new(std::size_t n, std::align_val_t a, const std::nothrow_t &) noexcept {
  return allocate(n, std::size_t(a));
}
void *operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t &) noexcept {
  return allocate(n, std::size_t(a));
}

void operator delete(void *p) noexcept { release(p); }
void operator delete[](void *p) noexcept { release(p); }
void operator delete(void *p, std::size_t) noexcept { release(p); }
void operator delete[](void *p, std::size_t) noexcept { release(p); }
void operator delete(void *p, std::align_val_t) noexcept { release(p); }
void operator delete[](void *p, std::align_val_t) noexcept { release(p); }
void operator delete(void *p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void *p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { release(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { release(p); }
void operator delete(void *p, std::align_val_t, const std::nothrow_t &) noexcept { release(p); }
void operator delete[](void *p, std::align_val_t, const std::nothrow_t &) noexcept { release(p); }
