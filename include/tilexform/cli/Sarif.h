// SARIF 2.1.0 for every command that reports findings in files (survey,
// lint): one run of tilexform with its rule table, results with physical
// locations relative to the working directory where they lie under it, and
// line fingerprints that survive edits elsewhere in the file.
#pragma once

#include "tilexform/cli/Output.h"

#include <string>
#include <vector>

namespace tilexform::cli {

struct SarifRule {
  std::string id;
  std::string title;             // shortDescription
  std::string why;               // fullDescription
  std::string helpPage;          // a page of the manual and its anchor: "lint.md#proxy-fence"
  std::string level = "warning"; // defaultConfiguration
};

struct SarifResult {
  std::string ruleId;
  std::string level = "warning";
  std::string message;
  std::string file;
  unsigned line = 1, col = 1;
  /// The finding is in what was read from standard input (`file` is how it
  /// is shown): nothing is read again to fingerprint it.
  bool standardInput = false;
};

/// The whole SARIF log; `notifications` become error-level tool execution
/// notifications (unreadable inputs). Each rule's `helpUri` is the absolute
/// `file:` URI of its help page (`manualUri`).
Json sarifDocument(const std::vector<SarifRule> &rules, const std::vector<SarifResult> &results,
                   const std::vector<std::string> &notifications);

/// `page` (`lint.md#proxy-fence`) of the manual as an absolute `file:` URI:
/// the installed docs beside the executable's prefix
/// (PREFIX/share/doc/tilexform/docs), else those of the source tree the
/// build came from.
std::string manualUri(const std::string &page);

} // namespace tilexform::cli
