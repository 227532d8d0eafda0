#!/usr/bin/env bash
# Sets up, builds, and runs every test. In CI (CI=true) or with --strict the
# build treats warnings as errors and runs under AddressSanitizer and
# UndefinedBehaviorSanitizer.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
strict=0
if [ "${CI:-}" = "true" ] || [ "${1:-}" = "--strict" ]; then strict=1; fi
if [ $strict -eq 1 ]; then
  build="$here/build-strict"
  "$here/scripts/setup.sh" "$build" -DTILEXFORM_WERROR=ON -DTILEXFORM_SANITIZE=ON
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  build="$here/build"
  "$here/scripts/setup.sh" "$build" -DTILEXFORM_TESTS=ON
fi
cd "$build"
ctest --output-on-failure -j "$(nproc)"
