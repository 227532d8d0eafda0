// The GF(2) algebra, checked against the vectors Triton's own unit tests use.
#include "tilexform/layout/LinearLayout.h"

#include <gtest/gtest.h>
#include <llvm/Support/Error.h>

using namespace tilexform::layout;

namespace {

LinearLayout::Basis B(std::initializer_list<int32_t> v) { return LinearLayout::Basis(v); }

TEST(LinearLayout, ProductOrdersInnerFirst) {
  auto l = LinearLayout::identity1D(4, "i", "o") * LinearLayout::zeros1D(2, "i", "o");
  EXPECT_EQ(l.basesOf("i"), (std::vector<LinearLayout::Basis>{B({1}), B({2}), B({0})}));
  EXPECT_EQ(l.outDimSize("o"), 4);
  auto r = LinearLayout::zeros1D(2, "i", "o") * LinearLayout::identity1D(4, "i", "o");
  EXPECT_EQ(r.basesOf("i"), (std::vector<LinearLayout::Basis>{B({0}), B({1}), B({2})}));
}

TEST(LinearLayout, MultiplyOverlapping) {
  auto l = LinearLayout::identity1D(4, "i", "o1") * LinearLayout::identity1D(8, "i", "o2");
  EXPECT_EQ(l.basesOf("i"), (std::vector<LinearLayout::Basis>{B({1, 0}), B({2, 0}), B({0, 1}),
                                                              B({0, 2}), B({0, 4})}));
}

TEST(LinearLayout, MultiplyByZeros) {
  auto l = LinearLayout::identity1D(8, "in", "out") * LinearLayout::zeros1D(16, "in", "out");
  EXPECT_EQ(l.basesOf("in").size(), 7u);
  EXPECT_EQ(l.basesOf("in")[2], B({4}));
  EXPECT_EQ(l.basesOf("in")[3], B({0}));
}

TEST(LinearLayout, ReshapeOuts) {
  LinearLayout l({{"in1", {B({1}), B({4}), B({8})}}, {"in2", {B({3})}}}, {{"out", 16}});
  auto r = l.reshapeOuts({{"out2", 2}, {"out3", 8}});
  EXPECT_EQ(r.basesOf("in1"), (std::vector<LinearLayout::Basis>{B({1, 0}), B({0, 2}), B({0, 4})}));
  EXPECT_EQ(r.basesOf("in2"), (std::vector<LinearLayout::Basis>{B({1, 1})}));
}

TEST(LinearLayout, Compose) {
  auto l1 = LinearLayout::inferred(
      {{"in1", {B({1, 1}), B({0, 1})}}, {"in2", {B({1, 0}), B({1, 2})}}}, {"out1", "out2"});
  auto l2 = LinearLayout::inferred(
      {{"out1", {B({2, 2}), B({1, 0})}}, {"out2", {B({1, 1}), B({2, 1})}}}, {"out3", "out4"});
  auto c = l1.compose(l2);
  EXPECT_EQ(c.basesOf("in1"), (std::vector<LinearLayout::Basis>{B({3, 3}), B({1, 1})}));
  EXPECT_EQ(c.basesOf("in2"), (std::vector<LinearLayout::Basis>{B({2, 2}), B({0, 3})}));
  EXPECT_EQ(c.outDimSize("out3"), 4);
  EXPECT_EQ(c.outDimSize("out4"), 4);
  EXPECT_FALSE(c.isSurjective());
}

TEST(LinearLayout, InvertAndComposeSimple) {
  LinearLayout l1({{"in1", {B({2}), B({1}), B({4})}}}, {{"out", 8}});
  LinearLayout l2({{"in2", {B({4}), B({1}), B({2})}}}, {{"out", 8}});
  LinearLayout c = llvm::cantFail(l1.invertAndCompose(l2));
  EXPECT_EQ(c.basesOf("in1"), (std::vector<LinearLayout::Basis>{B({4}), B({2}), B({1})}));
  EXPECT_EQ(c.outDimNames(), std::vector<std::string>{"in2"});
}

TEST(LinearLayout, InvertAndComposeNonInjective) {
  LinearLayout l1({{"in1", {B({2}), B({1}), B({4})}}}, {{"out", 8}});
  LinearLayout l2({{"in2", {B({0}), B({2}), B({1}), B({4})}}}, {{"out", 8}});
  LinearLayout c = llvm::cantFail(l1.invertAndCompose(l2));
  EXPECT_EQ(c.basesOf("in1"), (std::vector<LinearLayout::Basis>{B({2}), B({4}), B({8})}));
  EXPECT_EQ(c.outDimSize("in2"), 16);
  EXPECT_FALSE(c.isSurjective());
}

TEST(LinearLayout, InvertAndComposeBroadcastedDims) {
  LinearLayout l1({{"in1", {B({1}), B({2}), B({4})}}, {"in2", {B({0})}}}, {{"out", 8}});
  LinearLayout l2({{"in3", {B({1}), B({2}), B({4})}}, {"in4", {B({0})}}}, {{"out", 8}});
  LinearLayout c = llvm::cantFail(l1.invertAndCompose(l2));
  EXPECT_EQ(c.basesOf("in1"), (std::vector<LinearLayout::Basis>{B({1, 0}), B({2, 0}), B({4, 0})}));
  EXPECT_EQ(c.basesOf("in2"), (std::vector<LinearLayout::Basis>{B({0, 0})}));
}

TEST(LinearLayout, InvertAndComposeLargerA) {
  LinearLayout reg({{"register", {B({0, 1}), B({0, 2}), B({0, 4}), B({0, 32}), B({32, 0})}},
                    {"lane", {B({0, 8}), B({0, 16}), B({1, 0}), B({2, 0}), B({4, 0})}},
                    {"warp", {B({8, 0}), B({16, 0})}},
                    {"block", {}}},
                   {{"dim0", 64}, {"dim1", 64}});
  LinearLayout shared(
      {{"offset",
        {B({0, 1}), B({0, 2}), B({0, 4}), B({0, 8}), B({0, 16}), B({0, 32}), B({0, 64}), B({1, 8}),
         B({2, 16}), B({4, 32}), B({8, 0}), B({16, 0}), B({32, 0}), B({64, 0}), B({128, 0})}},
       {"block", {}}},
      {{"dim0", 256}, {"dim1", 128}});
  LinearLayout c = llvm::cantFail(reg.invertAndCompose(shared));
  EXPECT_EQ(c.basesOf("register"), (std::vector<LinearLayout::Basis>{
                                       B({1, 0}), B({2, 0}), B({4, 0}), B({32, 0}), B({4096, 0})}));
  EXPECT_EQ(c.basesOf("lane"), (std::vector<LinearLayout::Basis>{B({8, 0}), B({16, 0}), B({136, 0}),
                                                                 B({272, 0}), B({544, 0})}));
  EXPECT_EQ(c.basesOf("warp"), (std::vector<LinearLayout::Basis>{B({1024, 0}), B({2048, 0})}));
}

TEST(LinearLayout, InvertAndComposeOfDifferentDataIsAnError) {
  // `outer` covers 4 of the 8 outputs: no C gives outer(C(x)) == this(x).
  LinearLayout wide({{"in", {B({1}), B({2}), B({4})}}}, {{"out", 8}});
  LinearLayout narrow({{"in2", {B({1}), B({2})}}}, {{"out", 4}});
  auto c = wide.invertAndCompose(narrow);
  ASSERT_FALSE(bool(c));
  EXPECT_EQ(llvm::toString(c.takeError()), "invertAndCompose: image not contained");
  LinearLayout other({{"in2", {B({1}), B({2}), B({4})}}}, {{"elsewhere", 8}});
  auto d = wide.invertAndCompose(other);
  ASSERT_FALSE(bool(d));
  llvm::consumeError(d.takeError());
}

TEST(LinearLayout, FreeVariableMasks) {
  EXPECT_EQ(LinearLayout::identity1D(4, "in", "out").freeVariableMasks()[0].second, 0u);
  EXPECT_EQ(LinearLayout::zeros1D(16, "in", "out").freeVariableMasks()[0].second, 0b1111u);
  auto l = LinearLayout::identity1D(2, "in", "out") * LinearLayout::zeros1D(4, "in", "out") *
           LinearLayout::identity1D(4, "in", "out") * LinearLayout::zeros1D(2, "in", "out");
  EXPECT_EQ(l.freeVariableMasks()[0].second, 0b100110u);
  LinearLayout m(
      {{"in1", {B({1, 1}), B({2, 2}), B({0, 0})}}, {"in2", {B({1, 0}), B({0, 1}), B({2, 0})}}},
      {{"out1", 4}, {"out2", 4}});
  auto masks = m.freeVariableMasks();
  EXPECT_EQ(masks[0].second, 0b100u);
  EXPECT_EQ(masks[1].second, 0b10u);
}

TEST(LinearLayout, EqualityChecksOutSizes) {
  auto a = LinearLayout::identity1D(4, "in", "out");
  LinearLayout b({{"in", {B({1}), B({2})}}}, {{"out", 8}});
  EXPECT_NE(a, b);
  EXPECT_TRUE(a.equalIgnoringOutDimSizes(b));
}

TEST(LinearLayout, Invert) {
  LinearLayout l({{"in", {B({2}), B({1}), B({4})}}}, {{"out", 8}});
  auto inv = l.invert();
  ASSERT_TRUE(inv.has_value());
  EXPECT_EQ(l.compose(*inv).basesOf("in"),
            (std::vector<LinearLayout::Basis>{B({1}), B({2}), B({4})}));
  EXPECT_FALSE(LinearLayout::zeros1D(2, "in", "out").invert().has_value());
}

TEST(LinearLayout, ShapeSmallerThanLayout) {
  // blocked{spt=[4], tpw=[4], wpc=[4]} on [8]: the largest strides broadcast.
  auto cta = LinearLayout::identity1D(4, "register", "dim0") *
             LinearLayout::identity1D(4, "lane", "dim0") *
             LinearLayout::identity1D(4, "warp", "dim0");
  auto r = ensureLayoutNotLargerThan(cta, {{"dim0", 8}});
  EXPECT_EQ(r.basesOf("register"), (std::vector<LinearLayout::Basis>{B({1}), B({2})}));
  EXPECT_EQ(r.basesOf("lane"), (std::vector<LinearLayout::Basis>{B({4}), B({0})}));
  EXPECT_EQ(r.basesOf("warp"), (std::vector<LinearLayout::Basis>{B({0}), B({0})}));
}

TEST(LinearLayout, ToStringMatchesTriton) {
  auto l =
      LinearLayout::identity1D(2, "register", "dim0") * LinearLayout::identity1D(1, "lane", "dim0");
  EXPECT_EQ(
      l.toString(),
      "\n - register=1 -> (1)\n - lane is a size 1 dimension\nwhere out dims are: [dim0 (size 2)]");
}

TEST(LinearLayout, Supremum) {
  EXPECT_EQ(supremum({"a", "b"}, {"a", "c"}), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(supremum({"a", "b"}, {"b", "c"}), (std::vector<std::string>{"a", "b", "c"}));
}

std::string createError(std::vector<LinearLayout::DimBases> bases,
                        std::vector<LinearLayout::OutDim> outs, bool surjective) {
  auto l = LinearLayout::create(std::move(bases), std::move(outs), surjective);
  if (l)
    return "";
  return llvm::toString(l.takeError());
}

// Input is checked as Triton's LinearLayout asserts, and a broken rule is
// an error naming it, never an exception.
TEST(LinearLayout, CreateChecksTritonsInvariants) {
  auto ok = LinearLayout::create({{"register", {B({1}), B({2})}}}, {{"dim0", 4}}, true);
  ASSERT_TRUE(static_cast<bool>(ok));
  EXPECT_EQ(ok->basesOf("register").size(), 2u);
  EXPECT_EQ(createError({{"register", {B({1})}}}, {{"dim0", 3}}, false),
            "out-dim dim0 has size 3, not a power of two");
  EXPECT_EQ(createError({{"register", {B({1})}}}, {{"dim0", 2}, {"dim0", 2}}, false),
            "out-dim dim0 given twice");
  EXPECT_EQ(createError({{"lane", {B({1})}}, {"lane", {B({1})}}}, {{"dim0", 2}}, false),
            "in-dim lane given twice");
  EXPECT_EQ(createError({{"register", {B({1, 0})}}}, {{"dim0", 2}}, false),
            "register basis 0 has 2 components for 1 out-dims");
  EXPECT_EQ(createError({{"register", {B({4})}}}, {{"dim0", 4}}, false),
            "register basis 0 gives dim0 = 4, outside its size 4");
  EXPECT_EQ(createError({{"register", {B({-1})}}}, {{"dim0", 4}}, false),
            "register basis 0 gives dim0 = -1, outside its size 4");
  // Broadcast (a zero basis) is fine; a layout that misses outputs is not,
  // where surjectivity is promised.
  EXPECT_EQ(createError({{"register", {B({2}), B({0})}}}, {{"dim0", 4}}, false), "");
  EXPECT_EQ(createError({{"register", {B({2}), B({0})}}}, {{"dim0", 4}}, true),
            "the layout is not surjective: its bases reach 2^1 of the 2^2 output positions");
}

TEST(LinearLayout, CreateInferredRefusesComponentsOutOfRange) {
  auto l = LinearLayout::createInferred({{"offset", {B({0, 1}), B({2, 0}), B({1, 0})}}},
                                        {"dim0", "dim1"}, true);
  ASSERT_TRUE(static_cast<bool>(l));
  EXPECT_EQ(l->outDimSize("dim0"), 4);
  EXPECT_EQ(l->outDimSize("dim1"), 2);
  auto neg = LinearLayout::createInferred({{"offset", {B({-4})}}}, {"dim0"}, false);
  ASSERT_FALSE(static_cast<bool>(neg));
  EXPECT_EQ(llvm::toString(neg.takeError()), "offset basis component -4 is outside [0, 2^30)");
  auto holes =
      LinearLayout::createInferred({{"offset", {B({0, 1}), B({4, 0})}}}, {"dim0", "dim1"}, true);
  ASSERT_FALSE(static_cast<bool>(holes));
  llvm::consumeError(holes.takeError());
}

} // namespace
