#include "tilexform/support/Verdict.h"

#include <iterator>

namespace tilexform {

namespace {

struct Name {
  Verdict verdict;
  const char *name;
};

constexpr Name kNames[] = {
    {Verdict::Ok, "OK"},
    {Verdict::Partial, "PARTIAL"},
    {Verdict::None, "NONE"},
    {Verdict::Exact, "EXACT"},
    {Verdict::Differs, "DIFFERS"},
    {Verdict::Unrecoverable, "UNRECOVERABLE"},
    {Verdict::Recovered, "RECOVERED"},
    {Verdict::NumWarpsMismatch, "NUM_WARPS_MISMATCH"},
    {Verdict::Pass, "PASS"},
    {Verdict::Reconciled, "RECONCILED"},
    {Verdict::Fail, "FAIL"},
    {Verdict::NotComparable, "NOT_COMPARABLE"},
    {Verdict::Resolved, "RESOLVED"},
    {Verdict::NotResolved, "NOT_RESOLVED"},
    {Verdict::Audited, "AUDITED"},
    {Verdict::Same, "SAME"},
    {Verdict::Different, "DIFFERENT"},
    {Verdict::Cleared, "CLEARED"},
    {Verdict::NotCleared, "NOT_CLEARED"},
    {Verdict::InvalidInput, "INVALID_INPUT"},
    {Verdict::Transcribed, "TRANSCRIBED"},
    {Verdict::TranscribedWithGaps, "TRANSCRIBED_WITH_GAPS"},
    {Verdict::Blocked, "BLOCKED"},
    {Verdict::Pipelined, "PIPELINED"},
    {Verdict::NotPipelined, "NOT_PIPELINED"},
    {Verdict::Inconclusive, "INCONCLUSIVE"},
    {Verdict::Clean, "CLEAN"},
    {Verdict::Findings, "FINDINGS"},
    {Verdict::Error, "ERROR"},
};

static_assert(std::size(kNames) == size_t(Verdict::Error) + 1, "every verdict has one name");

} // namespace

const char *verdictName(Verdict v) { return kNames[size_t(v)].name; }

std::optional<Verdict> parseVerdict(llvm::StringRef name) {
  for (const Name &n : kNames)
    if (name == n.name)
      return n.verdict;
  return std::nullopt;
}

} // namespace tilexform
