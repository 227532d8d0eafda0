// The parity gate: is the Gluon anchor at >= min_ratio of the champion's
// speed, and if not, who owns the gap — decided from the two kernels'
// compiled artifacts (TTGIR, assembly, metadata), each suspect measured in
// the hot loop.
#pragma once

#include "tilexform/gate/Gates.h"

#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace tilexform::gate {

/// The six owners a gap can have, in report order (suspectName).
enum class SuspectKind {
  LostPipeline,
  LostVectorization,
  LostLayout,
  LostRA,
  LostSchedule,
  LdsBudget
};
const char *suspectName(SuspectKind k);

enum class SuspectStatus { Suspected, Cleared, Untested };
const char *suspectStatusName(SuspectStatus s);

struct Suspect {
  SuspectKind kind;
  SuspectStatus status = SuspectStatus::Untested;
  std::vector<std::string> evidence; // what was read, champion and anchor
  std::string why;                   // Untested: what is missing
};

/// One side's timing: a single figure or samples.
struct TimingInput {
  std::optional<double> ms;
  std::string samples; // "FILE" (a JSON array) or "FILE:KEY" (a samples file's arm)
};

struct ParityOptions {
  TimingInput champion, anchor;
  std::string championDir, anchorDir; // artifact sets; empty: timings only
  std::string kernel;                 // which kernel of each set
  std::string arch;                   // overrides what the artifacts say
  double minRatio = 0.95;
  unsigned resamples = 10000;
  uint64_t seed = 1;
  double confidence = 0.95;
};

struct ArmArtifacts {
  std::string dir;
  std::string ttgir, listing; // paths used ("" when absent)
  std::string kernel;         // the kernel audited
  std::optional<std::string> arch;
  std::vector<std::string> notes;
};

struct ParityReport {
  Verdict verdict = Verdict::NotCleared; // Cleared, NotCleared, NotResolved, InvalidInput
  std::string invalidReason;
  /// ParityOptions::arch names another vendor than an arm's artifacts state
  /// (hw::vendorConflict): the line refusing it, and nothing else is judged.
  std::string archConflict;
  double championMs = 0, anchorMs = 0, ratio = 0, minRatio = 0.95;
  /// With samples: each arm's spread and the ratio's confidence interval.
  std::optional<ArmStats> championStats, anchorStats;
  std::optional<Comparison> interval; // ratio champion/anchor
  bool paired = false;
  /// With samples: whether the two arms differ beyond the run-to-run spread.
  std::optional<bool> resolvedDifferent;
  std::vector<Suspect> suspects;
  std::optional<ArmArtifacts> championArtifacts, anchorArtifacts;
  std::vector<std::string> notes;
};

/// Runs the gate. Unreadable inputs are errors; timings that are NaN,
/// infinite or not positive give verdict InvalidInput (with the reason).
llvm::Expected<ParityReport> parityGate(const ParityOptions &options);

} // namespace tilexform::gate
