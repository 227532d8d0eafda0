#include "tilexform/hw/ArchData.h"
#include "tilexform/hw/Products.h"
#include "tilexform/hw/Target.h"
#include "tilexform/support/Verdict.h"

#include <gtest/gtest.h>

using tilexform::hw::parseTarget;
using tilexform::hw::parseTargetOption;
using tilexform::hw::Vendor;

TEST(Target, EverySpellingOfOneArch) {
  for (const char *s : {"sm_90", "sm_90a", "sm90", "cuda:90", "90", "compute_90", " \"sm_90\" "}) {
    auto t = parseTarget(s);
    ASSERT_TRUE(t) << s;
    EXPECT_EQ(t->arch, "sm_90") << s;
    EXPECT_EQ(t->vendor, Vendor::Nvidia);
    EXPECT_EQ(t->warpSize, 32u);
    EXPECT_EQ(t->tritonTarget(), "cuda:90");
  }
  for (const char *s : {"gfx942", "hip:gfx942", "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
                        "gfx942\"", "GFX942"}) {
    auto t = parseTarget(s);
    if (llvm::StringRef(s) == "GFX942") {
      EXPECT_FALSE(t);
      continue;
    }
    ASSERT_TRUE(t) << s;
    EXPECT_EQ(t->arch, "gfx942") << s;
    EXPECT_EQ(t->vendor, Vendor::Amd);
    EXPECT_EQ(t->warpSize, 64u);
    EXPECT_EQ(t->tritonTarget(), "hip:gfx942");
  }
}

TEST(Target, WarpSizeComesFromTheData) {
  EXPECT_EQ(parseTarget("gfx1100")->warpSize, 32u); // RDNA: wave32
  EXPECT_EQ(parseTarget("gfx950")->warpSize, 64u);
  EXPECT_EQ(parseTarget("sm_100a")->warpSize, 32u);
  // A real arch without data: parsed, with no figures.
  auto t = parseTarget("gfx1030");
  ASSERT_TRUE(t);
  EXPECT_FALSE(t->hasFigures());
  EXPECT_TRUE(bool(parseTargetOption("gfx1030")));
}

TEST(Target, ArchOptionReadsAnyCaseAndProductNames) {
  // Artifacts spell their target the toolchains' way: parseTarget keeps to
  // that; --arch (parseTargetOption) also reads what a person types.
  EXPECT_FALSE(parseTarget("H100"));
  EXPECT_FALSE(parseTarget("GFX942"));
  const std::pair<const char *, const char *> cases[] = {{"SM90", "sm_90"},
                                                         {"sm_90A", "sm_90"},
                                                         {"GFX942", "gfx942"},
                                                         {"H100", "sm_90"},
                                                         {"h200", "sm_90"},
                                                         {"NVIDIA H100 SXM5", "sm_90"},
                                                         {"A100", "sm_80"},
                                                         {"B200", "sm_100"},
                                                         {"RTX 5090", "sm_120"},
                                                         {"rtx5090", "sm_120"},
                                                         {"GeForce RTX 5090", "sm_120"},
                                                         {"MI300X", "gfx942"},
                                                         {"mi325x", "gfx942"},
                                                         {"AMD Instinct MI355X", "gfx950"},
                                                         {"MI300X-OAM", "gfx942"},
                                                         {"RX 9070 XT", "gfx1201"},
                                                         {"MI250X", "gfx90a"},
                                                         {"H20", "sm_90"}};
  for (auto [text, arch] : cases) {
    auto t = parseTargetOption(text);
    ASSERT_TRUE(bool(t)) << text << ": " << llvm::toString(t.takeError());
    EXPECT_EQ(t->arch, arch) << text;
  }
  // A product's letters must be whole words of what is typed.
  for (const char *s : {"H1000", "MI300", "RTX 509", "A1000"}) {
    auto t = parseTargetOption(s);
    EXPECT_FALSE(bool(t)) << s;
    if (!t)
      llvm::consumeError(t.takeError());
  }
}

TEST(Target, EveryProductHasASourceAndAnArch) {
  for (auto &p : tilexform::hw::products()) {
    EXPECT_FALSE(p.source.empty()) << p.name;
    EXPECT_NE(p.source.find("https://"), std::string::npos) << p.name;
    auto t = parseTarget(p.arch);
    ASSERT_TRUE(t) << p.name << " -> " << p.arch;
    EXPECT_EQ(t->arch, p.arch) << p.name;
    auto found = tilexform::hw::findProduct(p.name);
    ASSERT_TRUE(found) << p.name;
    EXPECT_EQ(found->name, p.name);
  }
}

TEST(Target, EveryAmdArchNamesItsMatrixInstructionAndGluonModule) {
  // What transcribe spells an AMD dot with and what lint holds an MFMA or
  // WMMA layout against: facts of data/hw, each with its source, never a
  // test of the arch's name.
  for (const std::string &arch : tilexform::hw::knownArchs()) {
    auto t = tilexform::hw::parseTarget(arch);
    ASSERT_TRUE(t) << arch;
    if (t->vendor != tilexform::hw::Vendor::Amd)
      continue;
    auto mi = tilexform::hw::fact(arch, "matrix_instruction");
    auto mod = tilexform::hw::fact(arch, "gluon_amd_module");
    ASSERT_TRUE(mi && mod) << arch;
    EXPECT_TRUE(mi->value == "mfma" || mi->value == "wmma") << arch;
    EXPECT_FALSE(mi->source.empty() || mod->source.empty()) << arch;
  }
  EXPECT_EQ(tilexform::hw::fact("gfx950", "gluon_amd_module")->value, "cdna4");
  EXPECT_EQ(tilexform::hw::fact("gfx1201", "gluon_amd_module")->value, "rdna4");
  EXPECT_EQ(tilexform::hw::fact("gfx1100", "matrix_instruction")->value, "wmma");
  EXPECT_FALSE(tilexform::hw::fact("sm_90", "matrix_instruction"));
}

TEST(Target, NotAnArch) {
  for (const char *s : {"", "banana", "sm_", "sm_9000", "sm_90x", "gfx", "gfx942x", "cuda:", "090"})
    EXPECT_FALSE(parseTarget(s)) << s;
  auto e = parseTargetOption("banana");
  ASSERT_FALSE(e);
  std::string msg = llvm::toString(e.takeError());
  EXPECT_NE(msg.find("'banana' is not an arch name (known: "), std::string::npos) << msg;
}

TEST(Verdict, EveryNameReadsBack) {
  for (int i = 0; i <= int(tilexform::Verdict::Inconclusive); ++i) {
    auto v = tilexform::Verdict(i);
    auto back = tilexform::parseVerdict(tilexform::verdictName(v));
    ASSERT_TRUE(back) << i;
    EXPECT_EQ(*back, v);
  }
  EXPECT_STREQ(tilexform::verdictName(tilexform::Verdict::NumWarpsMismatch), "NUM_WARPS_MISMATCH");
  EXPECT_FALSE(tilexform::parseVerdict("PASSED"));
}
