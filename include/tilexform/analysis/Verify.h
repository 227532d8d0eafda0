// Layout equivalence of a Gluon anchor against the plain Triton dump, decided
// on linear-layout normal forms at the shapes the layouts are used.
#pragma once

#include "tilexform/analysis/Recover.h"

#include <string>
#include <vector>

namespace tilexform::analysis {

/// One layout use class: a linear layout at a shape in one memory.
struct LayoutUse {
  std::string key; // memory | shape | normal form
  std::string attr;
  std::optional<std::string> gluon;
  std::string kind, status;
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

struct Reconciled {
  std::string cause;  // unconstructible_replaced, pipeliner_staging, op_without_builtin
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
  std::string verdict; // PASS, RECONCILED, FAIL, NOT_COMPARABLE
  std::string notComparableReason;
  std::vector<LayoutDifference> missing, extra;
  std::vector<Reconciled> reconciled;
  std::vector<Multiplicity> multiplicity;
  RecoverReport plain, anchor;
  bool anchorCrossesCapacity = false;
};

VerifyReport verify(const ir::Module &plain, const ir::Module &anchor,
                    gluon::GluonApi api = gluon::GluonApi::V3_6,
                    const std::string &archOverride = {});

} // namespace tilexform::analysis
