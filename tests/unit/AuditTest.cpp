#include "TestUtil.h"

#include "tilexform/analysis/Pipeline.h"
#include "tilexform/asm/Audit.h"

using namespace tilexform;
using namespace tilexform::asmfile;

namespace {

Instruction op(const std::string &opcode, const std::string &operands = "") {
  Instruction in;
  in.opcode = opcode;
  in.operands = operands;
  return in;
}

KernelListing listingOf(Isa isa, const std::string &text) {
  auto k = readListing("t", text, isa);
  EXPECT_TRUE(bool(k)) << (k ? "" : llvm::toString(k.takeError()));
  return k->front();
}

} // namespace

TEST(Audit, ClassesPerInstructionSet) {
  EXPECT_EQ(classify(Isa::Amdgcn, op("v_mfma_f32_32x32x8_f16")), InstrClass::Matrix);
  EXPECT_EQ(classify(Isa::Amdgcn, op("buffer_load_dwordx4", "v1, s[0:3], 0 offen lds")),
            InstrClass::AsyncCopy);
  EXPECT_EQ(classify(Isa::Amdgcn, op("buffer_load_dwordx4", "v[0:3], v1, s[0:3], 0 offen")),
            InstrClass::GlobalLoad);
  EXPECT_EQ(classify(Isa::Amdgcn, op("ds_read_b64_tr_b16")), InstrClass::SharedRead);
  EXPECT_EQ(classify(Isa::Amdgcn, op("ds_bpermute_b32")), InstrClass::Shuffle);
  EXPECT_EQ(classify(Isa::Amdgcn, op("s_wait_loadcnt_dscnt")), InstrClass::Wait);
  EXPECT_EQ(classify(Isa::Amdgcn, op("s_barrier_wait")), InstrClass::Barrier);
  EXPECT_EQ(classify(Isa::Amdgcn, op("scratch_store_dword")), InstrClass::Scratch);
  EXPECT_EQ(classify(Isa::Sass, op("UTCHMMA")), InstrClass::Matrix);
  EXPECT_EQ(classify(Isa::Sass, op("QGMMA.64x128x32.F32.E4M3.E4M3")), InstrClass::Matrix);
  EXPECT_EQ(classify(Isa::Sass, op("UTMALDG.2D")), InstrClass::Tma);
  EXPECT_EQ(classify(Isa::Sass, op("UIADD3")), InstrClass::Scalar);
  EXPECT_EQ(classify(Isa::Sass, op("SYNCS.ARRIVE.TRANS64.A1T0")), InstrClass::Mbarrier);
  EXPECT_EQ(classify(Isa::Sass, op("SYNCS.PHASECHK.TRANS64.TRYWAIT")), InstrClass::Wait);
  EXPECT_EQ(classify(Isa::Sass, op("LDL.64")), InstrClass::Scratch);
  EXPECT_EQ(classify(Isa::Ptx, op("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16")),
            InstrClass::Matrix);
  EXPECT_EQ(classify(Isa::Ptx, op("wgmma.wait_group.sync.aligned")), InstrClass::Wait);
  EXPECT_EQ(classify(Isa::Ptx, op("cp.async.bulk.tensor.2d.shared::cluster.global")),
            InstrClass::Tma);
  EXPECT_EQ(classify(Isa::Ptx, op("ld.param.u64")), InstrClass::Other);
  EXPECT_EQ(classify(Isa::Ptx, op("mbarrier.try_wait.parity.shared::cta.b64")), InstrClass::Wait);
}

TEST(Audit, AccessWidths) {
  EXPECT_EQ(accessBits(Isa::Amdgcn, op("global_load_dwordx3")), 96u);
  EXPECT_EQ(accessBits(Isa::Amdgcn, op("ds_read2st64_b64")), 128u);
  EXPECT_EQ(accessBits(Isa::Amdgcn, op("global_store_short_d16_hi")), 16u);
  EXPECT_EQ(accessBits(Isa::Amdgcn, op("buffer_load_ubyte")), 8u);
  EXPECT_EQ(accessBits(Isa::Amdgcn, op("global_load_lds_dwordx4")), 128u);
  EXPECT_EQ(accessBits(Isa::Amdgcn, op("v_add_u32")), std::nullopt);
  EXPECT_EQ(accessBits(Isa::Sass, op("LDG.E.EL.128.CONSTANT")), 128u);
  EXPECT_EQ(accessBits(Isa::Sass, op("LDGSTS.E.BYPASS.LTC128B.128")), 128u);
  EXPECT_EQ(accessBits(Isa::Sass, op("LDGSTS.E.LTC128B")), 32u);
  EXPECT_EQ(accessBits(Isa::Sass, op("LDSM.16.MT88.2")), 64u);
  EXPECT_EQ(accessBits(Isa::Sass, op("STS.U8")), 8u);
  EXPECT_EQ(accessBits(Isa::Ptx, op("ld.global.nc.v2.b32")), 64u);
  EXPECT_EQ(accessBits(Isa::Ptx, op("st.shared.b16")), 16u);
  EXPECT_EQ(accessBits(Isa::Ptx, op("cp.async.ca.shared.global", "[%r1], [%rd2], 8, %r3")), 64u);
  EXPECT_EQ(accessBits(Isa::Ptx, op("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16")), 64u);
}

TEST(Audit, LoopsInnermostAndSpin) {
  KernelListing k = listingOf(Isa::Sass, R"(
	code for sm_90a
		Function : f
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   LDG.E R2, desc[UR4][R4.64] ;
        /*0020*/                   HGMMA.64x64x16.F32 R24, gdesc[UR8], R24 ;
        /*0030*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P1, [R5+URZ+0x8], R6 ;
        /*0040*/              @!P1 BRA 0x30 ;
        /*0050*/               @P0 BRA 0x10 ;
        /*0060*/               @P2 BRA 0x0 ;
        /*0070*/                   EXIT ;
        /*0080*/                   BRA 0x80;
)");
  auto loops = findLoops(k);
  ASSERT_EQ(loops.size(), 3u);
  EXPECT_EQ(loops[0].head, 0u); // outermost first
  EXPECT_EQ(loops[0].depth, 0u);
  EXPECT_FALSE(loops[0].innermost);
  EXPECT_EQ(loops[1].head, 1u);
  EXPECT_TRUE(loops[1].innermost); // the spin loop inside does not count
  EXPECT_TRUE(loops[2].spin);
  EXPECT_EQ(loops[2].depth, 2u);
  AuditOptions o;
  auto text = std::string(R"(
	code for sm_90a
		Function : f
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   LDG.E R2, desc[UR4][R4.64] ;
        /*0020*/                   HGMMA.64x64x16.F32 R24, gdesc[UR8], R24 ;
        /*0030*/               @P0 BRA 0x10 ;
        /*0040*/               @P2 BRA 0x0 ;
        /*0050*/                   EXIT ;
)");
  auto r = audit("f.sass", text, o);
  ASSERT_TRUE(bool(r));
  ASSERT_TRUE(r->hot.has_value());
  EXPECT_EQ(r->loops[*r->hot].label, "0x10"); // same matrix count: the inner one
  EXPECT_EQ(r->hotLoop->instructions, 3u);
}

TEST(Audit, DiffAlignsByOpcode) {
  std::string a = R"(
	.type k,@function
k:
.LBB0_1:
	global_load_dwordx4 v[0:3], v[4:5], off
	v_mfma_f32_32x32x8_f16 v[8:23], v[0:1], v[2:3], v[8:23]
	s_waitcnt vmcnt(0)
	s_cbranch_scc1 .LBB0_1
	s_endpgm
)";
  std::string b = R"(
	.type k,@function
k:
.LBB0_1:
	global_load_dwordx2 v[0:1], v[4:5], off
	global_load_dwordx2 v[2:3], v[4:5], off offset:8
	v_mfma_f32_32x32x8_f16 v[8:23], v[0:1], v[2:3], v[8:23]
	s_setprio 1
	s_waitcnt vmcnt(0)
	s_cbranch_scc1 .LBB0_1
	s_endpgm
)";
  AuditOptions o;
  auto ra = audit("a.amdgcn", a, o), rb = audit("b.amdgcn", b, o);
  ASSERT_TRUE(ra && rb);
  auto d = diffAudits(*ra, *rb);
  EXPECT_TRUE(d.comparedLoops);
  EXPECT_EQ(d.same, 3u);
  EXPECT_EQ(d.removed, 1u);
  EXPECT_EQ(d.added, 3u);
  std::string ops;
  for (auto &s : d.alignment)
    ops += s.op;
  EXPECT_EQ(ops, "-++=+==");
}

TEST(Audit, ChoicesAreUsageErrors) {
  AuditOptions o;
  auto r = audit("two.ptx", R"(
.version 8.4
.target sm_90a
.visible .entry a() { ret; }
.visible .entry b() { ret; }
)",
                 o);
  ASSERT_FALSE(bool(r));
  llvm::Error e = r.takeError();
  EXPECT_TRUE(isChoiceError(e));
  llvm::consumeError(std::move(e));
}

TEST(Pipeline, HotLoopOfPlainDumps) {
  auto s3 = ir::loadModuleFile(test::corpusDir() + "/sm90/matmul_f16_128x128x64_w4_s3.ttgir");
  auto s1 = ir::loadModuleFile(test::corpusDir() + "/sm90/matmul_f16_128x128x64_w4_s1.ttgir");
  auto pinned =
      ir::loadModuleFile(test::corpusDir() + "/sm90/matmul_pinned_f16_128x128x64_w4_s3.ttgir");
  ASSERT_TRUE(s3 && s1 && pinned);
  auto p3 = analysis::hotLoopPipeline(**s3);
  EXPECT_TRUE(p3.pipelined());
  EXPECT_EQ(p3.buffers, 3);
  EXPECT_GT(p3.asyncCopies, 0u);
  EXPECT_EQ(p3.dots, 1u);
  auto p1 = analysis::hotLoopPipeline(**s1);
  EXPECT_FALSE(p1.pipelined());
  auto pp = analysis::hotLoopPipeline(**pinned);
  EXPECT_FALSE(pp.pipelined());
  EXPECT_EQ(pp.numStages, 1);
}
