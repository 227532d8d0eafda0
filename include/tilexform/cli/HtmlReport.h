// The report views of verify and recover as one self-contained HTML page:
// inline CSS and SVG, no script, no font or image from anywhere else (a
// Content-Security-Policy says so to the browser), the same bytes for the
// same input.
#pragma once

#include "tilexform/analysis/Verify.h"

#include <string>

namespace tilexform::cli {

/// verify's page: the verdict; the differences with both layouts drawn side
/// by side at the shape plain uses, the elements they place differently
/// outlined, and the keyword fix; the missing, extra and reconciled layouts
/// with their use sites and source locations; shared memory.
std::string verifyHtml(const analysis::VerifyReport &report, const std::string &plainPath,
                       const std::string &anchorPath);

/// recover's page: every layout with its picture, roles, use sites and
/// constructor; pipelining per loop; the shared-memory timeline.
std::string recoverHtml(const analysis::RecoverReport &report, Verdict verdict,
                        const std::string &file);

} // namespace tilexform::cli
