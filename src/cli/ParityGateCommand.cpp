// `tilexform parity-gate`: is the anchor at >= 95 % of the champion, and if
// not, who owns the gap.
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/CommonOptions.h"
#include "tilexform/cli/ReportView.h"
#include "tilexform/gate/Parity.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

#include <cmath>

namespace tilexform::cli {

namespace {

struct ParityCliOptions {
  std::string championMs, anchorMs, championSamples, anchorSamples, championDir, anchorDir, kernel;
  double minRatio = 0.95;
  unsigned resamples = 10000;
  CommonOptions common;
} opts;

/// A time as given: any double spelling, NaN and inf included (the gate
/// calls those INVALID_INPUT rather than refusing the command line).
std::optional<double> parseMs(const std::string &text, bool &bad) {
  if (text.empty())
    return std::nullopt;
  llvm::StringRef t = llvm::StringRef(text).trim();
  std::string lower = t.lower();
  if (lower == "nan" || lower == "-nan")
    return NAN;
  if (lower == "inf" || lower == "+inf" || lower == "infinity")
    return INFINITY;
  if (lower == "-inf" || lower == "-infinity")
    return -INFINITY;
  double v = 0;
  if (t.getAsDouble(v)) {
    bad = true;
    return std::nullopt;
  }
  return v;
}

Json statsJson(const std::optional<gate::ArmStats> &s) {
  if (!s)
    return nullptr;
  // The names `gate ab` gives an arm's figures.
  return Json{{"n", s->n},        {"median_ms", s->median}, {"q1_ms", s->q1},      {"q3_ms", s->q3},
              {"min_ms", s->min}, {"max_ms", s->max},       {"iqr_pct", s->iqrPct}};
}

Json artifactsJson(const std::optional<gate::ArmArtifacts> &a) {
  if (!a)
    return nullptr;
  return Json{{"dir", a->dir},
              {"ttgir", a->ttgir.empty() ? Json(nullptr) : Json(a->ttgir)},
              {"listing", a->listing.empty() ? Json(nullptr) : Json(a->listing)},
              {"kernel", a->kernel},
              {"arch", a->arch ? Json(*a->arch) : Json(nullptr)},
              {"notes", a->notes}};
}

class ParityView : public ReportView {
public:
  explicit ParityView(const gate::ParityReport &r) : r_(r) {}

  Json json() const override {
    const gate::ParityReport *r = &r_;
    Json j = envelope("parity-gate", r->verdict, exitCodeFor("parity-gate", r->verdict));
    j["ratio"] = r->ratio;
    j["min_ratio"] = r->minRatio;
    j["champion_ms"] = r->championMs;
    j["anchor_ms"] = r->anchorMs;
    if (r->championStats || r->anchorStats || r->interval)
      j["spread"] = Json{{"champion", statsJson(r->championStats)},
                         {"anchor", statsJson(r->anchorStats)},
                         {"ratio_ci", r->interval ? Json::array({r->interval->lo, r->interval->hi})
                                                  : Json(nullptr)},
                         {"paired", r->paired},
                         {"resolved_different",
                          r->resolvedDifferent ? Json(*r->resolvedDifferent) : Json(nullptr)}};
    else
      j["spread"] = nullptr;
    Json suspects = Json::array(), untested = Json::array();
    std::vector<std::string> suspected;
    for (auto &s : r->suspects) {
      Json sj{{"name", gate::suspectName(s.kind)},
              {"status", gate::suspectStatusName(s.status)},
              {"evidence", s.evidence}};
      if (s.status == gate::SuspectStatus::Untested) {
        sj["why"] = s.why;
        untested.push_back(Json{{"name", gate::suspectName(s.kind)}, {"why", s.why}});
      }
      if (s.status == gate::SuspectStatus::Suspected)
        suspected.push_back(gate::suspectName(s.kind));
      suspects.push_back(sj);
    }
    j["suspects"] = suspects;
    j["suspected"] = suspected;
    j["untested"] = untested;
    j["champion"] = artifactsJson(r->championArtifacts);
    j["anchor"] = artifactsJson(r->anchorArtifacts);
    j["notes"] = r->notes;
    return j;
  }

  std::string text() const override {
    const gate::ParityReport *r = &r_;
    std::string out =
        fmt::format("parity gate: champion {:.4f} ms / anchor {:.4f} ms = {:.4f} (min {:.2f})\n",
                    r->championMs, r->anchorMs, r->ratio, r->minRatio);
    if (r->interval)
      out +=
          fmt::format("  spread: champion IQR {:.1f}%, anchor IQR {:.1f}%; ratio {:.0f}% CI "
                      "[{:.4f}, {:.4f}] ({}); the arms {}\n",
                      r->championStats ? r->championStats->iqrPct : 0.0,
                      r->anchorStats ? r->anchorStats->iqrPct : 0.0, 95.0, r->interval->lo,
                      r->interval->hi, r->paired ? "paired over rounds" : "independent resamples",
                      *r->resolvedDifferent ? "differ beyond the run-to-run spread"
                                            : "do not differ beyond the run-to-run spread");
    out += fmt::format("  verdict: {}\n", verdictName(r->verdict));
    for (auto &s : r->suspects) {
      out +=
          fmt::format("  [{:<9}] {}", gate::suspectStatusName(s.status), gate::suspectName(s.kind));
      if (s.status == gate::SuspectStatus::Untested)
        out += ": " + s.why;
      out += "\n";
      for (auto &e : s.evidence)
        out += "      " + e + "\n";
    }
    for (auto *a : {&r->championArtifacts, &r->anchorArtifacts})
      if (*a)
        for (auto &n : (*a)->notes)
          out += "  note: " + n + "\n";
    for (auto &n : r->notes)
      out += "  note: " + n + "\n";
    return out;
  }

private:
  const gate::ParityReport &r_;
};

} // namespace

void addParityGateCommand(CLI::App &root) {
  auto *cmd = root.add_subcommand(
      "parity-gate", "Is the anchor at >= 95% of the champion; if not, who owns the gap (from "
                     "both kernels' artifacts)");
  cmd->add_option("--champion-ms", opts.championMs, "The champion's time (ms)");
  cmd->add_option("--anchor-ms", opts.anchorMs, "The anchor's time (ms)");
  cmd->add_option("--champion-samples", opts.championSamples,
                  "The champion's samples: FILE (a JSON array of ms) or FILE:ARM (an arm of a "
                  "samples file)");
  cmd->add_option("--anchor-samples", opts.anchorSamples, "The anchor's samples, likewise");
  cmd->add_option("--champion", opts.championDir,
                  "The champion's artifacts: a directory (or one file of it) with the .ttgir, "
                  ".amdgcn/.sass/.ptx and metadata .json");
  cmd->add_option("--anchor", opts.anchorDir, "The anchor's artifacts, likewise");
  cmd->add_option("--kernel", opts.kernel, "The kernel, when a directory holds several");
  opts.common.addArch(cmd, "The target, overriding what the artifacts say");
  cmd->add_option("--min-ratio", opts.minRatio, "Champion/anchor time ratio that clears")
      ->check(CLI::Validator(
          [](std::string &v) -> std::string {
            // CLI::Range lets NaN through (every comparison with it is false).
            double x = 0;
            if (!CLI::detail::lexical_cast(v, x) || !(x >= 0.01 && x <= 100.0))
              return "expected a ratio from 0.01 to 100, got '" + v + "'";
            return "";
          },
          "RATIO"))
      ->capture_default_str();
  cmd->add_option("--resamples", opts.resamples, "Bootstrap resamples for the ratio's interval")
      ->check(CLI::Validator(checkCount, "N"))
      ->check(CLI::Range(100u, 1000000u))
      ->capture_default_str();
  opts.common.addFormat(cmd);
}

int runParityGateCommand() {
  CommonOptions &common = opts.common;
  if (int code = common.prepare())
    return code;
  gate::ParityOptions o;
  bool bad = false;
  o.champion.ms = parseMs(opts.championMs, bad);
  o.anchor.ms = parseMs(opts.anchorMs, bad);
  if (bad)
    return reportError("--champion-ms/--anchor-ms: expected a time in ms such as 0.2066",
                       kExitUsage);
  o.champion.samples = opts.championSamples;
  o.anchor.samples = opts.anchorSamples;
  if ((!o.champion.ms && o.champion.samples.empty()) || (!o.anchor.ms && o.anchor.samples.empty()))
    return reportError("parity-gate needs both times: --champion-ms/--champion-samples and "
                       "--anchor-ms/--anchor-samples",
                       kExitUsage);
  if ((o.champion.ms && !o.champion.samples.empty()) || (o.anchor.ms && !o.anchor.samples.empty()))
    return reportError("give a side's time as --*-ms or --*-samples, not both", kExitUsage);
  o.championDir = opts.championDir;
  o.anchorDir = opts.anchorDir;
  o.kernel = opts.kernel;
  o.arch = common.arch;
  o.minRatio = opts.minRatio;
  o.resamples = opts.resamples;
  auto r = gate::parityGate(o);
  if (!r)
    return reportError(r.takeError());
  if (!r->archConflict.empty())
    return reportError(r->archConflict, kExitUsage);
  if (r->verdict == gate::Verdict::InvalidInput) {
    if (common.jsonOutput()) {
      Json j = envelope("parity-gate", r->verdict, exitCodeFor("parity-gate", r->verdict));
      j["invalid"] = r->invalidReason;
      printJson(j);
    }
    return reportError("INVALID_INPUT: " + r->invalidReason, kExitInput);
  }
  return writeReport(common, ParityView(*r), exitCodeFor("parity-gate", r->verdict));
}

} // namespace tilexform::cli
