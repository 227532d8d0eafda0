#include "TestUtil.h"

#include "tilexform/gluon/Gluon.h"

using namespace tilexform;

namespace {

TEST(Gluon, EmitsTriton36Spelling) {
  auto ctx = ir::makeContext();
  auto enc = test::parseLayout(
      ctx.get(),
      "#ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], "
      "instrShape = [16, 16, 32], isTransposed = true, tilesPerWarp = [2, 2]}>, kWidth = 8}>");
  ASSERT_TRUE(enc);
  auto g = gluon::emitGluon(*enc);
  ASSERT_TRUE(g.expr);
  EXPECT_EQ(*g.expr, "gl.DotOperandLayout(operand_index=1, parent=gl.amd.AMDMFMALayout(version=4, "
                     "instr_shape=[16, 16, 32], transposed=True, warps_per_cta=[2, 2], "
                     "tiles_per_warp=[2, 2]), k_width=8)");
  EXPECT_TRUE(gluon::checkRoundTrip(*enc, *g.expr, {64, 128}).exact);
}

TEST(Gluon, LegacyApiSpellsCtaFields) {
  auto ctx = ir::makeContext();
  auto enc =
      test::parseLayout(ctx.get(), "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
                                   "order = [1, 0], CGALayout = [[0, 1]]}>");
  ASSERT_TRUE(enc);
  auto g = gluon::emitGluon(*enc, gluon::GluonApi::V3_5);
  ASSERT_TRUE(g.expr);
  EXPECT_EQ(*g.expr, "gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0], "
                     "ctas_per_cga=[1, 2], cta_split_num=[1, 2], cta_order=[1, 0])");
  // The old spelling parses back to the same layout.
  EXPECT_TRUE(gluon::checkRoundTrip(*enc, *g.expr, {64, 64}).exact);
}

TEST(Gluon, UnconstructibleKindsSayWhy) {
  auto ctx = ir::makeContext();
  auto enc = test::parseLayout(
      ctx.get(),
      "#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>");
  ASSERT_TRUE(enc);
  auto g = gluon::emitGluon(*enc);
  EXPECT_FALSE(g.expr);
  EXPECT_NE(g.reason.find("amd_rotating_shared"), std::string::npos);
}

TEST(Gluon, ParsesPositionalAndPrefixedForms) {
  auto a = gluon::parseGluon("ttgl.BlockedLayout([1, 8], [8, 8], [4, 1], [1, 0])");
  auto b = gluon::parseGluon(
      "BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 8], warps_per_cta=[4, 1], "
      "order=[1, 0], cga_layout=[])");
  ASSERT_TRUE(bool(a));
  ASSERT_TRUE(bool(b));
  EXPECT_EQ(**a, **b);
}

TEST(Gluon, RejectsMalformedExpressions) {
  for (const char *bad : {"gl.BlockedLayout(", "gl.Nope(x=1)", "gl.BlockedLayout(order=[1, 0])",
                          "gl.SliceLayout(dim=1, parent=3)", "[[[[", ""}) {
    auto r = gluon::parseGluon(bad);
    EXPECT_FALSE(bool(r)) << bad;
    if (!r)
      llvm::consumeError(r.takeError());
  }
}

} // namespace
