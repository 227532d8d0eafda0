// The A/B gate: ratios of medians with bootstrap confidence intervals over
// interleaved rounds, a control arm that must agree with its twin, and a
// test of whether a difference follows the arm or the position it ran at.
#include "tilexform/gate/Gates.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/Json.h"

#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace tilexform::gate {

namespace {

// Linear-interpolation quantile (numpy's default) of sorted data.
double quantileSorted(const std::vector<double> &s, double q) {
  if (s.empty())
    return NAN;
  double pos = q * double(s.size() - 1);
  size_t lo = size_t(std::floor(pos));
  size_t hi = std::min(lo + 1, s.size() - 1);
  return s[lo] + (pos - double(lo)) * (s[hi] - s[lo]);
}

// The median of `v` (reordered), in linear time: the same value as
// quantileSorted(sorted v, 0.5), without sorting.
double medianInPlace(std::vector<double> &v) {
  if (v.empty())
    return NAN;
  double pos = 0.5 * double(v.size() - 1);
  size_t lo = size_t(std::floor(pos));
  std::nth_element(v.begin(), v.begin() + lo, v.end());
  double a = v[lo];
  if (lo + 1 >= v.size())
    return a;
  double b = *std::min_element(v.begin() + lo + 1, v.end());
  return a + (pos - double(lo)) * (b - a);
}

double median(std::vector<double> v) { return medianInPlace(v); }

// A fixed-seed generator and index draw whose results do not depend on the
// standard library's distributions: same input, same bytes, everywhere.
struct Rng {
  std::mt19937_64 gen;
  explicit Rng(uint64_t seed) : gen(seed) {}
  size_t below(size_t n) { return size_t((gen() >> 11) % n); }
  bool coin() { return (gen() >> 63) != 0; }
};

} // namespace

unsigned resamplesFor(size_t rounds, unsigned requested) {
  if (rounds == 0 || uint64_t(rounds) * requested <= kMaxResampleDraws)
    return requested;
  uint64_t fit = kMaxResampleDraws / rounds;
  return unsigned(std::max<uint64_t>(std::min<uint64_t>(fit, requested), kMinResamples));
}

ArmStats armStats(const std::string &name, std::vector<double> v) {
  std::sort(v.begin(), v.end());
  ArmStats s;
  s.name = name;
  s.n = v.size();
  s.median = quantileSorted(v, 0.5);
  s.q1 = quantileSorted(v, 0.25);
  s.q3 = quantileSorted(v, 0.75);
  s.min = v.front();
  s.max = v.back();
  s.iqrPct = s.median > 0 ? (s.q3 - s.q1) / s.median * 100 : 0;
  return s;
}

// Bootstrap over rounds when paired: the samples of one round stay together,
// so drift shared by both arms in a round cancels.
Comparison compareMedians(const std::string &arm, const std::vector<double> &x,
                          const std::string &base, const std::vector<double> &y, bool paired,
                          unsigned resamples, uint64_t seed, double confidence) {
  Comparison c;
  c.arm = arm;
  c.baseline = base;
  c.ratio = median(x) / median(y);
  Rng rng(seed);
  size_t n = x.size(), m = y.size();
  paired = paired && n == m;
  resamples = resamplesFor(std::max(n, m), resamples);
  std::vector<double> ratios;
  ratios.reserve(resamples);
  std::vector<double> bx(n), by(m);
  for (unsigned r = 0; r < resamples; ++r) {
    for (size_t i = 0; i < n; ++i) {
      size_t k = rng.below(n);
      bx[i] = x[k];
      if (paired)
        by[i] = y[k];
    }
    if (!paired)
      for (size_t i = 0; i < m; ++i)
        by[i] = y[rng.below(m)];
    ratios.push_back(medianInPlace(bx) / medianInPlace(by));
  }
  std::sort(ratios.begin(), ratios.end());
  double alpha = (1 - confidence) / 2;
  c.lo = quantileSorted(ratios, alpha);
  c.hi = quantileSorted(ratios, 1 - alpha);
  c.excludesOne = c.lo > 1 || c.hi < 1;
  return c;
}

namespace {

// Per round, the pair's log ratio split into an arm and a position effect;
// each tested by sign flips over rounds (a permutation test of its median).
PositionTest positionTest(const std::string &arm, const std::vector<double> &x,
                          const std::string &base, const std::vector<double> &y,
                          const std::vector<int> &xFirst, const AbOptions &o) {
  PositionTest t;
  t.arm = arm;
  t.baseline = base;
  // log(x/y) per round = arm effect + s * position effect + noise, with
  // s = +1 when x ran later. Each effect is estimated with the other taken
  // out, so a large arm effect does not read as a position effect (and the
  // reverse).
  size_t n = x.size();
  std::vector<double> diff(n), sign(n);
  for (size_t i = 0; i < n; ++i) {
    diff[i] = std::log(x[i] / y[i]);
    sign[i] = xFirst[i] ? -1.0 : 1.0;
  }
  double arm0 = median(diff);
  std::vector<double> byPos(n), byArm(n);
  for (size_t i = 0; i < n; ++i)
    byPos[i] = sign[i] * (diff[i] - arm0);
  double pos0 = median(byPos);
  for (size_t i = 0; i < n; ++i)
    byArm[i] = diff[i] - sign[i] * pos0;
  auto test = [&](const std::vector<double> &d, double &effectPct, double &p) {
    double observed = median(d);
    effectPct = (std::exp(observed) - 1) * 100;
    Rng rng(o.seed);
    unsigned extreme = 0;
    std::vector<double> flipped(n);
    unsigned resamples = resamplesFor(n, o.resamples);
    for (unsigned r = 0; r < resamples; ++r) {
      for (size_t i = 0; i < n; ++i)
        flipped[i] = rng.coin() ? -d[i] : d[i];
      if (std::fabs(medianInPlace(flipped)) >= std::fabs(observed) - 1e-15)
        ++extreme;
    }
    p = double(extreme + 1) / double(resamples + 1);
  };
  test(byArm, t.armEffectPct, t.pArm);
  test(byPos, t.positionEffectPct, t.pPosition);
  double level = 1 - o.confidence;
  bool armSig = t.pArm < level, posSig = t.pPosition < level;
  t.follows = armSig && (!posSig || t.pArm <= t.pPosition) ? "arm"
              : posSig                                     ? "position"
                                                           : "neither";
  return t;
}

llvm::Error samplesError(const std::string &path, const std::string &why) {
  return llvm::make_error<InputError>(path, 0, 0, why);
}

} // namespace

llvm::Expected<AbReport> abTest(const std::string &path, const AbOptions &o) {
  auto parsed = readJsonFile(path);
  if (!parsed)
    return parsed.takeError();
  nlohmann::json doc = std::move(*parsed);
  if (!doc.is_object())
    return samplesError(path, std::string(jsonKind(doc)) +
                                  ", not a samples file ({\"samples_ms\": {arm: [ms, ...]}})");
  if (!doc.contains("samples_ms") || !doc["samples_ms"].is_object())
    return samplesError(path, "no \"samples_ms\": {arm: [ms, ...]} object");

  // Every sample must be a finite, positive time.
  std::map<std::string, std::vector<double>> samples;
  std::vector<std::string> order; // as written
  for (auto &[name, list] : doc["samples_ms"].items()) {
    if (!list.is_array() || list.empty())
      return samplesError(path, "arm '" + name + "': expected a non-empty list of samples");
    std::vector<double> v;
    for (size_t i = 0; i < list.size(); ++i) {
      const auto &s = list[i];
      double x = s.is_number() ? s.get<double>() : NAN;
      if (!s.is_number() || !std::isfinite(x) || x <= 0)
        return samplesError(path, fmt::format("INVALID: arm '{}' sample {} is {} (every sample "
                                              "must be a finite time above 0)",
                                              name, i, s.is_null() ? "null (NaN)" : s.dump()));
      v.push_back(x);
    }
    samples[name] = std::move(v);
    order.push_back(name);
  }
  if (samples.empty())
    return samplesError(path, "\"samples_ms\" names no arm");
  AbReport rep;
  rep.rounds = samples.begin()->second.size();
  rep.resamples = resamplesFor(rep.rounds, o.resamples);
  for (auto &[name, v] : samples)
    if (v.size() != rep.rounds)
      return samplesError(path, fmt::format("arm '{}' has {} samples, others {}: interleaved "
                                            "rounds give every arm one sample each",
                                            name, v.size(), rep.rounds));
  if (rep.rounds < 3)
    return samplesError(path, fmt::format("{} rounds; at least 3 are needed", rep.rounds));

  auto isControl = [](const std::string &n) { return llvm::StringRef(n).ends_with("#control"); };
  std::vector<std::string> arms = o.arms;
  if (arms.empty())
    for (auto &n : order)
      if (!isControl(n))
        arms.push_back(n);
  if (arms.size() < 2)
    return samplesError(path, "an A/B comparison needs at least two arms (--arms A,B)");
  for (auto &a : arms)
    if (!samples.count(a)) {
      std::string known;
      for (auto &n : order)
        known += (known.empty() ? "" : ", ") + n;
      return samplesError(path, "no arm '" + a + "' (arms: " + known + ")");
    }

  // Positions in each round, when the file records the order.
  std::vector<std::map<std::string, size_t>> position;
  if (doc.contains("round_order") && !doc["round_order"].is_array())
    return samplesError(path, std::string("\"round_order\" is ") + jsonKind(doc["round_order"]) +
                                  ": expected a list of rounds, each a list of arm names");
  if (doc.contains("round_order")) {
    for (auto &round : doc["round_order"]) {
      std::map<std::string, size_t> pos;
      if (round.is_array())
        for (size_t i = 0; i < round.size(); ++i)
          if (round[i].is_string())
            pos[round[i].get<std::string>()] = i;
      position.push_back(std::move(pos));
    }
    if (position.size() != rep.rounds)
      return samplesError(path, fmt::format("\"round_order\" has {} rounds, the samples {}",
                                            position.size(), rep.rounds));
  }

  for (auto &a : arms)
    rep.arms.push_back(armStats(a, samples[a]));
  const std::string &base = arms.front();
  for (size_t i = 1; i < arms.size(); ++i)
    rep.comparisons.push_back(compareMedians(arms[i], samples[arms[i]], base, samples[base], true,
                                             o.resamples, o.seed, o.confidence));

  // The control: a second copy of one compared arm must agree with it.
  std::string control = o.control;
  if (control == "auto") {
    // The control checks the measurement window: a compared arm's own copy,
    // else any copy the file holds.
    control.clear();
    for (auto &a : arms)
      if (samples.count(a + "#control")) {
        control = a + "#control";
        break;
      }
    for (auto &n : order)
      if (control.empty() && isControl(n) && std::find(arms.begin(), arms.end(), n) == arms.end())
        control = n;
  }
  if (!control.empty()) {
    if (!samples.count(control))
      return samplesError(path, "no control arm '" + control + "'");
    std::string twin = isControl(control) ? control.substr(0, control.size() - 8) : "";
    if (!samples.count(twin))
      return samplesError(path, "control '" + control + "' has no twin arm '" + twin + "'");
    rep.arms.push_back(armStats(control, samples[control]));
    rep.control = compareMedians(control, samples[control], twin, samples[twin], true, o.resamples,
                                 o.seed, o.confidence);
    rep.controlAgrees = !rep.control->excludesOne;
  }

  if (o.permute) {
    if (position.empty())
      return samplesError(path, "--permute needs \"round_order\" (the order of each round)");
    for (size_t i = 1; i < arms.size(); ++i) {
      std::vector<int> xFirst;
      for (auto &pos : position) {
        if (!pos.count(arms[i]) || !pos.count(base))
          return samplesError(path, "\"round_order\" does not list every compared arm in every "
                                    "round");
        xFirst.push_back(pos[arms[i]] < pos[base]);
      }
      rep.positions.push_back(
          positionTest(arms[i], samples[arms[i]], base, samples[base], xFirst, o));
    }
  }

  bool resolved = true;
  for (auto &c : rep.comparisons)
    if (!c.excludesOne) {
      resolved = false;
      rep.reasons.push_back(fmt::format(
          "{} / {} = {:.4f}, interval [{:.4f}, {:.4f}] includes 1: inside the run-to-run spread",
          c.arm, c.baseline, c.ratio, c.lo, c.hi));
    }
  if (!rep.controlAgrees) {
    resolved = false;
    rep.reasons.push_back(
        fmt::format("the control {} differs from its twin ({:.4f}, interval [{:.4f}, {:.4f}]): the "
                    "measurement itself is not trustworthy",
                    rep.control->arm, rep.control->ratio, rep.control->lo, rep.control->hi));
  }
  for (auto &t : rep.positions)
    if (t.follows == "position") {
      resolved = false;
      rep.reasons.push_back(fmt::format(
          "{} vs {}: the difference follows the position in the round ({:+.2f}%, p = {:.4f}), "
          "not the arm ({:+.2f}%, p = {:.4f}): the arms may have run one binary",
          t.arm, t.baseline, t.positionEffectPct, t.pPosition, t.armEffectPct, t.pArm));
    }
  rep.verdict = resolved ? Verdict::Resolved : Verdict::NotResolved;
  return rep;
}

} // namespace tilexform::gate
