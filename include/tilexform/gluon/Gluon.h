// Gluon layout constructors: emission per Gluon API version, and the reverse
// parse of a constructor expression, which is what makes the round-trip proof.
#pragma once

#include "tilexform/layout/Encoding.h"

#include <llvm/Support/Error.h>
#include <optional>
#include <string>

namespace tilexform::gluon {

enum class GluonApi {
  V3_6, // cga_layout=[[...]] (Triton 3.6 and later)
  V3_5, // ctas_per_cga / cta_split_num / cta_order (before 3.6)
};

/// Parses "3.6", "3.5", "pre-3.6" ... into an API; none for an unknown name.
std::optional<GluonApi> parseGluonApi(const std::string &text);
std::string gluonApiName(GluonApi api);

/// A Gluon constructor expression for `enc`, or the reason Gluon cannot build
/// it (e.g. amd_rotating_shared has no Gluon class in 3.6).
struct GluonExpr {
  std::optional<std::string> expr;
  std::string reason;
};
GluonExpr emitGluon(const layout::Encoding &enc, GluonApi api = GluonApi::V3_6);

/// A shared layout Gluon has no class for (amd_rotating_shared in 3.6), as
/// its own linear layout at the buffer shape `shape` (the memdesc's trailing
/// dims): `gl.SharedLinearLayout(offset_bases=...)`. The same memory layout
/// wherever the buffer has that shape; the reason when it cannot be built.
GluonExpr emitGluonAsLinear(const layout::Encoding &enc, const std::vector<int64_t> &shape,
                            GluonApi api = GluonApi::V3_6);

/// Parses a constructor expression (`gl.BlockedLayout(...)`, with or without
/// the `gl.`/`ttgl.`/`gl.amd.` prefixes, keyword or positional arguments).
llvm::Expected<layout::EncodingPtr> parseGluon(const std::string &text);

/// EXACT when the expression parsed back prints the same attribute text and
/// gives the same linear layout at `shape` (shape may be empty for shared
/// layouts with no linear layout to compare).
struct RoundTrip {
  bool exact = false;
  std::string detail; // what differs when not exact
};
RoundTrip checkRoundTrip(const layout::Encoding &enc, const std::string &expr,
                         const std::vector<int64_t> &shape);

/// EXACT when the expression parsed back has the same linear layout as `enc`
/// at `shape` (for a constructor of another kind, emitGluonAsLinear's).
RoundTrip checkLinearRoundTrip(const layout::Encoding &enc, const std::string &expr,
                               const std::vector<int64_t> &shape);

} // namespace tilexform::gluon
