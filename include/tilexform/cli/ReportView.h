// A command's answer in the formats it writes, as llvm-mca's views over one
// pipeline: the analysis runs once, and a view renders its result as text,
// JSON (json, jsonl) or the command's other formats (sarif, csv), written
// through one path.
#pragma once

#include "tilexform/cli/CommonOptions.h"
#include "tilexform/cli/Output.h"

#include <string>

namespace tilexform::cli {

class ReportView {
public:
  virtual ~ReportView();
  /// The JSON document, the envelope first.
  virtual Json json() const = 0;
  /// The text report.
  virtual std::string text() const = 0;
  /// Writes the report to stdout in `options.format`: json() through
  /// printJson, else text() through printText. A view with other formats, or
  /// one that streams a large report in pieces, writes them itself.
  virtual void write(const CommonOptions &options) const;
};

/// Writes `view` (ReportView::write) and returns `exitCode`.
int writeReport(const CommonOptions &options, const ReportView &view, int exitCode);

/// One input's report for a command over many (runOverFiles): the JSON
/// document or the text, in `options.format`, with its exit code.
FileOutput reportOutput(const CommonOptions &options, const ReportView &view, int exitCode);

} // namespace tilexform::cli
