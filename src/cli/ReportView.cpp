#include "tilexform/cli/ReportView.h"

namespace tilexform::cli {

ReportView::~ReportView() = default;

void ReportView::write(const CommonOptions &options) const {
  if (options.jsonOutput())
    printJson(json());
  else
    printText(text());
}

int writeReport(const CommonOptions &options, const ReportView &view, int exitCode) {
  view.write(options);
  return exitCode;
}

FileOutput reportOutput(const CommonOptions &options, const ReportView &view, int exitCode) {
  FileOutput o;
  o.exitCode = exitCode;
  if (options.jsonOutput())
    o.doc = view.json();
  else
    o.text = view.text();
  return o;
}

} // namespace tilexform::cli
