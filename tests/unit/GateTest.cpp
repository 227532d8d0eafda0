#include "TestUtil.h"

#include "tilexform/gate/Gates.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace tilexform;
namespace fs = std::filesystem;

namespace {

fs::path tempDir(const std::string &name) {
  fs::path d = fs::temp_directory_path() / ("tilexform-gate-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void writeFloats(const fs::path &p, const std::vector<float> &v) {
  std::ofstream o(p, std::ios::binary);
  o.write(reinterpret_cast<const char *>(v.data()), std::streamsize(v.size() * sizeof(float)));
}

std::string errorText(llvm::Error e) { return llvm::toString(std::move(e)); }

} // namespace

TEST(Gate, DeterminismCountsUlpsAndNaN) {
  fs::path d = tempDir("ulps");
  std::vector<float> base = {1.0f, 2.0f, -3.0f, 0.5f};
  for (int i = 0; i < 4; ++i) {
    std::vector<float> v = base;
    if (i == 2)
      v[2] = std::nextafter(std::nextafter(-3.0f, -10.0f), -10.0f); // 2 ulps away
    writeFloats(d / ("run" + std::to_string(i)), v);
  }
  auto r = gate::checkDeterminism({d.string()}, gate::DType::F32, {4}, 4);
  ASSERT_TRUE(bool(r)) << errorText(r.takeError());
  EXPECT_EQ(r->verdict, gate::Verdict::Fail);
  EXPECT_EQ(r->differingRuns, 1u);
  EXPECT_EQ(r->maxUlps, 2u);
  EXPECT_EQ(*r->firstDifferingRun, 2u);
  EXPECT_EQ(*r->firstDifferingElement, 2u);

  // Identical NaN bits are not a difference, but a NaN still fails.
  fs::path n = tempDir("nan");
  for (int i = 0; i < 4; ++i)
    writeFloats(n / ("run" + std::to_string(i)), {1.0f, std::nanf("")});
  auto q = gate::checkDeterminism({n.string()}, gate::DType::F32, {2}, 4);
  ASSERT_TRUE(bool(q)) << errorText(q.takeError());
  EXPECT_EQ(q->differingRuns, 0u);
  EXPECT_EQ(q->nanRuns, 4u);
  EXPECT_EQ(q->verdict, gate::Verdict::Fail);

  auto few = gate::checkDeterminism({n.string()}, gate::DType::F32, {2}, 40);
  EXPECT_FALSE(bool(few));
  llvm::consumeError(few.takeError());
}

TEST(Gate, AbIsDeterministicAndPaired) {
  fs::path d = tempDir("ab");
  // B is 5% slower than A in every round, under a drift both share.
  std::ofstream o(d / "s.json");
  o << R"({"samples_ms": {"A": [)";
  for (int i = 0; i < 20; ++i)
    o << (i ? "," : "") << 1.0 + 0.1 * i;
  o << R"(], "B": [)";
  for (int i = 0; i < 20; ++i)
    o << (i ? "," : "") << (1.0 + 0.1 * i) * 1.05;
  o << "]}}";
  o.close();
  gate::AbOptions opts;
  opts.resamples = 2000;
  auto a = gate::abTest((d / "s.json").string(), opts);
  auto b = gate::abTest((d / "s.json").string(), opts);
  ASSERT_TRUE(bool(a)) << errorText(a.takeError());
  ASSERT_TRUE(bool(b)) << errorText(b.takeError());
  ASSERT_EQ(a->comparisons.size(), 1u);
  EXPECT_NEAR(a->comparisons[0].ratio, 1.05, 1e-9);
  // Pairing by round: the shared drift cancels, the interval is tight.
  EXPECT_NEAR(a->comparisons[0].lo, 1.05, 1e-9);
  EXPECT_NEAR(a->comparisons[0].hi, 1.05, 1e-9);
  EXPECT_EQ(a->comparisons[0].lo, b->comparisons[0].lo);
  EXPECT_EQ(a->verdict, gate::Verdict::Resolved);
}

TEST(Gate, ResamplesStayWithinTheDrawBudget) {
  // rounds x resamples is bounded: 10^5 rounds take 200 resamples.
  EXPECT_EQ(gate::resamplesFor(30, 10000), 10000u);
  EXPECT_EQ(gate::resamplesFor(2000, 10000), 10000u);
  EXPECT_EQ(gate::resamplesFor(100000, 10000), 200u);
  EXPECT_EQ(gate::resamplesFor(100000, 150), 150u);
  EXPECT_EQ(gate::resamplesFor(10000000, 10000), gate::kMinResamples);
}

TEST(Gate, BootstrapMedianMatchesTheSortedMedian) {
  // The linear-time median gives the bytes the sorting one gave: a ratio of
  // two fixed arms with an even and an odd count.
  std::vector<double> x = {1.0, 1.2, 0.9, 1.1, 1.05, 0.95}, y = {2.0, 2.1, 1.9, 2.2, 1.8, 2.05};
  auto c = gate::compareMedians("x", x, "y", y, true, 2000, 1, 0.95);
  EXPECT_DOUBLE_EQ(c.ratio, 1.025 / 2.025);
  EXPECT_LE(c.lo, c.ratio);
  EXPECT_GE(c.hi, c.ratio);
  x.pop_back();
  y.pop_back();
  EXPECT_DOUBLE_EQ(gate::compareMedians("x", x, "y", y, true, 100, 1, 0.95).ratio, 1.05 / 2.0);
}
