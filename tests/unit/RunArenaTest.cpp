#include "tilexform/support/RunArena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>

namespace {

using namespace tilexform;

TEST(RunArena, BlocksAreAlignedDistinctAndOwned) {
  arena::begin();
  arena::begin(); // a second call keeps the region it has
  std::set<uintptr_t> seen;
  for (size_t size : {0, 1, 15, 16, 17, 100, 4096}) {
    void *p = arena::allocate(size, 16);
    ASSERT_NE(p, nullptr) << size;
    auto at = reinterpret_cast<uintptr_t>(p);
    EXPECT_EQ(at % 16, 0u) << size;
    EXPECT_TRUE(seen.insert(at).second) << "block handed out twice: " << size;
    EXPECT_TRUE(arena::owns(p));
  }
  void *page = arena::allocate(24, 4096);
  ASSERT_NE(page, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(page) % 4096, 0u);
  int local = 0;
  EXPECT_FALSE(arena::owns(&local));
  EXPECT_FALSE(arena::owns(nullptr));
}

TEST(RunArena, AFullRegionHandsOutNothing) {
  arena::begin();
  // Address space only: nothing of these blocks is touched.
  EXPECT_EQ(arena::allocate(size_t(1) << 40, 16), nullptr);
  size_t handed = 0;
  while (arena::allocate(size_t(4) << 20, 16))
    handed += size_t(4) << 20;
  EXPECT_GT(handed, 0u);
  EXPECT_LE(handed, size_t(64) << 20);
  while (arena::allocate(16, 16))
    ;
  EXPECT_EQ(arena::allocate(1, 1), nullptr);
  EXPECT_EQ(arena::allocate(0, 16), nullptr);
}

} // namespace
