#!/usr/bin/env bash
# Regenerates the pictures under docs/pictures/ with the tool itself: one SVG
# per layout kind (the layouts of tests/lit/layout/Inputs/picture-kinds.txt,
# drawn at a small shape so each stays readable and small) and the example
# verify report.
# Usage: scripts/pictures.sh [path/to/tilexform]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:-$here/build/tools/tilexform/tilexform}
out=$here/docs/pictures
rm -rf "$out"
mkdir -p "$out"
# kind, shape, attribute
while IFS='|' read -r kind shape attr; do
  case $kind in '' | \#*) continue ;; esac
  "$tool" layout --attr "$attr" --shape "$shape" --svg "$out/$kind.svg" --force >/dev/null
done <<'KINDS'
blocked|16x16|#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
slice|64|#ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>}>
dot_op|32x16|#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1], instrShape = [16, 8]}>, kWidth = 2}>
nvidia_mma_v2|32x16|#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1], instrShape = [16, 8]}>
nvidia_mma_v3|64x16|#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 16]}>
amd_mfma|32x32|#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], isTransposed = true}>
amd_wmma|16x16|#ttg.amd_wmma<{version = 2, isTranspose = true, warpsPerCTA = [1, 1]}>
linear|16x16|#ttg.linear<{register = [[1, 0], [0, 1]], lane = [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]], warp = [[8, 0]], block = []}>
swizzled_shared|16x16|#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>
amd_rotating_shared|16x16|#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [0, 1]}>
nvmma_shared|16x64|#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
shared_linear|4x8|#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]]}, alignment = 16>
padded_shared|16x16|#ttg.padded_shared<[16:+4] {order = [1, 0], shape = [16, 16]}>
KINDS
corpus=tests/corpus/sm90
cd "$here"
# verify exits 1 (FAIL) here: the narrow anchor is the example of a difference.
"$tool" verify $corpus/vadd_b1024_w4.ttgir $corpus/gluon_vadd_narrow_b1024_w4.ttgir \
  --html "$out/verify-vadd-narrow.html" --force >/dev/null || [ $? -eq 1 ]
ls -l "$out"
