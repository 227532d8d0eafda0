// Whether an input error on stderr is followed by its source line and a
// caret under the column (`file:line:col: error: ...`, then the line, then
// `^`), as clang and MLIR print them. The driver turns it off for JSON and
// SARIF runs: a machine reads their stderr line by line.
#pragma once

namespace tilexform::cli {

void setSourceQuotes(bool on);

} // namespace tilexform::cli
