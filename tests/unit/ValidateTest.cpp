// One validation rule per layout kind: a layout written as the attribute
// Triton prints and as the Gluon constructor that builds it gets the same
// verdict and, when it is invalid, the same message.
#include "TestUtil.h"

#include "tilexform/gluon/Gluon.h"
#include "tilexform/support/InputError.h"

using namespace tilexform;

namespace {

struct Spellings {
  const char *attr;  // `#ttg.xxx<...>`
  const char *gluon; // `gl.XxxLayout(...)`
  const char *error; // empty: both valid
};

// The message the attribute reader gives, or empty when it accepts.
std::string attrError(mlir::MLIRContext *ctx, const std::string &text) {
  auto a = ir::parseAttributeText(ctx, text);
  if (a)
    return "";
  std::string msg;
  llvm::handleAllErrors(
      a.takeError(), [&](const InputError &e) { msg = e.message; },
      [&](const llvm::ErrorInfoBase &e) { msg = e.message(); });
  return msg.empty() ? "(no message)" : msg;
}

std::string gluonError(const std::string &text) {
  auto g = gluon::parseGluon(text);
  if (g)
    return "";
  std::string msg = llvm::toString(g.takeError());
  return msg.empty() ? "(no message)" : msg;
}

void expectSameVerdict(const std::vector<Spellings> &cases) {
  auto ctx = ir::makeContext();
  for (auto &c : cases) {
    std::string fromAttr = attrError(ctx.get(), c.attr);
    std::string fromGluon = gluonError(c.gluon);
    EXPECT_EQ(fromAttr, c.error) << c.attr;
    EXPECT_EQ(fromGluon, c.error) << c.gluon;
    if (!*c.error) {
      // Both accept, and build the same layout.
      auto a = test::parseLayout(ctx.get(), c.attr);
      auto g = gluon::parseGluon(c.gluon);
      ASSERT_TRUE(a && g) << c.attr;
      EXPECT_EQ(layout::printEncoding(*a), layout::printEncoding(**g)) << c.gluon;
    }
  }
}

#define BLOCKED(spt, tpw, wpc, ord)                                                                \
  "#ttg.blocked<{sizePerThread = " spt ", threadsPerWarp = " tpw ", warpsPerCTA = " wpc            \
  ", order = " ord "}>",                                                                           \
      "gl.BlockedLayout(size_per_thread=" spt ", threads_per_warp=" tpw ", warps_per_cta=" wpc     \
      ", order=" ord ")"

TEST(Validate, Blocked) {
  expectSameVerdict({
      {BLOCKED("[1, 8]", "[8, 8]", "[4, 1]", "[1, 0]"), ""},
      {BLOCKED("[3, 8]", "[8, 8]", "[4, 1]", "[1, 0]"),
       "blocked layout entries must be powers of two"},
      {BLOCKED("[1, 8]", "[8, 8]", "[4, 0]", "[1, 0]"),
       "blocked layout entries must be powers of two"},
      {BLOCKED("[1]", "[8, 8]", "[4, 1]", "[1, 0]"),
       "blocked needs sizePerThread, threadsPerWarp, warpsPerCTA and order of one rank"},
      {BLOCKED("[1, 8]", "[8, 8]", "[4, 1]", "[0, 0]"),
       "blocked order must be a permutation of the dims"},
      {BLOCKED("[536870912, 8]", "[8, 8]", "[4, 1]", "[1, 0]"),
       "blocked layout covers more than 2^30 elements per CTA"},
      {"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], "
       "order = [1, 0], CGALayout = [[0, 1, 0]]}>",
       "gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 8], warps_per_cta=[4, 1], "
       "order=[1, 0], cga_layout=[[0, 1, 0]])",
       "CGALayout bases must have one entry per dim"},
      {"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], "
       "order = [1, 0], CGALayout = [[0, 3]]}>",
       "gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 8], warps_per_cta=[4, 1], "
       "order=[1, 0], cga_layout=[[0, 3]])",
       "CGALayout bases must be zero or powers of two"},
  });
}

#define ATTR_BLOCKED                                                                               \
  "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = "  \
  "[1, 0]}>"
#define GL_BLOCKED                                                                                 \
  "gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 8], warps_per_cta=[4, 1], "       \
  "order=[1, 0])"
#define ATTR_BAD_BLOCKED                                                                           \
  "#ttg.blocked<{sizePerThread = [3, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = "  \
  "[1, 0]}>"
#define GL_BAD_BLOCKED                                                                             \
  "gl.BlockedLayout(size_per_thread=[3, 8], threads_per_warp=[8, 8], warps_per_cta=[4, 1], "       \
  "order=[1, 0])"
#define ATTR_MFMA                                                                                  \
  "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = "    \
  "true}>"
#define GL_MFMA                                                                                    \
  "gl.amd.AMDMFMALayout(version=3, instr_shape=[32, 32, 8], transposed=True, warps_per_cta=[2, "   \
  "2])"
#define ATTR_SWIZZLED "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
#define GL_SWIZZLED "gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0])"
#define ATTR_LINEAR "#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = []}>"
#define GL_LINEAR                                                                                  \
  "gl.DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[[1, 0]], warp_bases=[], "            \
  "block_bases=[], shape=[2, 2])"

TEST(Validate, Slice) {
  expectSameVerdict({
      {"#ttg.slice<{dim = 1, parent = " ATTR_BLOCKED "}>",
       "gl.SliceLayout(dim=1, parent=" GL_BLOCKED ")", ""},
      {"#ttg.slice<{dim = 2, parent = " ATTR_BLOCKED "}>",
       "gl.SliceLayout(dim=2, parent=" GL_BLOCKED ")",
       "slice dim must be below the parent rank (>= 2)"},
      {"#ttg.slice<{dim = 0, parent = " ATTR_SWIZZLED "}>",
       "gl.SliceLayout(dim=0, parent=" GL_SWIZZLED ")", "slice needs a distributed parent"},
      {"#ttg.slice<{dim = 0, parent = " ATTR_BAD_BLOCKED "}>",
       "gl.SliceLayout(dim=0, parent=" GL_BAD_BLOCKED ")",
       "blocked layout entries must be powers of two"},
  });
}

TEST(Validate, DotOperand) {
  expectSameVerdict({
      {"#ttg.dot_op<{opIdx = 0, parent = " ATTR_MFMA ", kWidth = 8}>",
       "gl.DotOperandLayout(operand_index=0, parent=" GL_MFMA ", k_width=8)", ""},
      {"#ttg.dot_op<{opIdx = 2, parent = " ATTR_MFMA ", kWidth = 8}>",
       "gl.DotOperandLayout(operand_index=2, parent=" GL_MFMA ", k_width=8)",
       "dot_op opIdx must be 0 or 1"},
      {"#ttg.dot_op<{opIdx = 0, parent = " ATTR_MFMA ", kWidth = 6}>",
       "gl.DotOperandLayout(operand_index=0, parent=" GL_MFMA ", k_width=6)",
       "kWidth must be a power of two"},
      {"#ttg.dot_op<{opIdx = 0, parent = " ATTR_LINEAR ", kWidth = 8}>",
       "gl.DotOperandLayout(operand_index=0, parent=" GL_LINEAR ", k_width=8)",
       "dot_op parent must be blocked or an MMA layout"},
      {"#ttg.dot_op<{opIdx = 0, parent = " ATTR_SWIZZLED ", kWidth = 8}>",
       "gl.DotOperandLayout(operand_index=0, parent=" GL_SWIZZLED ", k_width=8)",
       "dot_op parent must be blocked or an MMA layout"},
      {"#ttg.dot_op<{opIdx = 1, parent = " ATTR_BAD_BLOCKED ", kWidth = 2}>",
       "gl.DotOperandLayout(operand_index=1, parent=" GL_BAD_BLOCKED ", k_width=2)",
       "blocked layout entries must be powers of two"},
  });
}

#define NVMMA(w, i)                                                                                \
  "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = " w ", instrShape = " i      \
  "}>",                                                                                            \
      "gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=" w ", instr_shape=" i ")"

TEST(Validate, NvidiaMma) {
  expectSameVerdict({
      {NVMMA("[4, 1]", "[16, 8]"), ""},
      {NVMMA("[3, 1]", "[16, 8]"), "warpsPerCTA entries must be powers of two"},
      {NVMMA("[4]", "[16]"), "nvidia_mma needs rank >= 2"},
      {NVMMA("[]", "[16, 8]"), "nvidia_mma needs 'warpsPerCTA' and 'instrShape'"},
      {NVMMA("[4, 1]", "[16, 8, 16]"),
       "nvidia_mma instrShape must be [M, N] per dim (v2) or [M, N, K] (v3), powers of two"},
  });
}

#define MFMA(v, w, i, extraAttr, extraGl)                                                          \
  "#ttg.amd_mfma<{version = " v ", warpsPerCTA = " w ", instrShape = " i                           \
  ", isTransposed = true" extraAttr "}>",                                                          \
      "gl.amd.AMDMFMALayout(version=" v ", instr_shape=" i                                         \
      ", transposed=True, warps_per_cta=" w extraGl ")"

TEST(Validate, AmdMfma) {
  expectSameVerdict({
      {MFMA("3", "[2, 2]", "[32, 32, 8]", "", ""), ""},
      {MFMA("4", "[2, 2]", "[16, 16, 32]", ", elementBitWidth = 64", ", element_bitwidth=64"), ""},
      {MFMA("4", "[2, 2]", "[16, 16, 32]", ", tilesPerWarp = [2, 2]", ", tiles_per_warp=[2, 2]"),
       ""},
      // The open issue: Gluon's reader used to accept these.
      {MFMA("3", "[2, 2]", "[8, 8, 4]", "", ""),
       "amd_mfma instrShape (M, N) must be 32x32, 16x16, 64x4 or 4x64"},
      {MFMA("3", "[2, 2]", "[32, 32, 8]", ", elementBitWidth = 16", ", element_bitwidth=16"),
       "amd_mfma elementBitWidth must be 32 or 64"},
      {MFMA("3", "[2, 2]", "[32, 32, 6]", "", ""),
       "amd_mfma instrShape must be [M, N, K], powers of two"},
      {MFMA("3", "[2, 2]", "[32, 32, 8, 1]", "", ""),
       "amd_mfma instrShape must be [M, N, K], powers of two"},
      {MFMA("3", "[2, 2]", "[32, 32, 8]", ", tilesPerWarp = [2]", ", tiles_per_warp=[2]"),
       "amd_mfma tilesPerWarp must have one entry per dim"},
      {MFMA("3", "[2, 2]", "[32, 32, 8]", ", tilesPerWarp = [3, 1]", ", tiles_per_warp=[3, 1]"),
       "tilesPerWarp entries must be powers of two"},
      {MFMA("3", "[3, 1]", "[32, 32, 8]", "", ""), "warpsPerCTA entries must be powers of two"},
      {MFMA("3", "[2, 2, 1, 1]", "[32, 32, 8]", "", ""), "amd_mfma needs rank 2 or 3"},
      {MFMA("5", "[2, 2]", "[32, 32, 8]", "", ""), "amd_mfma version must be 0 to 4"},
  });
}

#define WMMA(v, w, extraAttr, extraGl)                                                             \
  "#ttg.amd_wmma<{version = " v ", isTranspose = false, warpsPerCTA = " w extraAttr "}>",          \
      "gl.amd.AMDWMMALayout(version=" v ", transposed=False, warps_per_cta=" w extraGl ")"

TEST(Validate, AmdWmma) {
  expectSameVerdict({
      {WMMA("2", "[2, 2]", "", ""), ""},
      {WMMA("3", "[2, 2]", ", instrShape = [16, 16, 32]", ", instr_shape=[16, 16, 32]"), ""},
      // The open issue: Gluon's reader used to accept version 7.
      {WMMA("7", "[2, 2]", "", ""), "amd_wmma version must be 1, 2 or 3"},
      {WMMA("0", "[2, 2]", "", ""), "amd_wmma version must be 1, 2 or 3"},
      {WMMA("2", "[3, 1]", "", ""), "warpsPerCTA entries must be powers of two"},
      {WMMA("2", "[4]", "", ""), "amd_wmma needs rank 2 or 3"},
      {WMMA("2", "[2, 2]", ", instrShape = [16, 16]", ", instr_shape=[16, 16]"),
       "amd_wmma instrShape must be [M, N, K], powers of two"},
      {WMMA("2", "[2, 2]", ", tilesPerWarp = [3, 1]", ", tiles_per_warp=[3, 1]"),
       "tilesPerWarp entries must be powers of two"},
      {WMMA("2", "[2, 2]", ", tilesPerWarp = [2]", ", tiles_per_warp=[2]"),
       "tilesPerWarp has 1 entries for a rank-2 layout"},
  });
}

TEST(Validate, Linear) {
  expectSameVerdict({
      {ATTR_LINEAR, GL_LINEAR, ""},
      {"#ttg.linear<{register = [[0, 2]], lane = [], warp = [], block = []}>",
       "gl.DistributedLinearLayout(reg_bases=[[0, 2]], lane_bases=[], warp_bases=[], "
       "block_bases=[], shape=[1, 4])",
       "linear layout is not surjective"},
      {"#ttg.linear<{register = [[0, 1]], lane = [[1]], warp = [], block = []}>",
       "gl.DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[[1]], warp_bases=[], "
       "block_bases=[], shape=[2, 2])",
       "all bases must have the same length"},
      {"#ttg.linear<{register = [], lane = [], warp = [], block = []}>",
       "gl.DistributedLinearLayout(reg_bases=[], lane_bases=[], warp_bases=[], block_bases=[], "
       "shape=[])",
       "Empty Layout not supported"},
  });
}

#define SWIZZLED(v, p, m, o)                                                                       \
  "#ttg.swizzled_shared<{vec = " v ", perPhase = " p ", maxPhase = " m ", order = " o "}>",        \
      "gl.SwizzledSharedLayout(vec=" v ", per_phase=" p ", max_phase=" m ", order=" o ")"

TEST(Validate, SwizzledShared) {
  expectSameVerdict({
      {SWIZZLED("8", "1", "8", "[1, 0]"), ""},
      {SWIZZLED("0", "1", "8", "[1, 0]"),
       "shared layout needs vec, perPhase, maxPhase (>= 1) and order"},
      {SWIZZLED("8", "1", "8", "[]"),
       "shared layout needs vec, perPhase, maxPhase (>= 1) and order"},
      {SWIZZLED("6", "1", "8", "[1, 0]"), "vec, perPhase and maxPhase must be powers of two"},
      {SWIZZLED("8", "1", "8", "[1, 1]"), "shared order must be a permutation of the dims"},
      {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], CGALayout = "
       "[[1]]}>",
       "gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0], "
       "cga_layout=[[1]])",
       "CGALayout bases must have one entry per dim"},
  });
}

// Gluon 3.6 has no class for amd_rotating_shared: its attribute spelling
// keeps the swizzled_shared rule.
TEST(Validate, AmdRotatingShared) {
  auto ctx = ir::makeContext();
  EXPECT_EQ(attrError(ctx.get(), "#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, "
                                 "order = [0, 1]}>"),
            "");
  EXPECT_EQ(attrError(ctx.get(), "#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 12, "
                                 "order = [0, 1]}>"),
            "vec, perPhase and maxPhase must be powers of two");
  EXPECT_EQ(attrError(ctx.get(), "#ttg.amd_rotating_shared<{vec = 4, perPhase = 0, maxPhase = 16, "
                                 "order = [0, 1]}>"),
            "shared layout needs vec, perPhase, maxPhase (>= 1) and order");
}

#define NVMMA_SHARED(s, b, extraAttr, extraGl)                                                     \
  "#ttg.nvmma_shared<{swizzlingByteWidth = " s                                                     \
  ", transposed = false, elementBitWidth = " b extraAttr "}>",                                     \
      "gl.NVMMASharedLayout(swizzle_byte_width=" s ", element_bitwidth=" b extraGl ")"

TEST(Validate, NVMMAShared) {
  expectSameVerdict({
      {NVMMA_SHARED("128", "16", "", ""), ""},
      {NVMMA_SHARED("64", "8", ", rank = 3", ", rank=3"), ""},
      {NVMMA_SHARED("48", "16", "", ""), "swizzlingByteWidth must be 0, 32, 64 or 128"},
      {NVMMA_SHARED("128", "12", "", ""), "elementBitWidth must be 1, 2, 4, ..., 64"},
      {NVMMA_SHARED("128", "16", ", rank = 9", ", rank=9"), "nvmma_shared rank must be 1 to 8"},
      {NVMMA_SHARED("128", "16", ", rank = 2, CGALayout = [[1]]", ", cga_layout=[[1]]"),
       "CGALayout bases must have one entry per dim"},
  });
  // Written without elementBitWidth (early 2025): the swizzle is still checked.
  auto ctx = ir::makeContext();
  EXPECT_EQ(
      attrError(ctx.get(), "#ttg.nvmma_shared<{swizzlingByteWidth = 256, transposed = false}>"),
      "swizzlingByteWidth must be 0, 32, 64 or 128");
}

TEST(Validate, SharedLinear) {
  expectSameVerdict({
      {"#ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = []}, alignment = 16>",
       "gl.SharedLinearLayout(offset_bases=[[0, 1], [1, 0]])", ""},
      {"#ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = []}, alignment = 3>",
       "gl.SharedLinearLayout(offset_bases=[[0, 1], [1, 0]], alignment=3)",
       "alignment must be a power of two"},
      {"#ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = []}, alignment = 0>",
       "gl.SharedLinearLayout(offset_bases=[[0, 1], [1, 0]], alignment=0)",
       "alignment must be a power of two"},
      {"#ttg.shared_linear<{offset = [[0, 1], [1]], block = []}, alignment = 16>",
       "gl.SharedLinearLayout(offset_bases=[[0, 1], [1]])", "all bases must have the same length"},
      {"#ttg.shared_linear<{offset = [], block = []}, alignment = 16>",
       "gl.SharedLinearLayout(offset_bases=[])", "shared_linear needs offset bases"},
  });
}

#define PADDED(i, p)                                                                               \
  "#ttg.padded_shared<[" i ":+" p "] {offset = [[0, 1], [1, 0]], block = []}>",                    \
      "gl.PaddedSharedLayout(interval_padding_pairs=[[" i ", " p "]], offset_bases=[[0, 1], [1, "  \
      "0]], block_bases=[], shape=[2, 2])"

TEST(Validate, PaddedShared) {
  expectSameVerdict({
      {PADDED("32", "4"), ""},
      {PADDED("32", "3"), "padded_shared intervals and paddings must be powers of two"},
      {PADDED("0", "4"), "padded_shared intervals and paddings must be powers of two"},
      {PADDED("4294967328", "4"), "padded_shared intervals and paddings must be powers of two"},
      {"#ttg.padded_shared<[32:+4] {offset = [[0, 1], [1]], block = []}>",
       "gl.PaddedSharedLayout(interval_padding_pairs=[[32, 4]], offset_bases=[[0, 1], [1]], "
       "block_bases=[], shape=[2, 2])",
       "all bases must have the same length"},
  });
}

} // namespace
