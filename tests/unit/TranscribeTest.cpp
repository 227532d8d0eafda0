#include "TestUtil.h"

#include "tilexform/layout/Encoding.h"
#include "tilexform/transcribe/Transcribe.h"

using namespace tilexform;

namespace {

transcribe::TranscribeReport transcribeText(const std::string &text) {
  auto m = ir::loadModuleText(text, "t.ttgir");
  EXPECT_TRUE(bool(m)) << (m ? "" : llvm::toString(m.takeError()));
  auto rec = analysis::recover(**m, gluon::GluonApi::V3_6);
  transcribe::TranscribeOptions o;
  o.sourceName = "t.ttgir";
  auto r = transcribe::transcribe(**m, rec, o);
  EXPECT_TRUE(bool(r));
  return *r;
}

const char *kHeader =
    "#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], "
    "order = [0]}>\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = "
    "\"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n";

} // namespace

TEST(Transcribe, ConstantsComparisonsAndLoops) {
  std::string text = std::string(kHeader) + R"(
  tt.func public @k(%x: !tt.ptr<f32>, %n: i32) {
    %ninf = arith.constant dense<0xFF800000> : tensor<128xf32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %m = arith.cmpi slt, %r, %s : tensor<128xi32, #blocked>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %ninf) -> (tensor<128xf32, #blocked>) : i32 {
      %b = arith.maxnumf %a, %a : tensor<128xf32, #blocked>
      scf.yield %b : tensor<128xf32, #blocked>
    }
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %q = tt.addptr %p, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    tt.store %q, %acc, %m : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
)";
  auto r = transcribeText(text);
  EXPECT_TRUE(r.blockedBy.empty());
  EXPECT_EQ(r.opsTranscribed, r.opsTotal);
  EXPECT_NE(r.python.find("gl.full([128], float(\"-inf\"), gl.float32, layout="), std::string::npos)
      << r.python;
  EXPECT_NE(r.python.find("m = r < s"), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("for i in range(0, n, 1):"), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("a = b"), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("gl.store(q, acc, mask=m)"), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("def launch(grid, x, n):"), std::string::npos) << r.python;
  // Same input, same bytes.
  EXPECT_EQ(transcribeText(text).python, r.python);
}

TEST(Transcribe, WhatHasNoSpellingBlocks) {
  std::string text = std::string(kHeader) + R"(
  tt.func public @k(%x: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %f = arith.sitofp %r : tensor<128xi32, #blocked> to tensor<128xf32, #blocked>
    %u = arith.cmpf ueq, %f, %f : tensor<128xf32, #blocked>
    %z = "tt.future_op"(%r) : (tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    tt.return
  }
}
)";
  auto r = transcribeText(text);
  ASSERT_EQ(r.blockedBy.size(), 2u);
  EXPECT_EQ(r.blockedBy[0].what, "arith.cmpf ueq");
  EXPECT_EQ(r.blockedBy[1].what, "tt.future_op");
  EXPECT_TRUE(r.python.empty());
  EXPECT_EQ(r.opsTranscribed + 2, r.opsTotal);
}

TEST(Transcribe, UnsignedOpsReadUnsignedViews) {
  std::string text = std::string(kHeader) + R"(
  tt.func public @k(%x: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %u = arith.cmpi ult, %r, %r : tensor<128xi32, #blocked>
    %q = arith.divui %r, %r : tensor<128xi32, #blocked>
    %f = arith.uitofp %q : tensor<128xi32, #blocked> to tensor<128xf32, #blocked>
    tt.return
  }
}
)";
  auto r = transcribeText(text);
  EXPECT_TRUE(r.blockedBy.empty());
  EXPECT_NE(r.python.find("u = r.to(gl.uint32, bitcast=True) < r.to(gl.uint32, bitcast=True)"),
            std::string::npos)
      << r.python;
  EXPECT_NE(r.python.find("q = (r.to(gl.uint32, bitcast=True) // r.to(gl.uint32, bitcast=True))"
                          ".to(gl.int32, bitcast=True)"),
            std::string::npos)
      << r.python;
  EXPECT_NE(r.python.find("f = q.to(gl.uint32, bitcast=True).to(gl.float32)"), std::string::npos)
      << r.python;
}

TEST(Transcribe, EarlyExitAndWhileLoop) {
  std::string text = std::string(kHeader) + R"(
  tt.func public @k(%x: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %p = tt.get_program_id x : i32
    %done = arith.cmpi sge, %p, %n : i32
    cf.cond_br %done, ^bb1, ^bb2
  ^bb1:
    tt.return
  ^bb2:
    %t = scf.while (%tile = %p) : (i32) -> i32 {
      %more = arith.cmpi slt, %tile, %n : i32
      scf.condition(%more) %tile : i32
    } do {
    ^bb0(%tile2: i32):
      %next = arith.addi %tile2, %c1 : i32
      scf.yield %next : i32
    }
    tt.return
  }
}
)";
  auto r = transcribeText(text);
  EXPECT_TRUE(r.blockedBy.empty()) << (r.blockedBy.empty() ? "" : r.blockedBy[0].what);
  EXPECT_NE(r.python.find("    if done:"), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("        return"), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("    tile = p\n"), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("    while (tile < n):"), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("        tile = next"), std::string::npos) << r.python;
}

TEST(Transcribe, FmaDotUnsplatAndUnalignedPointers) {
  std::string text =
      R"(#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%x: !tt.ptr<f32>, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %m: i32 {tt.divisibility = 16 : i32}) {
    %a = arith.constant dense<1.0> : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b = arith.constant dense<1.0> : tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %c = arith.constant dense<0.0> : tensor<16x16xf32, #blocked>
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
    %one = arith.constant dense<2.0> : tensor<1xf32, #blocked1>
    %s = tt.unsplat %one : tensor<1xf32, #blocked1>
    tt.store %x, %s : !tt.ptr<f32>
    tt.return
  }
}
)";
  auto r = transcribeText(text);
  EXPECT_TRUE(r.blockedBy.empty()) << (r.blockedBy.empty() ? "" : r.blockedBy[0].what);
  EXPECT_NE(r.python.find("d = gl.dot_fma(a, b, c)"), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("s = _unsplat(one)"), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("from triton.language.core import builtin"), std::string::npos);
  EXPECT_NE(r.python.find("@builtin\ndef _unsplat(x, _semantic=None):"), std::string::npos);
  // x is unaligned and n unspecialised in plain's signature; y and m are not.
  EXPECT_NE(r.python.find("@gluon.jit(do_not_specialize=[\"n\"], "
                          "do_not_specialize_on_alignment=[\"x\"])"),
            std::string::npos)
      << r.python;
  // The launch helper says which launches plain's binary was specialised for.
  EXPECT_NE(r.python.find("      16-byte aligned: y\n      multiples of 16: m\n"),
            std::string::npos)
      << r.python;
}

TEST(Transcribe, AmdTransposedOperandAndPingpongHints) {
  std::string text =
      R"(#blocked = #ttg.blocked<{sizePerThread = [4, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[1, 0], [2, 0], [0, 1], [0, 2], [0, 4]], lane = [[0, 8], [0, 16], [0, 32], [0, 64], [4, 0], [8, 0]], warp = [[16, 0], [32, 0]], block = []}>
#shared = #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @k(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %v = arith.constant dense<1.0> : tensor<64x128xf16, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1x64x128xf16, #shared, #smem, mutable>
    %b = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<1x64x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %t = amdg.in_thread_transpose %v : tensor<64x128xf16, #blocked> -> tensor<64x128xf16, #linear>
    rocdl.s.setprio 1
    ttg.local_store %t, %b : tensor<64x128xf16, #linear> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    rocdl.sched.barrier 0
    rocdl.s.setprio 0
    tt.return
  }
}
)";
  auto r = transcribeText(text);
  EXPECT_TRUE(r.blockedBy.empty()) << (r.blockedBy.empty() ? "" : r.blockedBy[0].what);
  EXPECT_NE(r.python.find("gl.constexpr(gl.SharedLinearLayout(offset_bases=["), std::string::npos)
      << r.python;
  EXPECT_NE(r.python.find("t = gl.convert_layout(v, "), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("# not carried: rocdl.s.setprio 1 (line"), std::string::npos) << r.python;
  ASSERT_EQ(r.notCarried.size(), 2u);
  EXPECT_EQ(r.notCarried[0].what, "rocdl.s.setprio");
  EXPECT_EQ(r.notCarried[0].count, 2u);
  EXPECT_EQ(r.notCarried[1].what, "rocdl.sched.barrier");
  EXPECT_EQ(r.opsTranscribed, r.opsTotal);
}

TEST(Recover, AnUnconstructibleSharedLayoutIsItsLinearLayoutAtItsOneShape) {
  std::string text =
      R"(#blocked = #ttg.blocked<{sizePerThread = [4, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @k() {
    %a = ttg.local_alloc : () -> !ttg.memdesc<2x64x128xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    tt.return
  }
}
)";
  auto one = std::string(text);
  one.erase(one.find("    %b = "), one.find("    tt.return") - one.find("    %b = "));
  for (auto [src, shapes] : {std::pair{one, 1}, std::pair{text, 2}}) {
    auto m = ir::loadModuleText(src, "t.ttgir");
    ASSERT_TRUE(bool(m));
    auto rec = analysis::recover(**m, gluon::GluonApi::V3_6);
    const analysis::RecoveredLayout *l = nullptr;
    for (auto &x : rec.layouts)
      if (x.kind == "amd_rotating_shared")
        l = &x;
    ASSERT_NE(l, nullptr);
    ASSERT_EQ(l->bufferShapes.size(), size_t(shapes));
    if (shapes == 1) {
      ASSERT_TRUE(l->gluon.has_value());
      EXPECT_EQ(l->gluon->rfind("gl.SharedLinearLayout(offset_bases=[", 0), 0u) << *l->gluon;
      EXPECT_EQ(l->status, Verdict::Exact) << l->reason;
      EXPECT_NE(l->reason.find("its linear layout at 64x128"), std::string::npos) << l->reason;
      // The constructor is that layout, element for element.
      auto parsed = gluon::parseGluon(*l->gluon);
      ASSERT_TRUE(bool(parsed));
      EXPECT_EQ(llvm::cantFail(layout::linearLayoutAt(*l->encoding, {64, 128})),
                llvm::cantFail(layout::linearLayoutAt(**parsed, {64, 128})));
    } else {
      EXPECT_FALSE(l->gluon.has_value());
      EXPECT_NE(l->reason.find("2 buffer shapes"), std::string::npos) << l->reason;
    }
  }
}

TEST(Transcribe, DivisibilityAndContiguityHints) {
  std::string text = std::string(kHeader) + R"(
  tt.func public @k(%x: !tt.ptr<f32>, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %o = arith.addi %r, %s {tt.contiguity = dense<128> : tensor<1xi32>, tt.divisibility = dense<16> : tensor<1xi32>} : tensor<128xi32, #blocked>
    tt.return
  }
}
)";
  auto r = transcribeText(text);
  EXPECT_TRUE(r.blockedBy.empty());
  EXPECT_NE(r.python.find("o = gl.multiple_of(o, [16])"), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("o = gl.max_contiguous(o, [128])"), std::string::npos) << r.python;
}

TEST(Recover, ListsTheFirstSitesAndCountsThemAll) {
  std::string text = std::string(kHeader) + R"(
  tt.func public @k(%x: !tt.ptr<f32>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %a = arith.addi %r, %r : tensor<1024xi32, #blocked>
    %b = arith.muli %a, %r : tensor<1024xi32, #blocked>
    tt.return
  }
}
)";
  auto m = ir::loadModuleText(text, "t.ttgir");
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  auto all = analysis::recover(**m, gluon::GluonApi::V3_6);
  auto two = analysis::recover(**m, gluon::GluonApi::V3_6, {}, 2);
  ASSERT_EQ(all.layouts.size(), 1u);
  ASSERT_EQ(two.layouts.size(), 1u);
  // make_range's result, then addi's two operands and result, muli's three.
  EXPECT_EQ(all.layouts[0].siteCount, 7u);
  EXPECT_EQ(all.layouts[0].sites.size(), 7u);
  EXPECT_EQ(two.layouts[0].siteCount, 7u);
  ASSERT_EQ(two.layouts[0].sites.size(), 2u);
  EXPECT_EQ(two.layouts[0].sites[1].op, all.layouts[0].sites[1].op);
  EXPECT_EQ(two.layouts[0].sites[1].position, all.layouts[0].sites[1].position);
  EXPECT_EQ(two.layouts[0].role, all.layouts[0].role);
}

TEST(Transcribe, HintsReadAsTypedIntegers) {
  // tl.multiple_of / tl.max_contiguous leave their values on the defining op,
  // one per dim of a tensor: a splat `dense<16> : tensor<2xi32>` is 16 for
  // each dim, as Gluon's multiple_of takes it.
  std::string text =
      std::string("#b2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                  "warpsPerCTA = [4, 1], order = [1, 0]}>\n") +
      kHeader + R"(
  tt.func public @k(%x: !tt.ptr<f32>, %n: i32) {
    %c4 = arith.constant 4 : i32
    %s = arith.muli %n, %c4 : i32
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #b2}>>
    %e = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #b2}>> -> tensor<32x1xi32, #b2>
    %t = tt.broadcast %e {tt.contiguity = dense<[1, 4]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>} : tensor<32x1xi32, #b2> -> tensor<32x16xi32, #b2>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>, #b2>
    %q = tt.addptr %p, %t : tensor<32x16x!tt.ptr<f32>, #b2>, tensor<32x16xi32, #b2>
    %v = tt.splat %s : i32 -> tensor<32x16xi32, #b2>
    %f = arith.sitofp %v : tensor<32x16xi32, #b2> to tensor<32x16xf32, #b2>
    tt.store %q, %f : tensor<32x16x!tt.ptr<f32>, #b2>
    tt.return
  }
}
)";
  auto r = transcribeText(text);
  EXPECT_NE(r.python.find("t = gl.multiple_of(t, [16, 16])"), std::string::npos) << r.python;
  EXPECT_NE(r.python.find("t = gl.max_contiguous(t, [1, 4])"), std::string::npos) << r.python;
}

TEST(Transcribe, LongChainsAreCutIntoStatementsOfBoundedDepth) {
  // Readable folds a value read once into its user; along a chain of 1,000
  // such ops every kMaxExpressionDepth-th one (16) is a statement instead,
  // so no expression is deeper than Python's parser and compiler take. The
  // chain's order is plain's, and no op is lost: 1,000 `+ 2.0` in all.
  std::string text = std::string(kHeader) + R"(
  tt.func public @k(%x: !tt.ptr<f32>) {
    %c = arith.constant dense<2.000000e+00> : tensor<128xf32, #blocked>
    %l = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %v0 = tt.load %l : tensor<128x!tt.ptr<f32>, #blocked>
)";
  const int n = 1000;
  for (int k = 0; k < n; ++k)
    text += "    %v" + std::to_string(k + 1) + " = arith.addf %v" + std::to_string(k) +
            ", %c : tensor<128xf32, #blocked>\n";
  text += "    %p = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>\n"
          "    tt.store %p, %v" +
          std::to_string(n) + " : tensor<128x!tt.ptr<f32>, #blocked>\n    tt.return\n  }\n}\n";
  auto m = ir::loadModuleText(text, "t.ttgir");
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  auto rec = analysis::recover(**m, gluon::GluonApi::V3_6);
  transcribe::TranscribeOptions o;
  o.sourceName = "t.ttgir";
  o.style = transcribe::Style::Readable;
  auto r = transcribe::transcribe(**m, rec, o);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_TRUE(r->blockedBy.empty());
  size_t statements = 0, adds = 0, deepest = 0;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(r->python).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    size_t here = line.count("+ 2.0");
    if (here == 0)
      continue;
    ++statements;
    adds += here;
    deepest = std::max(deepest, here);
  }
  EXPECT_EQ(adds, size_t(n)) << r->python;
  EXPECT_LE(deepest, size_t(16)) << r->python;
  EXPECT_GE(statements, size_t(n / 16)) << r->python;
}
