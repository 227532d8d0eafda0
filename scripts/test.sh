#!/usr/bin/env bash
# Sets up, builds, and runs every test. In CI (CI=true) or with --strict the
# build (clang-22) treats warnings as errors and runs under AddressSanitizer
# and UndefinedBehaviorSanitizer, with libFuzzer's coverage for scripts/fuzz.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
strict=0
if [ "${CI:-}" = "true" ] || [ "${1:-}" = "--strict" ]; then strict=1; fi
if [ $strict -eq 1 ]; then
  # One clang-22 build serves the strict tests and the fuzz targets
  # (scripts/fuzz.sh builds its targets in the same folder, configured the
  # same way): CI compiles the sources under the sanitizers once. (GCC 12's
  # -O3 Release build of scripts/package-check.sh is not -Werror: its
  # -Wrestrict inside libstdc++'s std::string is a known false positive.)
  build="$here/build-strict"
  "$here/scripts/setup.sh" "$build" --strict
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  build="$here/build"
  "$here/scripts/setup.sh" "$build" -DTILEXFORM_TESTS=ON
fi
cd "$build"
ctest --output-on-failure -j "$(nproc)"
