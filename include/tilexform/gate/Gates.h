// The executable gates of a port, decided from result files (no GPU):
// the champion bundle is intact, repeated launches are bit-identical, an
// A/B difference lies outside the run-to-run spread.
#pragma once

#include "tilexform/support/Verdict.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilexform::gate {

/// The gates' verdicts are tilexform's one Verdict (support/Verdict.h).
using tilexform::Verdict;
using tilexform::verdictName;

/// One named check of a gate: passed, failed, or not verifiable from the
/// files given (reported, never failing on its own).
enum class CheckStatus { Pass, Fail, Unverified };
const char *checkStatusName(CheckStatus s);
struct Check {
  std::string name;
  CheckStatus status;
  std::string message;
};

// ---- champion ---------------------------------------------------------------

struct ChampionReport {
  std::string kernel;
  std::vector<Check> checks;
  Verdict verdict = Verdict::Fail;
};

/// Checks a champion bundle (docs/schema/champion.schema.json). Errors only
/// for a bundle that cannot be read or is not a bundle at all.
llvm::Expected<ChampionReport> checkChampion(const std::string &bundlePath, unsigned minSamples);

// ---- determinism --------------------------------------------------------------

/// Element types of raw outputs (numpy's names).
enum class DType { F16, BF16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64 };
std::optional<DType> parseDType(const std::string &name);
const char *dtypeName(DType t);

struct DeterminismReport {
  size_t runs = 0, elements = 0;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  size_t differingRuns = 0;     // runs not bit-identical to the first
  size_t differingElements = 0; // over all runs
  std::optional<size_t> firstDifferingRun;
  std::optional<size_t> firstDifferingElement;
  double maxAbsDiff = 0, maxRelDiff = 0;
  uint64_t maxUlps = 0;            // floats: distance in units in the last place
  size_t nanRuns = 0, infRuns = 0; // runs holding any NaN / infinity
  Verdict verdict = Verdict::Fail;
  std::vector<std::string> reasons;
};

/// Compares the outputs of repeated launches, each a raw binary of `dtype`
/// and `shape` or a .npy file (which carries its own). A NaN anywhere fails;
/// NaNs compare by their bits. Fewer than `minRuns` runs, mixed shapes or a
/// size that does not match are input errors.
llvm::Expected<DeterminismReport> checkDeterminism(const std::vector<std::string> &runs,
                                                   std::optional<DType> dtype,
                                                   const std::vector<int64_t> &shape,
                                                   size_t minRuns);

// ---- A/B ------------------------------------------------------------------------

struct ArmStats {
  std::string name;
  size_t n = 0;
  double median = 0, q1 = 0, q3 = 0, min = 0, max = 0;
  double iqrPct = 0; // IQR / median, percent
};

/// The ratio of an arm's median to the baseline's, with a bootstrap
/// confidence interval over rounds (samples of one round stay paired).
struct Comparison {
  std::string arm, baseline;
  double ratio = 1, lo = 1, hi = 1;
  bool excludesOne = false;
};

/// Whether a pair's difference follows the arm or the position it ran at in
/// each round (sign-flip permutation tests over rounds).
struct PositionTest {
  std::string arm, baseline;
  double armEffectPct = 0, positionEffectPct = 0;
  double pArm = 1, pPosition = 1;
  std::string follows; // "arm", "position", "neither"
};

struct AbOptions {
  std::vector<std::string> arms; // empty: every arm but controls; the first is the baseline
  std::string control = "auto";  // "auto": `X#control` of a compared arm X; "" none
  bool permute = false;
  unsigned resamples = 10000;
  uint64_t seed = 1;
  double confidence = 0.95;
};

struct AbReport {
  size_t rounds = 0;
  unsigned resamples = 0; // used: resamplesFor(rounds, AbOptions::resamples)
  std::vector<ArmStats> arms;
  std::vector<Comparison> comparisons;
  std::optional<Comparison> control; // the control against its twin
  bool controlAgrees = true;
  std::vector<PositionTest> positions;
  Verdict verdict = Verdict::NotResolved;
  std::vector<std::string> reasons;
};

/// The bootstrap and the permutation test draw `rounds` indices or signs
/// per resample. Beyond kMaxResampleDraws in all (2,000 rounds at the
/// default 10,000 resamples) the resamples are reduced to stay within it, to
/// no fewer than kMinResamples: 10^5 rounds take 200 resamples and under a
/// second, and the interval of a median over that many rounds is narrow
/// already (its width shrinks as 1/sqrt(rounds)). The number used is
/// reported.
constexpr uint64_t kMaxResampleDraws = 20'000'000;
constexpr unsigned kMinResamples = 100;
unsigned resamplesFor(size_t rounds, unsigned requested);

/// Quartiles, extremes and IQR of one arm's samples (at least one).
ArmStats armStats(const std::string &name, std::vector<double> v);

/// The ratio of medians median(x) / median(y) with a bootstrap confidence
/// interval: `paired` resamples rounds (x[i] with y[i], equal lengths),
/// otherwise each arm on its own.
Comparison compareMedians(const std::string &arm, const std::vector<double> &x,
                          const std::string &baseline, const std::vector<double> &y, bool paired,
                          unsigned resamples, uint64_t seed, double confidence);

/// Reads interleaved samples (`samples_ms: {arm: [...]}` and optionally
/// `round_order: [[arm, ...], ...]`). NaN, infinite or non-positive samples,
/// unequal round counts or unknown arms are input errors.
llvm::Expected<AbReport> abTest(const std::string &samplesPath, const AbOptions &options);

} // namespace tilexform::gate
