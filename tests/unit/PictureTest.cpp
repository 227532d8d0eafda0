// The picture model and its SVG: one cell per element with the owners the
// linear layout gives, the bound on size, differing cells, and the bytes.
#include "TestUtil.h"

#include "tilexform/layout/Encoding.h"
#include "tilexform/layout/Picture.h"

#include <gtest/gtest.h>

using namespace tilexform;
using namespace tilexform::layout;

namespace {

const char *kBlocked = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
                       "warpsPerCTA = [4, 1], order = [1, 0]}>";

class Picture : public ::testing::Test {
protected:
  std::unique_ptr<mlir::MLIRContext> ctx = ir::makeContext();
  LinearLayout linear(const char *attr, std::vector<int64_t> shape) {
    auto enc = test::parseLayout(ctx.get(), attr);
    EXPECT_TRUE(enc);
    auto l = linearLayoutAt(*enc, shape);
    EXPECT_TRUE(bool(l));
    return l ? std::move(*l) : (llvm::consumeError(l.takeError()), LinearLayout());
  }
};

TEST_F(Picture, OneCellPerElementWithItsOwners) {
  LinearLayout ll = linear(kBlocked, {16, 16});
  auto p = pictureOf(ll);
  ASSERT_TRUE(bool(p)) << llvm::toString(p.takeError());
  ASSERT_EQ(p->cells.size(), 256u);
  EXPECT_EQ(p->rows, 16);
  EXPECT_EQ(p->cols, 16);
  EXPECT_EQ(p->warps, 4);
  EXPECT_EQ(p->lanes, 32);
  // 16x16 under a 16x32 tile: every element is held twice (lanes 0 and 4).
  for (auto &cell : p->cells) {
    ASSERT_EQ(cell.owners.size(), 2u);
    for (auto &o : cell.owners) {
      auto at = ll.apply({{"register", o.reg}, {"lane", o.lane}, {"warp", o.warp}, {"block", 0}});
      EXPECT_EQ(at[0].second, cell.element[0]);
      EXPECT_EQ(at[1].second, cell.element[1]);
    }
  }
  // Triton's view of element [1, 0] is `T8:0|T12:0`.
  EXPECT_EQ(p->label(p->cells[16]), "T8:0|T12:0");
}

TEST_F(Picture, SharedCellsCarryOffsetAndBank) {
  LinearLayout ll = linear("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
                           "order = [1, 0]}>",
                           {8, 64});
  auto p = pictureOf(ll, 16);
  ASSERT_TRUE(bool(p));
  EXPECT_TRUE(p->shared);
  for (auto &cell : p->cells) {
    ASSERT_EQ(cell.owners.size(), 1u);
    EXPECT_EQ(p->bank(cell.owners[0]), cell.owners[0].offset / 2 % 32);
  }
  // Row 1 is swizzled: its first element is not at offset 64.
  EXPECT_EQ(p->cells[0].owners[0].offset, 0);
  EXPECT_NE(p->cells[64].owners[0].offset, 64);
}

TEST_F(Picture, RefusesPastTheBound) {
  auto p = pictureOf(linear(kBlocked, {512, 256}));
  ASSERT_FALSE(bool(p));
  EXPECT_NE(llvm::toString(p.takeError()).find("too many to draw"), std::string::npos);
  EXPECT_TRUE(bool(pictureOf(linear(kBlocked, {256, 256}))));
}

TEST_F(Picture, DifferingCellsAreTheElementsPlacedDifferently) {
  const char *narrow = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
                       "warpsPerCTA = [4], order = [0]}>";
  const char *wide = "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], "
                     "warpsPerCTA = [4], order = [0]}>";
  auto a = pictureOf(linear(narrow, {512}));
  auto b = pictureOf(linear(wide, {512}));
  ASSERT_TRUE(a && b);
  auto differing = differingCells(*a, *b);
  // Element 0 is T0:0 in both; element 1 is T1:0 against T0:1.
  EXPECT_FALSE(differing.count(0));
  EXPECT_TRUE(differing.count(1));
  for (int64_t i = 0; i < 512; ++i) {
    auto x = a->cells[size_t(i)].owners, y = b->cells[size_t(i)].owners;
    EXPECT_EQ(differing.count(i) != 0, x != y) << i;
  }
  EXPECT_TRUE(differingCells(*a, *a).empty());
  EXPECT_EQ(a->rows, 8);
  EXPECT_EQ(a->cols, kPictureRowWrap);
}

TEST_F(Picture, SvgIsDeterministicAndColoursByWarp) {
  auto p = pictureOf(linear(kBlocked, {16, 16}));
  ASSERT_TRUE(bool(p));
  SvgOptions o;
  o.title = std::string(kBlocked);
  o.subtitle = "gl.BlockedLayout(<&>)";
  o.highlighted = {3};
  std::string svg = renderSvg(*p, o);
  EXPECT_EQ(svg, renderSvg(*p, o));
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("gl.BlockedLayout(&lt;&amp;&gt;)"), std::string::npos);
  size_t cells = 0, differs = 0;
  for (size_t at = svg.find("<rect class=\"cell"); at != std::string::npos;
       at = svg.find("<rect class=\"cell", at + 1)) {
    ++cells;
    differs += svg.compare(at, 25, "<rect class=\"cell differs") == 0;
  }
  EXPECT_EQ(cells, 256u);
  EXPECT_EQ(differs, 1u);
  // Warp 2 holds row 8: its fill is the palette's third colour.
  EXPECT_NE(svg.find("fill=\"" + pictureColor(2) + "\" data-element=\"8,0\""), std::string::npos);
  EXPECT_EQ(pictureColor(0), "#E69F00");
  EXPECT_NE(pictureColor(8), pictureColor(0));
}

// What XML 1.0 and HTML cannot hold becomes U+FFFD: C0 controls but tab,
// LF and CR; DEL and C1; noncharacters; surrogates and other invalid UTF-8.
TEST(PictureText, XmlEscape) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(xmlEscape("a<b>&\"c\x01"), "a&lt;b&gt;&amp;&quot;c" + r);
  EXPECT_EQ(xmlEscape("t\tn\nr\r"), "t\tn\nr\r");
  EXPECT_EQ(xmlEscape("\x7F\xC2\x85\xEF\xBF\xBE\xEF\xBF\xBF\xEF\xB7\x90"), r + r + r + r + r);
  EXPECT_EQ(xmlEscape("\xED\xA0\x80"), r + r + r); // a lone surrogate's bytes
  EXPECT_EQ(xmlEscape("\xFF\xC3"), r + r);         // invalid, and cut short
  EXPECT_EQ(xmlEscape("caf\xC3\xA9 \xF0\x9F\x99\x82"), "caf\xC3\xA9 \xF0\x9F\x99\x82"); // kept
}

} // namespace
