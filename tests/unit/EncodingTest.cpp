// Encoding -> linear layout conversions against Triton's own unit-test
// vectors (LinearLayoutConversionsTest) and the worked examples.
#include "TestUtil.h"

#include "tilexform/layout/Encoding.h"

#include <gtest/gtest.h>

using namespace tilexform;
using namespace tilexform::layout;

namespace {

struct Case {
  const char *name;
  const char *attr;
  std::vector<int64_t> shape;
  std::vector<std::pair<std::string, Bases>> expect; // only the dims listed
};

void PrintTo(const Case &c, std::ostream *os) { *os << c.name << " " << c.attr; }

class Conversion : public ::testing::TestWithParam<Case> {
protected:
  std::unique_ptr<mlir::MLIRContext> ctx = ir::makeContext();
};

TEST_P(Conversion, MatchesTriton) {
  const Case &c = GetParam();
  auto enc = test::parseLayout(ctx.get(), c.attr);
  ASSERT_TRUE(enc);
  auto got = linearLayoutAt(*enc, c.shape);
  ASSERT_TRUE(bool(got)) << llvm::toString(got.takeError());
  const LinearLayout &ll = *got;
  for (auto &[dim, bases] : c.expect) {
    std::vector<LinearLayout::Basis> want(bases.begin(), bases.end());
    EXPECT_EQ(ll.basesOf(dim), want) << c.name << ": in-dim " << dim << "\n" << ll.toString();
  }
}

const char *kBlocked1x8 = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], "
                          "warpsPerCTA = [4, 1], order = [1, 0]}>";

INSTANTIATE_TEST_SUITE_P(
    Triton, Conversion,
    ::testing::Values(
        Case{"SimpleBlocked",
             "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [4], order = "
             "[0]}>",
             {16},
             {{"register", {}}, {"lane", {{1}, {2}}}, {"warp", {{4}, {8}}}, {"block", {}}}},
        Case{"CTADuplication",
             "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [4], order = "
             "[0], "
             "CTAsPerCGA = [4], CTASplitNum = [2], CTAOrder = [0]}>",
             {32},
             {{"lane", {{1}, {2}}}, {"warp", {{4}, {8}}}, {"block", {{16}, {0}}}}},
        Case{"CTABroadcast",
             "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], "
             "order = [0, 1], CTAsPerCGA = [1, 2], CTASplitNum = [1, 2], CTAOrder = [1, 0]}>",
             {64, 128},
             {{"register", {{1, 0}, {2, 0}, {4, 0}, {0, 16}, {0, 32}}},
              {"lane", {{8, 0}, {16, 0}, {32, 0}, {0, 1}, {0, 2}}},
              {"warp", {{0, 4}, {0, 8}}},
              {"block", {{0, 64}}}}},
        Case{"ShapeLargerThanLayout",
             "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [4], order = "
             "[0]}>",
             {128},
             {{"register", {{16}, {32}, {64}}}, {"lane", {{1}, {2}}}, {"warp", {{4}, {8}}}}},
        Case{"ReversedOrder",
             "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, "
             "8], order = [0, 1]}>",
             {1, 64},
             {{"register", {{0, 8}, {0, 16}, {0, 32}}},
              {"lane", {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}},
              {"warp", {{0, 1}, {0, 2}, {0, 4}}}}},
        Case{"OneDimTooLargeAnotherTooSmall",
             "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
             "order = [1, 0], CTAsPerCGA = [2, 2], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>",
             {128, 16},
             {{"register", {{0, 1}, {0, 2}, {32, 0}}},
              {"lane", {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}},
              {"warp", {{8, 0}, {16, 0}}},
              {"block", {{0, 0}, {64, 0}}}}},
        Case{
            "BlockedOrder",
            "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], "
            "order = [1, 0], CTAsPerCGA = [2, 2], CTASplitNum = [2, 2], CTAOrder = [1, 0]}>",
            {1024, 128},
            {{"register", {{0, 1}, {1, 0}, {0, 32}, {16, 0}, {32, 0}, {64, 0}, {128, 0}, {256, 0}}},
             {"lane", {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}},
             {"warp", {{0, 16}, {8, 0}}},
             {"block", {{0, 64}, {512, 0}}}}},
        Case{"WorkedExampleBlocked",
             kBlocked1x8,
             {128, 64},
             {{"register", {{0, 1}, {0, 2}, {0, 4}, {32, 0}, {64, 0}}},
              {"lane", {{0, 8}, {0, 16}, {0, 32}, {1, 0}, {2, 0}, {4, 0}}},
              {"warp", {{8, 0}, {16, 0}}}}},
        Case{"SliceOfBlocked",
             "#ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = "
             "[4, 2], "
             "warpsPerCTA = [2, 2], order = [1, 0], CTAsPerCGA = [2, 2], CTASplitNum = [2, 2], "
             "CTAOrder = [1, 0]}>}>",
             {128},
             {{"register", {{1}, {2}, {16}, {32}}},
              {"lane", {{4}, {0}, {0}}},
              {"warp", {{8}, {0}}},
              {"block", {{64}, {0}}}}},
        Case{"BlockedDotOperandLhs",
             "#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [2, 4], "
             "threadsPerWarp = [8, 4], "
             "warpsPerCTA = [2, 4], order = [1, 0]}>}>",
             {32, 16},
             {{"register", {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}}},
              {"lane", {{0, 0}, {0, 0}, {2, 0}, {4, 0}, {8, 0}}},
              {"warp", {{0, 0}, {0, 0}, {16, 0}}}}},
        Case{"MMAv2_32x32",
             "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], "
             "instrShape = [16, 8]}>",
             {32, 32},
             {{"register", {{0, 1}, {8, 0}, {0, 8}, {0, 16}, {16, 0}}},
              {"lane", {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}}}},
        Case{"MMAv3_4x2Warps",
             "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], "
             "instrShape = [16, 32, 16]}>",
             {64, 64},
             {{"register", {{0, 1}, {8, 0}, {0, 8}, {0, 16}}},
              {"warp", {{16, 0}, {32, 0}, {0, 32}}}}},
        Case{
            "DotMMAv2_large_warp4_kwidth8",
            "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
            "warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 8}>",
            {128, 128},
            {{"register", {{0, 1}, {0, 2}, {0, 4}, {8, 0}, {0, 32}, {0, 64}, {64, 0}}},
             {"lane", {{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}}},
             {"warp", {{16, 0}, {32, 0}}}}},
        Case{"MFMA32_2x4Warps",
             "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], "
             "isTransposed = false}>",
             {128, 128},
             {{"register", {{1, 0}, {2, 0}, {8, 0}, {16, 0}, {64, 0}}},
              {"lane", {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}}},
              {"warp", {{0, 32}, {0, 64}, {32, 0}}}}},
        Case{"MFMA32_2x4Warps_tpw_2_2",
             "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], "
             "isTransposed = false, "
             "tilesPerWarp = [2, 2]}>",
             {256, 256},
             {{"register", {{1, 0}, {2, 0}, {8, 0}, {16, 0}, {0, 32}, {32, 0}, {128, 0}}},
              {"warp", {{0, 64}, {0, 128}, {64, 0}}}}},
        Case{"MFMA16_2x4Warps_F64",
             "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [16, 16, 4], "
             "isTransposed = false, "
             "elementBitWidth = 64}>",
             {16, 16},
             {{"register", {{4, 0}, {8, 0}}},
              {"lane", {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}}}}},
        Case{"MFMA32_dot_op_lhs_kwidth4",
             "#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], "
             "instrShape = [32, 32, 8], isTransposed = false}>, kWidth = 4}>",
             {128, 128},
             {{"register", {{0, 1}, {0, 2}, {0, 8}, {0, 16}, {0, 32}, {0, 64}, {64, 0}}},
              {"lane", {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 4}}},
              {"warp", {{0, 0}, {0, 0}, {32, 0}}}}},
        Case{"WMMA_v1_2x4Warps",
             "#ttg.amd_wmma<{version = 1, isTranspose = false, warpsPerCTA = [2, 4]}>",
             {128, 128},
             {{"register", {{2, 0}, {4, 0}, {8, 0}, {0, 64}, {32, 0}, {64, 0}}},
              {"lane", {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}}},
              {"warp", {{0, 16}, {0, 32}, {16, 0}}}}},
        Case{
            "SharedSwizzled2D_MaxPhaseOnly",
            "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [1, 0]}>",
            {32, 32},
            {{"offset",
              {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 1}, {2, 2}, {4, 0}, {8, 0}, {16, 0}}}}},
        Case{"SharedSwizzled2D_Order01",
             "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [0, 1]}>",
             {4, 8},
             {{"offset", {{1, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 4}}}}},
        Case{"LeadingOffset_8x64_1_8_32b",
             "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = "
             "32}>",
             {8, 64},
             {{"offset",
               {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 4}, {2, 8}, {4, 16}, {0, 32}}}}},
        Case{"LeadingOffset_128x128_transposed",
             "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = "
             "32}>",
             {128, 128},
             {{"offset",
               {{1, 0},
                {2, 0},
                {4, 0},
                {8, 0},
                {16, 0},
                {4, 1},
                {8, 2},
                {16, 4},
                {0, 8},
                {0, 16},
                {0, 32},
                {0, 64},
                {32, 0},
                {64, 0}}}}},
        Case{"LeadingOffset_32x4x64_32b",
             "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = "
             "32, rank = 3}>",
             {32, 4, 64},
             {{"offset",
               {{0, 0, 1},
                {0, 0, 2},
                {0, 0, 4},
                {0, 0, 8},
                {0, 1, 0},
                {0, 2, 4},
                {1, 0, 8},
                {2, 0, 0},
                {4, 0, 0},
                {8, 0, 0},
                {16, 0, 0},
                {0, 0, 16},
                {0, 0, 32}}}}},
        Case{"MMAv5Fp4Padded",
             "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = "
             "8, fp4Padded = true}>",
             {32, 64},
             {{"offset",
               {{0, 1},
                {0, 2},
                {0, 4},
                {0, 0},
                {0, 8},
                {0, 16},
                {0, 32},
                {1, 8},
                {2, 16},
                {4, 32},
                {8, 0},
                {16, 0}}}}},
        Case{"AMDRotatingShared2D_64x64",
             "#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>",
             {64, 64},
             {{"offset",
               {{0, 1},
                {0, 2},
                {0, 4},
                {0, 8},
                {0, 16},
                {0, 32},
                {1, 0},
                {2, 4},
                {4, 8},
                {8, 4},
                {16, 8},
                {32, 0}}}}},
        Case{"LinearReusedAtLargerShape",
             "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [32, 0], [64, 0]], lane = [[0, 8], "
             "[0, 16], "
             "[0, 32], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>",
             {256, 64},
             {{"register", {{0, 1}, {0, 2}, {0, 4}, {32, 0}, {64, 0}, {128, 0}}}}},
        Case{"LinearReusedAtSmallerShape",
             "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [32, 0], [64, 0]], lane = [[0, 8], "
             "[0, 16], "
             "[0, 32], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>",
             {64, 64},
             {{"register", {{0, 1}, {0, 2}, {0, 4}, {32, 0}}}}}),
    [](const ::testing::TestParamInfo<Case> &info) { return std::string(info.param.name); });

TEST(Encoding, PrintsCanonicalText) {
  auto ctx = ir::makeContext();
  for (const char *text :
       {kBlocked1x8,
        "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed "
        "= true, "
        "tilesPerWarp = [2, 2], elementBitWidth = 64}>",
        "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], CGALayout = "
        "[[1, 0]], "
        "instrShape = [16, 8]}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, "
        "rank = 3}>",
        "#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>",
        "#ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [64, 64]}>"}) {
    auto enc = test::parseLayout(ctx.get(), text);
    ASSERT_TRUE(enc);
    EXPECT_EQ(printEncoding(*enc), text);
  }
}

TEST(Encoding, LegacySpellingsMapToTheSameLayouts) {
  auto ctx = ir::makeContext();
  auto a = test::parseLayout(
      ctx.get(), "#triton_gpu.amd_mfma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 2], "
                 "instrShape = [32, 32], isTransposed = true}>");
  auto b = test::parseLayout(ctx.get(), "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], "
                                        "instrShape = [32, 32, 8], isTransposed = true}>");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(*a, *b);
  auto c = test::parseLayout(ctx.get(),
                             "#triton_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = "
                             "[8, 8], warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [1, 1], "
                             "CTASplitNum = [1, 1], CTAOrder = [1, 0]}>");
  ASSERT_TRUE(c);
  EXPECT_EQ(printEncoding(*c), kBlocked1x8);
  auto w =
      test::parseLayout(ctx.get(), "#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = "
                                   "{register = [[0, 1], [1, 0]], warp = [[0, 2], [2, 0]]}}>");
  ASSERT_TRUE(w);
  EXPECT_EQ(printEncoding(*w),
            "#ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2], "
            "tilesPerWarp = [2, 2]}>");
}

TEST(Encoding, CgaSplitParamsRoundTrip) {
  CGALayout cga = llvm::cantFail(cgaFromSplitParams({2, 1}, {2, 1}, {1, 0}));
  EXPECT_EQ(cga.bases, (Bases{{1, 0}}));
  EXPECT_EQ(llvm::cantFail(cgaFromSplitParams({2, 1}, {1, 1}, {1, 0})).bases, (Bases{{0, 0}}));
  auto broken = cgaFromSplitParams({3, 1}, {1, 1}, {1, 0});
  ASSERT_FALSE(bool(broken));
  EXPECT_EQ(llvm::toString(broken.takeError()),
            "CTAsPerCGA must be a power-of-two multiple of CTASplitNum");
  auto p = cgaToSplitParams(cga, 2);
  EXPECT_EQ(p.ctasPerCGA, (std::vector<unsigned>{2, 1}));
  EXPECT_EQ(p.ctaSplitNum, (std::vector<unsigned>{2, 1}));
}

TEST(Encoding, EquivalenceIsOnNormalForms) {
  auto ctx = ir::makeContext();
  auto blocked = test::parseLayout(ctx.get(), kBlocked1x8);
  auto linear = test::parseLayout(
      ctx.get(),
      "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [32, 0], [64, 0]], lane = [[0, 8], "
      "[0, 16], [0, 32], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>");
  ASSERT_TRUE(blocked && linear);
  EXPECT_TRUE(equivalentAt(*blocked, *linear, {128, 64}));
  // Not at 128x128: the linear layout appends its extra register last.
  EXPECT_FALSE(equivalentAt(*blocked, *linear, {128, 128}));
}

TEST(Encoding, BadShapesAreErrorsNotCrashes) {
  auto ctx = ir::makeContext();
  auto blocked = test::parseLayout(ctx.get(), kBlocked1x8);
  ASSERT_TRUE(blocked);
  auto message = [](llvm::Expected<LinearLayout> l) {
    return l ? std::string("no error") : llvm::toString(l.takeError());
  };
  EXPECT_EQ(message(linearLayoutAt(*blocked, {128})),
            "blocked layout has rank 2 but the shape has rank 1");
  EXPECT_EQ(message(linearLayoutAt(*blocked, {100, 64})), "shape dim 100 is not a power of two");
  auto nvmma = test::parseLayout(
      ctx.get(),
      "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>");
  ASSERT_TRUE(nvmma);
  EXPECT_EQ(message(linearLayoutAt(*nvmma, {8, 16})),
            "nvmma_shared with 128-byte swizzle needs at least 64 elements along the contiguous "
            "dim");
  // A dot operand of an MMA parent without kWidth: an error where
  // Triton's builders would assert.
  auto noKWidth = test::parseLayout(ctx.get(), "#ttg.dot_op<{opIdx = 0, parent = "
                                               "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = "
                                               "0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>}>");
  ASSERT_TRUE(noKWidth);
  EXPECT_EQ(message(linearLayoutAt(*noKWidth, {64, 64})),
            "dot_op with an nvidia_mma parent needs kWidth");
}

TEST(Encoding, WarpsInLayoutFollowsParents) {
  auto ctx = ir::makeContext();
  auto dot = test::parseLayout(
      ctx.get(),
      "#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], "
      "instrShape = [32, 32, 8], isTransposed = false}>, kWidth = 4}>");
  ASSERT_TRUE(dot);
  EXPECT_EQ(warpsInLayout(*dot), 8u);
}

} // namespace
