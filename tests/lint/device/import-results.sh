#!/usr/bin/env bash
# Imports a device run of tests/lint/device/run.sh (its $OUT folder) into the
# repository: the TTGIRs as lit inputs (tests/lit/lint/Inputs/device/), the
# records (tests/lint/device/device-results.jsonl), tests/lit/lint/device.test
# and the table of docs/lint.md "Checked on the GPU". Then runs the lint lit
# tests. Usage: tests/lint/device/import-results.sh RESULTS_DIR [--tilexform BIN]
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
status=0
python3 tests/lint/device/import_results.py "$@" || status=$?
if [ "$status" -gt 1 ]; then exit "$status"; fi
lit=${LIT:-/usr/lib/llvm-22/bin/lit}
if [ -d build/tests/lit ]; then
  "$lit" -sv build/tests/lit --filter 'lint/' || status=1
fi
exit "$status"
