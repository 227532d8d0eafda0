// `tilexform gate champion|determinism|ab`: the executable gates of a port,
// decided from result files.
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/CommonOptions.h"
#include "tilexform/cli/ReportView.h"
#include "tilexform/gate/Gates.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>

namespace tilexform::cli {

namespace {

struct GateOptions {
  CommonOptions common;
  // champion
  std::string bundle;
  unsigned minSamples = 10;
  // determinism
  std::vector<std::string> runs;
  std::string dtype, shape;
  size_t minRuns = 40;
  // ab
  std::string samples, arms, control = "auto";
  bool permute = false;
  unsigned resamples = 10000;
} opts;

CLI::App *championCmd, *determinismCmd, *abCmd;

class ChampionView : public ReportView {
public:
  explicit ChampionView(const gate::ChampionReport &r) : r_(r) {}

  Json json() const override {
    const gate::ChampionReport *r = &r_;
    Json j = envelope("gate champion", r->verdict, exitCodeFor("gate", r->verdict));
    j["bundle"] = opts.bundle;
    j["kernel"] = r->kernel;
    Json checks = Json::array();
    for (auto &c : r->checks)
      checks.push_back(Json{
          {"check", c.name}, {"status", gate::checkStatusName(c.status)}, {"message", c.message}});
    j["checks"] = checks;
    return j;
  }

  std::string text() const override {
    const gate::ChampionReport *r = &r_;
    std::string out = fmt::format("champion gate: {}  ({})\n", opts.bundle, r->kernel);
    for (auto &c : r->checks)
      out +=
          fmt::format("  [{:<10}] {:<20} {}\n", gate::checkStatusName(c.status), c.name, c.message);
    out += fmt::format("verdict: {}\n", gate::verdictName(r->verdict));
    return out;
  }

private:
  const gate::ChampionReport &r_;
};

class DeterminismView : public ReportView {
public:
  explicit DeterminismView(const gate::DeterminismReport &r) : r_(r) {}

  Json json() const override {
    const gate::DeterminismReport *r = &r_;
    Json j = envelope("gate determinism", r->verdict, exitCodeFor("gate", r->verdict));
    j["runs"] = r->runs;
    j["dtype"] = gate::dtypeName(r->dtype);
    j["shape"] = r->shape;
    j["elements"] = r->elements;
    j["differing_runs"] = r->differingRuns;
    j["differing_elements"] = r->differingElements;
    j["first_difference"] = r->firstDifferingRun ? Json{{"run", *r->firstDifferingRun},
                                                        {"element", *r->firstDifferingElement}}
                                                 : Json(nullptr);
    j["max_abs_diff"] = r->maxAbsDiff;
    j["max_rel_diff"] = r->maxRelDiff;
    j["max_ulps"] = r->maxUlps;
    j["nan_runs"] = r->nanRuns;
    j["inf_runs"] = r->infRuns;
    j["reasons"] = r->reasons;
    return j;
  }

  std::string text() const override {
    const gate::DeterminismReport *r = &r_;
    std::string out = fmt::format("determinism gate: {} runs of {} {}\n", r->runs, r->elements,
                                  gate::dtypeName(r->dtype));
    out += fmt::format("  runs differing from the first: {} ({} elements)\n", r->differingRuns,
                       r->differingElements);
    if (r->firstDifferingRun)
      out += fmt::format("  first difference: run {} element {}\n", *r->firstDifferingRun,
                         *r->firstDifferingElement);
    out += fmt::format("  max abs diff {:.6g}, max rel diff {:.6g}, max {} ulps\n", r->maxAbsDiff,
                       r->maxRelDiff, r->maxUlps);
    out += fmt::format("  runs with NaN: {}, with Inf: {}\n", r->nanRuns, r->infRuns);
    for (auto &why : r->reasons)
      out += "  " + why + "\n";
    out += fmt::format("verdict: {}\n", gate::verdictName(r->verdict));
    return out;
  }

private:
  const gate::DeterminismReport &r_;
};

Json comparisonJson(const gate::Comparison &c) {
  return Json{{"arm", c.arm},   {"baseline", c.baseline}, {"ratio", c.ratio},
              {"ci_low", c.lo}, {"ci_high", c.hi},        {"excludes_1", c.excludesOne}};
}

class AbView : public ReportView {
public:
  AbView(const gate::AbReport &r, const gate::AbOptions &o) : r_(r), o_(o) {}

  Json json() const override {
    const gate::AbReport *r = &r_;
    const gate::AbOptions &o = o_;
    Json j = envelope("gate ab", r->verdict, exitCodeFor("gate", r->verdict));
    j["samples"] = opts.samples;
    j["rounds"] = r->rounds;
    j["confidence"] = o.confidence;
    j["resamples"] = r->resamples;
    Json arms = Json::array();
    for (auto &a : r->arms)
      arms.push_back(Json{{"arm", a.name},
                          {"n", a.n},
                          {"median_ms", a.median},
                          {"q1_ms", a.q1},
                          {"q3_ms", a.q3},
                          {"min_ms", a.min},
                          {"max_ms", a.max},
                          {"iqr_pct", a.iqrPct}});
    j["arms"] = arms;
    Json cmps = Json::array();
    for (auto &c : r->comparisons)
      cmps.push_back(comparisonJson(c));
    j["comparisons"] = cmps;
    j["control"] = r->control ? comparisonJson(*r->control) : Json(nullptr);
    j["control_agrees"] = r->controlAgrees;
    if (opts.permute) {
      Json perm = Json::array();
      for (auto &t : r->positions)
        perm.push_back(Json{{"arm", t.arm},
                            {"baseline", t.baseline},
                            {"arm_effect_pct", t.armEffectPct},
                            {"p_arm", t.pArm},
                            {"position_effect_pct", t.positionEffectPct},
                            {"p_position", t.pPosition},
                            {"follows", t.follows}});
      j["permutation"] = perm;
    }
    j["reasons"] = r->reasons;
    return j;
  }

  std::string text() const override {
    const gate::AbReport *r = &r_;
    const gate::AbOptions &o = o_;
    std::string out =
        fmt::format("A/B gate: {} ({} interleaved rounds, {:.0f}% bootstrap intervals)\n",
                    opts.samples, r->rounds, o.confidence * 100);
    if (r->resamples != o.resamples)
      out += fmt::format("  {} resamples, not {}: {} rounds (rounds x resamples is kept within "
                         "2x10^7)\n",
                         r->resamples, o.resamples, r->rounds);
    for (auto &a : r->arms)
      out += fmt::format("  {:<40} median {:.6f} ms  IQR {:.6f}..{:.6f} ({:.1f}%)  min {:.6f}  max "
                         "{:.6f}\n",
                         a.name, a.median, a.q1, a.q3, a.iqrPct, a.min, a.max);
    for (auto &c : r->comparisons)
      out += fmt::format("  {} / {} = {:.4f}  [{:.4f}, {:.4f}]  {}\n", c.arm, c.baseline, c.ratio,
                         c.lo, c.hi, c.excludesOne ? "outside the spread" : "inside the spread");
    if (r->control)
      out += fmt::format("  control {} / {} = {:.4f}  [{:.4f}, {:.4f}]  {}\n", r->control->arm,
                         r->control->baseline, r->control->ratio, r->control->lo, r->control->hi,
                         r->controlAgrees ? "agrees" : "DISAGREES");
    for (auto &t : r->positions)
      out += fmt::format("  permutation {} vs {}: arm {:+.2f}% (p {:.4f}), position {:+.2f}% (p "
                         "{:.4f}): follows the {}\n",
                         t.arm, t.baseline, t.armEffectPct, t.pArm, t.positionEffectPct,
                         t.pPosition, t.follows);
    for (auto &why : r->reasons)
      out += "  " + why + "\n";
    out += fmt::format("verdict: {}\n", gate::verdictName(r->verdict));
    return out;
  }

private:
  const gate::AbReport &r_;
  const gate::AbOptions &o_;
};

int runChampion() {
  auto r = gate::checkChampion(opts.bundle, opts.minSamples);
  if (!r)
    return reportError(r.takeError());
  return writeReport(opts.common, ChampionView(*r), exitCodeFor("gate", r->verdict));
}

int runDeterminism() {
  std::optional<gate::DType> dtype;
  if (!opts.dtype.empty()) {
    dtype = gate::parseDType(opts.dtype);
    if (!dtype)
      return reportError("--dtype: unknown element type '" + opts.dtype +
                             "' (float16, bfloat16, float32, float64, int8..int64, uint8..uint64)",
                         kExitUsage);
  }
  std::vector<int64_t> shape;
  if (!opts.shape.empty()) {
    llvm::SmallVector<llvm::StringRef> dims;
    llvm::StringRef(opts.shape).split(dims, llvm::StringRef(opts.shape).contains(',') ? ',' : 'x');
    for (auto d : dims) {
      int64_t v;
      if (d.trim().getAsInteger(10, v) || v <= 0 || v > (int64_t(1) << 40))
        return reportError("--shape: expected dims like 256x256, got '" + opts.shape + "'",
                           kExitUsage);
      shape.push_back(v);
    }
  }
  auto r = gate::checkDeterminism(opts.runs, dtype, shape, opts.minRuns);
  if (!r)
    return reportError(r.takeError());
  return writeReport(opts.common, DeterminismView(*r), exitCodeFor("gate", r->verdict));
}

int runAb() {
  gate::AbOptions o;
  if (abCmd->get_option("--arms")->count()) {
    llvm::SmallVector<llvm::StringRef> names;
    llvm::StringRef(opts.arms).split(names, ',');
    for (auto n : names) {
      if (n.trim().empty())
        return reportError("--arms: expected arm names, baseline first (A,B[,...]), got '" +
                               opts.arms + "'",
                           kExitUsage);
      o.arms.push_back(n.trim().str());
    }
  }
  o.control = opts.control == "none" ? "" : opts.control;
  o.permute = opts.permute;
  o.resamples = opts.resamples;
  auto r = gate::abTest(opts.samples, o);
  if (!r)
    return reportError(r.takeError());
  return writeReport(opts.common, AbView(*r, o), exitCodeFor("gate", r->verdict));
}

} // namespace

void addGateCommand(CLI::App &root) {
  auto *gateCmd = root.add_subcommand(
      "gate", "Decide a gate from result files: champion bundle, determinism, A/B timing");
  gateCmd->require_subcommand(1);
  championCmd = gateCmd->add_subcommand(
      "champion", "Is the plain champion bundle intact (files, hashes, config, samples)?");
  championCmd->add_option("bundle", opts.bundle, "The champion bundle (JSON)")->required();
  championCmd->add_option("--min-samples", opts.minSamples, "Fewest timing samples accepted")
      ->check(CLI::Validator(checkCount, "N"))
      ->capture_default_str();
  opts.common.addFormat(championCmd);

  determinismCmd =
      gateCmd->add_subcommand("determinism", "Are the outputs of repeated launches bit-identical?");
  determinismCmd->add_option("runs", opts.runs, "Run outputs (raw or .npy), or directories of them")
      ->required();
  determinismCmd->add_option("--dtype", opts.dtype, "Element type of raw outputs (float16, ...)");
  determinismCmd->add_option("--shape", opts.shape, "Shape of raw outputs, e.g. 256x256");
  determinismCmd->add_option("--min-runs", opts.minRuns, "Fewest runs accepted")
      ->check(CLI::Validator(checkCount, "N"))
      ->capture_default_str();
  opts.common.addFormat(determinismCmd);

  abCmd =
      gateCmd->add_subcommand("ab", "Is an A/B timing difference outside the run-to-run spread?");
  abCmd->add_option("samples", opts.samples, "Interleaved samples (JSON)")->required();
  abCmd->add_option("--arms", opts.arms, "Arms to compare, baseline first: A,B[,...]");
  abCmd
      ->add_option("--control", opts.control,
                   "Control arm (a second copy of a compared arm); auto: X#control; none")
      ->capture_default_str();
  abCmd->add_flag("--permute", opts.permute,
                  "Test whether differences follow the arm or its position in each round");
  abCmd->add_option("--resamples", opts.resamples, "Bootstrap and permutation resamples")
      ->check(CLI::Validator(checkCount, "N"))
      ->capture_default_str();
  opts.common.addFormat(abCmd);
}

int runGateCommand() {
  if (int code = opts.common.prepare())
    return code;
  if (championCmd->parsed())
    return runChampion();
  if (determinismCmd->parsed())
    return runDeterminism();
  return runAb();
}

} // namespace tilexform::cli
