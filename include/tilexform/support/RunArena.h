#pragma once
// A bump region for the allocations of a run over one input.
//
// One input's run allocates some 30,000 small blocks (the IR, its names and
// use lists, the report) and frees almost none before it ends; a general
// allocator spends a fifth of the run's instructions on them. When the CLI
// sees a run of one input it turns the region on, and the executable's
// `operator new` takes blocks from it by moving a pointer (`operator delete`
// of a block in it does nothing; the process's end reclaims it all). The
// region is reserved, not committed: only what is used is touched, as huge
// pages where the kernel has them. Once it is full, or in a run of many
// inputs (where memory must be reused), allocation is the allocator's.
//
// Only the tilexform executable routes `operator new` here (not the tests,
// nor sanitizer builds, whose allocators must see every block).

#include <cstddef>

namespace tilexform::arena {

/// Serve later allocations from the region (reserved on first use). Call
/// before the run's work, from the thread that does it.
void begin();
/// A block of `size` bytes aligned to `align` (a power of two), or null when
/// the region is off or has no room left.
void *allocate(size_t size, size_t align) noexcept;
/// Whether a block came from the region.
bool owns(const void *p) noexcept;

} // namespace tilexform::arena
