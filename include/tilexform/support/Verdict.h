// Every verdict tilexform gives, one enum with one name table. The core
// returns these; the CLI alone maps them to exit codes (cli/Output.h).
#pragma once

#include <llvm/ADT/StringRef.h>

#include <optional>

namespace tilexform {

enum class Verdict {
  Ok,      // inspect, probe, survey: read
  Partial, // probe, survey: some inputs could not be read
  None,    // a multi-file run given no input
  // layout; recover's per-layout status
  Exact,
  Differs,
  Unrecoverable,
  // recover
  Recovered,
  NumWarpsMismatch,
  // verify; gate champion and gate determinism
  Pass,
  Reconciled,
  Fail,
  NotComparable,
  // gate ab
  Resolved,
  NotResolved,
  // audit
  Audited,
  Same,
  Different,
  // parity-gate
  Cleared,
  NotCleared,
  InvalidInput,
  // transcribe
  Transcribed,
  TranscribedWithGaps,
  Blocked,
  // recover's per-loop pipeline facts
  Pipelined,
  NotPipelined,
  Inconclusive,
  // lint
  Clean,
  Findings,
  // every command, in JSON: it could not answer (a usage, input or
  // internal error; the envelope's `errors[]` says which)
  Error,
};

/// The name printed and written to JSON: "NUM_WARPS_MISMATCH".
const char *verdictName(Verdict v);
/// The verdict of a name verdictName gives; none for any other text.
std::optional<Verdict> parseVerdict(llvm::StringRef name);

} // namespace tilexform
