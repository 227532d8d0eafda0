// The verify analysis called directly on small dumps held in memory: each
// verdict (PASS, FAIL, RECONCILED, NOT_COMPARABLE) with what it names, and a
// damaged dump refused as an InputError before anything is compared.
#include "TestUtil.h"

#include "tilexform/analysis/Verify.h"
#include "tilexform/support/InputError.h"

#include <llvm/ADT/StringRef.h>

#include <cstring>

using namespace tilexform;

namespace {

const char *kBlocked4 = "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = "
                        "[4], order = [0]}>";
const char *kBlocked1 = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = "
                        "[4], order = [0]}>";
// kBlocked4 at 512 elements, written as its linear layout.
const char *kLinear4 = "#ttg.linear<{register = [[1], [2]], lane = [[4], [8], [16], [32], [64]], "
                       "warp = [[128], [256]], block = []}>";

/// A vector copy of 512 f32 in `layout`, for `warps` warps on `target`.
std::string copyKernel(const std::string &layout, int warps = 4,
                       const std::string &target = "cuda:90") {
  return "#blocked = " + layout +
         "\n"
         "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = " +
         std::to_string(warps) + " : i32, ttg.target = \"" + target +
         "\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
         R"(  tt.func public @copy(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %p, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %pp : tensor<512x!tt.ptr<f32>, #blocked>
    %q = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %qq = tt.addptr %q, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %qq, %v : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
)";
}

std::unique_ptr<ir::Module> load(const std::string &text, const std::string &name) {
  auto m = ir::loadModuleText(text, name);
  if (!m) {
    ADD_FAILURE() << name << ": " << llvm::toString(m.takeError());
    return nullptr;
  }
  return std::move(*m);
}

analysis::VerifyReport verifyTexts(const std::string &plain, const std::string &anchor) {
  auto p = load(plain, "plain.ttgir");
  auto a = load(anchor, "anchor.ttgir");
  if (!p || !a)
    return {};
  return analysis::verify(*p, *a);
}

} // namespace

TEST(Verify, IdenticalLayoutsPass) {
  auto v = verifyTexts(copyKernel(kBlocked4), copyKernel(kBlocked4));
  EXPECT_EQ(v.verdict, Verdict::Pass) << v.notComparableReason;
  EXPECT_TRUE(v.differences.empty());
  EXPECT_TRUE(v.missing.empty());
  EXPECT_TRUE(v.extra.empty());
  EXPECT_TRUE(v.reconciled.empty());
  EXPECT_TRUE(v.notComparableReason.empty());
  EXPECT_TRUE(v.signature.same());
}

TEST(Verify, TheSameLayoutSpelledAsLinearPasses) {
  // Layouts are compared on their linear layouts, not on their text.
  auto v = verifyTexts(copyKernel(kBlocked4), copyKernel(kLinear4));
  EXPECT_EQ(v.verdict, Verdict::Pass);
  EXPECT_TRUE(v.differences.empty());
}

TEST(Verify, ADifferentBlockedLayoutFailsWithTheFix) {
  auto v = verifyTexts(copyKernel(kBlocked4), copyKernel(kBlocked1));
  EXPECT_EQ(v.verdict, Verdict::Fail);
  ASSERT_EQ(v.differences.size(), 1u);
  const auto &d = v.differences[0];
  ASSERT_TRUE(d.plain.has_value());
  ASSERT_TRUE(d.anchor.has_value());
  EXPECT_EQ(d.plain->attr, kBlocked4);
  EXPECT_EQ(d.anchor->attr, kBlocked1);
  EXPECT_EQ(d.plain->shape, std::vector<int64_t>{512});
  EXPECT_NE(d.differs.find("sizePerThread"), std::string::npos) << d.differs;
  // The one field to change in the anchor's constructor, from its value to plain's.
  ASSERT_EQ(d.fixes.size(), 1u);
  EXPECT_EQ(d.fixes[0].field, "sizePerThread");
  EXPECT_EQ(d.fixes[0].keyword, "size_per_thread");
  EXPECT_EQ(d.fixes[0].plainValue, "[4]");
  EXPECT_EQ(d.fixes[0].anchorValue, "[1]");
  ASSERT_EQ(v.missing.size(), 1u);
  ASSERT_EQ(v.extra.size(), 1u);
  EXPECT_FALSE(v.missing[0].use.sites.empty());
}

TEST(Verify, AFlatteningReorderReshapeIsReconciled) {
  // Plain may reorder the flattening before its sum (allow_reorder); the
  // anchor sums the loaded tensor in order: the same registers.
  std::string plain = std::string("#blocked = ") + kBlocked4 + "\n#blocked1 = " + kBlocked1 + R"(
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sum_all(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %p, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %pp : tensor<512x!tt.ptr<f32>, #blocked>
    %f = tt.reshape %v allow_reorder : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
    %s = "tt.reduce"(%f) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<512xf32, #blocked1>) -> f32
    tt.store %o, %s : !tt.ptr<f32>
    tt.return
  }
}
)";
  std::string anchor = std::string("#blocked = ") + kBlocked4 + R"(
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sum_all(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %p, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %pp : tensor<512x!tt.ptr<f32>, #blocked>
    %s = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<512xf32, #blocked>) -> f32
    tt.store %o, %s : !tt.ptr<f32>
    tt.return
  }
}
)";
  auto v = verifyTexts(plain, anchor);
  EXPECT_EQ(v.verdict, Verdict::Reconciled);
  ASSERT_EQ(v.reconciled.size(), 1u);
  EXPECT_EQ(v.reconciled[0].cause, "reorder_reshape");
  EXPECT_EQ(v.reconciled[0].side, "plain");
  EXPECT_TRUE(llvm::StringRef(v.reconciled[0].detail)
                  .starts_with("plain's reshape to 512 may reorder elements (allow_reorder)"))
      << v.reconciled[0].detail;
  EXPECT_TRUE(v.differences.empty());

  // Without allow_reorder plain promises the order: the same difference fails.
  std::string inOrder = plain;
  inOrder.replace(inOrder.find(" allow_reorder"), strlen(" allow_reorder"), "");
  auto strict = verifyTexts(inOrder, anchor);
  EXPECT_EQ(strict.verdict, Verdict::Fail);
  EXPECT_TRUE(strict.reconciled.empty());
}

TEST(Verify, OtherWarpsOrTargetAreNotComparable) {
  auto warps = verifyTexts(copyKernel(kBlocked4, 4), copyKernel(kBlocked4, 8));
  EXPECT_EQ(warps.verdict, Verdict::NotComparable);
  EXPECT_EQ(warps.notComparableReason, "num_warps 4 vs 8");
  EXPECT_TRUE(warps.differences.empty());

  auto target =
      verifyTexts(copyKernel(kBlocked4, 4, "cuda:90"), copyKernel(kBlocked4, 4, "cuda:100"));
  EXPECT_EQ(target.verdict, Verdict::NotComparable);
  EXPECT_EQ(target.notComparableReason, "target cuda:90 vs cuda:100");
}

TEST(Verify, AliasesAloneAreNotComparable) {
  // Nothing uses a layout: nothing was compared, so nothing passed.
  std::string aliases = std::string("#blocked = ") + kBlocked4 +
                        "\nmodule attributes {\"ttg.num-warps\" = 4 : i32, ttg.target = "
                        "\"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n}\n";
  auto v = verifyTexts(copyKernel(kBlocked4), aliases);
  EXPECT_EQ(v.verdict, Verdict::NotComparable);
  EXPECT_EQ(v.notComparableReason,
            "anchor defines no function (layout aliases only?): no layout is used to compare");
}

TEST(Verify, ADamagedDumpIsAnInputErrorWithItsPosition) {
  std::string text = copyKernel(kBlocked4);
  // An unterminated string on the module's line (line 2).
  text.replace(text.find("\"cuda:90\""), strlen("\"cuda:90\""), "\"cuda:90");
  auto m = ir::loadModuleText(text, "broken.ttgir");
  ASSERT_FALSE(bool(m));
  bool sawInputError = false;
  llvm::handleAllErrors(m.takeError(), [&](const InputError &e) {
    sawInputError = true;
    EXPECT_EQ(e.file, "broken.ttgir");
    EXPECT_EQ(e.line, 2u);
    EXPECT_GT(e.col, 0u);
    EXPECT_NE(e.message.find("unterminated string"), std::string::npos) << e.message;
  });
  EXPECT_TRUE(sawInputError);
}
