// Work over many inputs: in parallel on `jobs` threads (0: all cores),
// reporting (done, total) after each item from one thread at a time.
#pragma once

#include <llvm/Support/Parallel.h>
#include <llvm/Support/Threading.h>

#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>

namespace tilexform {

/// Where a batch stands in a larger run: `before` items were done in earlier
/// batches, of `total` (0: the batch is the whole run).
struct ProgressOf {
  size_t before = 0, total = 0;
};

template <class F>
void parallelForWithProgress(size_t count, unsigned jobs,
                             const std::function<void(size_t, size_t)> &progress, F &&body,
                             ProgressOf of = {}) {
  std::atomic<size_t> done{0};
  std::mutex progressMutex;
  llvm::parallel::strategy = llvm::hardware_concurrency(jobs);
  llvm::parallelFor(0, count, [&](size_t i) {
    body(i);
    size_t n = ++done;
    if (progress) {
      std::lock_guard<std::mutex> lock(progressMutex);
      progress(of.before + n, of.total ? of.total : count);
    }
  });
}

} // namespace tilexform
