#!/usr/bin/env bash
# clang-format over the C++ tree; --check fails on any difference.
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=$(command -v clang-format || true)
if [ -z "$fmt" ]; then
  echo "format: clang-format not installed; skipped" >&2
  exit 0
fi
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.h.in')
if [ "${1:-}" = "--check" ]; then
  "$fmt" --dry-run --Werror "${files[@]}"
  echo "format: ${#files[@]} files clean"
else
  "$fmt" -i "${files[@]}"
fi
