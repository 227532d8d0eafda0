// probe against ground truth: LLVM's own "; Occupancy:" for every AMD kernel,
// and the CUDA driver's register count and occupancy API for every sm_90
// kernel (measured on an H200; tests/artifacts/sm90/driver_occupancy.json).
#include "TestUtil.h"

#include "tilexform/asm/Probe.h"
#include "tilexform/hw/Occupancy.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <filesystem>
#include <fstream>

namespace tilexform::test {
namespace {

namespace fs = std::filesystem;

std::string artifacts() { return sourceDir() + "/tests/artifacts"; }

std::string readAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> caseDirs(const std::string &target) {
  std::vector<std::string> out;
  for (auto &e : fs::directory_iterator(artifacts() + "/" + target))
    if (e.is_directory())
      out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// The integer after `prefix` in `text` (e.g. "; Occupancy: " or "_w"); -1
/// when absent.
int64_t numberAfter(const std::string &text, const std::string &prefix) {
  for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
    size_t begin = at + prefix.size(), end = begin;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
      ++end;
    if (end > begin)
      return std::stoll(text.substr(begin, end - begin));
  }
  return -1;
}

asmfile::ProbedKernel probeOne(const std::vector<std::string> &files) {
  auto report = asmfile::probe(files, {});
  if (!report) {
    ADD_FAILURE() << llvm::toString(report.takeError());
    return {};
  }
  EXPECT_TRUE(report->errors.empty()) << report->errors.front();
  EXPECT_EQ(report->kernels.size(), 1u);
  return report->kernels.empty() ? asmfile::ProbedKernel{} : report->kernels.front();
}

TEST(Probe, AmdWavesPerSimdEqualLlvmOccupancyFromAmdgcnAndHsaco) {
  int checked = 0;
  for (std::string target : {"gfx942", "gfx950"}) {
    for (auto &dir : caseDirs(target)) {
      std::string c = fs::path(dir).filename().string();
      std::string amdgcn = dir + "/" + c + ".amdgcn", hsaco = dir + "/" + c + ".hsaco",
                  json = dir + "/" + c + ".json";
      int64_t llvmOccupancy = numberAfter(readAll(amdgcn), "; Occupancy: ");
      ASSERT_GT(llvmOccupancy, 0) << amdgcn;
      for (auto files :
           {std::vector<std::string>{amdgcn, json}, {hsaco, json}, {amdgcn}, {hsaco}}) {
        auto k = probeOne(files);
        ASSERT_TRUE(k.occupancy) << files.front() << ": " << k.declined;
        EXPECT_EQ(k.occupancy->wavesPerSimd, llvmOccupancy) << files.front();
        EXPECT_EQ(k.arch, target) << files.front();
        EXPECT_EQ(k.get("num_warps"), numberAfter(c, "_w")) << files.front();
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 49);
}

TEST(Probe, AmdAssemblyAndCodeObjectAgree) {
  for (std::string target : {"gfx942", "gfx950"}) {
    for (auto &dir : caseDirs(target)) {
      std::string c = fs::path(dir).filename().string();
      auto text = probeOne({dir + "/" + c + ".amdgcn", dir + "/" + c + ".json"});
      auto bin = probeOne({dir + "/" + c + ".hsaco", dir + "/" + c + ".json"});
      ASSERT_TRUE(text.occupancy && bin.occupancy) << c;
      EXPECT_EQ(text.occupancy->resident, bin.occupancy->resident) << dir;
      EXPECT_EQ(text.occupancy->binding, bin.occupancy->binding) << dir;
      EXPECT_EQ(text.get("agprs"), bin.get("agprs")) << dir;
      EXPECT_EQ(text.spills, bin.spills) << dir;
      // The descriptor holds the allocated (granule-rounded) count.
      EXPECT_EQ((*text.get("registers") + 7) / 8 * 8, *bin.get("registers")) << dir;
    }
  }
}

TEST(Probe, JoinedDirectoryUsesAssemblyAndMetadata) {
  auto dir = artifacts() + "/gfx942/matmul_f16_128x128x64_w4_s2_wpe2";
  auto k = probeOne({dir});
  EXPECT_EQ(k.files.size(), 3u);
  EXPECT_EQ(k.get("waves_per_eu"), 2);
  EXPECT_EQ(k.get("sgprs"), 102); // padded by waves_per_eu
  EXPECT_EQ(k.get("shared_bytes"), 32768);
  ASSERT_TRUE(k.occupancy);
  EXPECT_EQ(k.occupancy->resident, 2);
  EXPECT_EQ(k.occupancy->binding, "registers+shared");
  EXPECT_TRUE(k.notes.empty()) << k.notes.front();
}

TEST(Probe, Sm90RegistersAndBlocksEqualTheDriver) {
  auto truth = nlohmann::json::parse(readAll(artifacts() + "/sm90/driver_occupancy.json"));
  int checked = 0;
  for (auto &t : truth["kernels"]) {
    std::string c = t["case"];
    std::string dir = artifacts() + "/sm90/" + c;
    auto meta = nlohmann::json::parse(readAll(dir + "/" + c + ".json"));
    auto k = probeOne({dir + "/" + c + ".cubin", dir + "/" + c + ".json"});
    EXPECT_EQ(k.figures.at("registers").field, "EIATTR_REGCOUNT") << c;
    EXPECT_EQ(k.get("registers"), t["num_regs"].get<int64_t>()) << c;
    if (meta.contains("n_regs")) {
      EXPECT_EQ(k.get("registers"), meta["n_regs"].get<int64_t>()) << c;
    }
    EXPECT_EQ(k.spills, t["local_size_bytes"].get<int64_t>() / 4) << c;
    ASSERT_TRUE(k.occupancy) << c << ": " << k.declined;
    EXPECT_EQ(k.occupancy->resident, t["blocks_per_sm"].get<int64_t>()) << c;
    ++checked;
  }
  EXPECT_EQ(checked, 29);
}

TEST(Probe, CubinRegistersEqualCuobjdump) {
  auto truth = nlohmann::json::parse(readAll(artifacts() + "/cuobjdump_resource_usage.json"));
  int checked = 0;
  for (auto &t : truth["cubins"]) {
    std::string target = t["target"], c = t["case"];
    auto k = probeOne({artifacts() + "/" + target + "/" + c + "/" + c + ".cubin"});
    EXPECT_EQ(k.get("registers"), t["REG"].get<int64_t>()) << target << "/" << c;
    EXPECT_EQ(k.get("local_bytes"), t["STACK"].get<int64_t>()) << target << "/" << c;
    EXPECT_EQ(k.get("static_shared_bytes").value_or(0), t["SHARED"].get<int64_t>())
        << target << "/" << c;
    EXPECT_EQ(k.get("num_warps"), numberAfter(c, "_w")) << target << "/" << c;
    ++checked;
  }
  EXPECT_GE(checked, 30);
}

TEST(Probe, MixedTreeIsReportedPerKernelAndDamagedFilesPerFile) {
  auto report = asmfile::probe({artifacts()}, {});
  ASSERT_TRUE(static_cast<bool>(report));
  // 49 AMD + 29 sm_90 + 6 sm_80/sm_100 kernels, plus the damaged directory's
  // two kernels reported from their readable files.
  EXPECT_EQ(report->kernels.size(), 49u + 29u + 6u + 2u);
  EXPECT_EQ(report->errors.size(), 4u);
  for (auto &e : report->errors)
    EXPECT_NE(e.find("/damaged/"), std::string::npos) << e;
  std::set<std::string> archs;
  for (auto &k : report->kernels)
    archs.insert(k.arch.value_or("?"));
  EXPECT_EQ(archs, (std::set<std::string>{"gfx942", "gfx950", "sm_100", "sm_80", "sm_90"}));
}

TEST(Probe, UnknownArchIsNamedAndDeclined) {
  auto dir = artifacts() + "/gfx942/vadd_b1024_w4";
  asmfile::ProbeOptions o;
  o.arch = "gfx1030";
  auto report = asmfile::probe({dir}, o);
  ASSERT_TRUE(static_cast<bool>(report));
  ASSERT_EQ(report->kernels.size(), 1u);
  auto &k = report->kernels.front();
  EXPECT_FALSE(k.occupancy);
  EXPECT_NE(k.declined.find("gfx1030"), std::string::npos) << k.declined;
}

TEST(Probe, MissingPathIsAnError) {
  auto report = asmfile::probe({artifacts() + "/no/such/dir"}, {});
  ASSERT_FALSE(static_cast<bool>(report));
  EXPECT_NE(llvm::toString(report.takeError()).find("no such file"), std::string::npos);
}

TEST(Occupancy, NvidiaFormulaMatchesMeasuredTable) {
  // H200 measurements (driver occupancy API), incl. the register-limited
  // one-warp case and the shared-memory edges of the sweep.
  struct Case {
    int64_t warps, regs, shared, blocks;
  } cases[] = {{4, 26, 0, 16},     {1, 69, 0, 28},      {4, 206, 98304, 2}, {8, 107, 98304, 2},
               {4, 58, 16384, 8},  {8, 188, 147456, 1}, {4, 127, 98304, 2}, {4, 255, 131072, 1},
               {4, 154, 98328, 2}, {4, 32, 76800, 3},   {4, 32, 76801, 2},  {4, 32, 115713, 1},
               {4, 32, 232448, 1}, {4, 96, 0, 5},       {4, 220, 0, 2}};
  for (auto &c : cases) {
    hw::OccupancyInput in{"sm_90",  c.warps,      c.regs,      std::nullopt,
                          c.shared, std::nullopt, std::nullopt};
    auto occ = hw::computeOccupancy(in);
    ASSERT_TRUE(static_cast<bool>(occ)) << llvm::toString(occ.takeError());
    EXPECT_EQ(occ->resident, c.blocks)
        << c.warps << " warps, " << c.regs << " regs, " << c.shared << " B";
  }
  hw::OccupancyInput tooBig{"sm_90", 4, 32, std::nullopt, 232449, std::nullopt, std::nullopt};
  EXPECT_EQ(hw::computeOccupancy(tooBig)->resident, 0);
}

TEST(Occupancy, AmdVgprStepsAreMaximal) {
  // (last VGPR count that still fits N waves, N) on CDNA, RDNA and GFX1250.
  struct Step {
    const char *arch;
    int64_t vgprs, waves;
  } steps[] = {{"gfx942", 64, 8},    {"gfx942", 72, 7},   {"gfx942", 80, 6},   {"gfx942", 96, 5},
               {"gfx942", 128, 4},   {"gfx942", 168, 3},  {"gfx942", 256, 2},  {"gfx942", 512, 1},
               {"gfx950", 256, 2},   {"gfx90a", 168, 3},  {"gfx1201", 96, 16}, {"gfx1201", 120, 12},
               {"gfx1201", 144, 10}, {"gfx1201", 168, 9}, {"gfx1201", 192, 8}, {"gfx1201", 216, 7},
               {"gfx1201", 240, 6},  {"gfx1100", 256, 5}, {"gfx1250", 64, 16}, {"gfx1250", 80, 12},
               {"gfx1250", 128, 8},  {"gfx1250", 256, 4}};
  for (auto &s : steps) {
    hw::OccupancyInput at{s.arch,       4,           s.vgprs, std::nullopt, std::nullopt,
                          std::nullopt, std::nullopt};
    EXPECT_EQ(hw::computeOccupancy(at)->wavesPerSimd, s.waves) << s.arch << " " << s.vgprs;
    hw::OccupancyInput next{s.arch,       4,           s.vgprs + 1, std::nullopt, std::nullopt,
                            std::nullopt, std::nullopt};
    EXPECT_LT(*hw::computeOccupancy(next)->wavesPerSimd, s.waves) << s.arch << " " << s.vgprs + 1;
  }
}

TEST(Occupancy, AmdLdsGranuleAndBothLimiters) {
  // gfx950 rounds LDS to 1280 B: 32 KiB -> 26 granules -> 4 workgroups (5 without).
  hw::OccupancyInput in{"gfx950", 4, 64, 30, 32768, std::nullopt, std::nullopt};
  auto occ = hw::computeOccupancy(in);
  ASSERT_TRUE(static_cast<bool>(occ));
  EXPECT_EQ(occ->wavesPerSimd, 8);
  EXPECT_EQ(occ->resident, 4);
  EXPECT_EQ(occ->binding, "shared");
  // LDS beyond the per-workgroup maximum does not launch.
  hw::OccupancyInput big{"gfx942", 4, 64, 30, 65537, std::nullopt, std::nullopt};
  EXPECT_EQ(hw::computeOccupancy(big)->resident, 0);
  // RDNA: waves per SIMD only.
  hw::OccupancyInput rdna{"gfx1201", 4, 97, 30, 4096, std::nullopt, std::nullopt};
  auto r = hw::computeOccupancy(rdna);
  ASSERT_TRUE(static_cast<bool>(r));
  EXPECT_EQ(r->wavesPerSimd, 12);
  EXPECT_FALSE(r->resident);
}

TEST(Occupancy, UnknownArchDeclined) {
  hw::OccupancyInput in{"sm_103", 4, 64, std::nullopt, 0, std::nullopt, std::nullopt};
  auto occ = hw::computeOccupancy(in);
  ASSERT_FALSE(static_cast<bool>(occ));
  EXPECT_NE(llvm::toString(occ.takeError()).find("sm_103"), std::string::npos);
}

} // namespace
} // namespace tilexform::test
