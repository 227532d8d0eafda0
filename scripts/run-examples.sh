#!/usr/bin/env bash
# Sets up, builds, and runs tilexform's main jobs on the shipped examples.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh" "$here/build" -DTILEXFORM_TESTS=OFF
tx="$here/build/tools/tilexform/tilexform"
for dump in "$here"/examples/*.ttgir; do
  echo "== tilexform inspect $(basename "$dump")"
  "$tx" inspect "$dump"
done
echo "== tilexform layout (an MFMA dot operand from the gfx942 example)"
"$tx" layout --type 'tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>'
echo "== tilexform layout --format json (the sm90 example's shared layout)"
"$tx" layout --format json --type '!ttg.memdesc<3x128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>'
