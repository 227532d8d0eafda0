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
  std::string title; // shortDescription
  std::string why;   // fullDescription
  std::string helpUri;
  std::string level = "warning"; // defaultConfiguration
};

struct SarifResult {
  std::string ruleId;
  std::string level = "warning";
  std::string message;
  std::string file;
  unsigned line = 1, col = 1;
};

/// The whole SARIF log; `notifications` become error-level tool execution
/// notifications (unreadable inputs).
Json sarifDocument(const std::vector<SarifRule> &rules, const std::vector<SarifResult> &results,
                   const std::vector<std::string> &notifications);

} // namespace tilexform::cli
