#!/usr/bin/env bash
# Regenerates the pictures under docs/pictures/ with the tool itself: one SVG
# per layout kind (tests/lit/layout/Inputs/picture-kinds.txt, the first
# layout of each kind) and the example verify and recover reports.
# Usage: scripts/pictures.sh [path/to/tilexform]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:-$here/build/tools/tilexform/tilexform}
out=$here/docs/pictures
mkdir -p "$out"
declare -A done=()
while IFS=$'\t' read -r kind type; do
  case $kind in '' | \#*) continue ;; esac
  [ -n "${done[$kind]:-}" ] && continue
  done[$kind]=1
  "$tool" layout --type "$type" --svg "$out/$kind.svg" --force >/dev/null
done <"$here/tests/lit/layout/Inputs/picture-kinds.txt"
corpus=tests/corpus/sm90
cd "$here"
# verify exits 1 (FAIL) here: the narrow anchor is the example of a difference.
"$tool" verify $corpus/vadd_b1024_w4.ttgir $corpus/gluon_vadd_narrow_b1024_w4.ttgir \
  --html "$out/verify-vadd-narrow.html" --force >/dev/null || [ $? -eq 1 ]
"$tool" recover $corpus/matmul_f16_64x64x32_w4_s2.ttgir \
  --html "$out/recover-matmul.html" --force >/dev/null
ls -l "$out"
