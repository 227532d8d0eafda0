// Layout equivalence of a Gluon anchor against the plain Triton dump, decided
// on linear-layout normal forms at the shapes the layouts are used.
#pragma once

#include "tilexform/analysis/Recover.h"
#include "tilexform/analysis/Signature.h"
#include "tilexform/support/Verdict.h"

#include <string>
#include <vector>

namespace tilexform::analysis {

/// One layout use class: a linear layout at a shape in one memory.
struct LayoutUse {
  std::string key; // memory | shape | normal form
  std::string attr;
  layout::EncodingPtr encoding;
  std::optional<std::string> gluon;
  std::string kind;
  Verdict status = Verdict::Unrecoverable;
  std::vector<int64_t> shape;
  std::string memory;
  std::vector<std::string> roles;
  std::vector<UseSite> sites;
};

struct Nearest {
  std::string attr;
  std::string differs; // e.g. "sizePerThread [4] vs [1]"
};

struct LayoutDifference {
  LayoutUse use;
  std::optional<Nearest> nearest;
};

/// One field to change in the anchor's constructor: `keyword` (Gluon's name
/// of the TTGIR field) from the anchor's value to plain's.
struct FieldFix {
  std::string field;                   // as the TTGIR spells it: "sizePerThread"
  std::string keyword;                 // as Gluon spells it: "size_per_thread"
  std::string plainValue, anchorValue; // Python spelling: "[4]", "True"
};

/// One difference with both sides: a layout plain uses and the anchor's
/// nearest one in its place (none when the anchor has no counterpart, or
/// an anchor layout plain has none of), and the edit that would fix it.
struct PairedDifference {
  std::optional<LayoutUse> plain, anchor;
  std::string differs;
  std::vector<FieldFix> fixes; // empty when the kinds differ or only the shape does
};

struct Reconciled {
  std::string cause;  // unconstructible_replaced, pipeliner_staging, op_without_builtin,
                      // reorder_reshape
  std::string detail; // one sentence
  std::string side;   // "plain" (missing in the anchor) or "anchor" (extra)
  LayoutUse use;
};

struct Multiplicity {
  std::string role;
  std::vector<int64_t> shape;
  size_t plainSites = 0, anchorSites = 0;
};

struct VerifyReport {
  Verdict verdict = Verdict::Pass; // Pass, Reconciled, Fail, NotComparable
  std::string notComparableReason;
  std::vector<LayoutDifference> missing, extra;
  /// missing and extra joined: each missing use with the extra one nearest to
  /// it, so a difference is listed once with both sides.
  std::vector<PairedDifference> differences;
  std::vector<Reconciled> reconciled;
  std::vector<Multiplicity> multiplicity;
  RecoverReport plain, anchor;
  bool anchorCrossesCapacity = false;
  /// The two kernels' launch specialisation, beside the layouts: a
  /// layout-exact anchor specialised otherwise compiles to other code. It
  /// does not change the layout verdict.
  SignatureComparison signature;
};

VerifyReport verify(const ir::Module &plain, const ir::Module &anchor,
                    gluon::GluonApi api = gluon::GluonApi::V3_6,
                    const std::string &archOverride = {});

/// What in a module says it was compiled from Gluon rather than plain Triton,
/// as a phrase for a message ("it uses the gluon dialect (gluon.set_auto_layout)",
/// "its kernel's source is src/gluon_kernels.py"); "" when nothing does.
/// A faithful anchor's TTGIR has plain's ops and layouts, so this is the
/// Gluon dialect of IR before layout inference, or a source file whose name
/// says gluon.
std::string gluonEvidence(const ir::Module &mod);

} // namespace tilexform::analysis
