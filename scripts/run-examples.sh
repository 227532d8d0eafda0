#!/usr/bin/env bash
# Sets up, builds, and runs tilexform's main jobs on the shipped examples:
# inspect and layout, recover (plain Triton's layouts as Gluon constructors),
# verify (a Gluon anchor against its plain kernel), probe (occupancy from
# compile artifacts), survey (pipeline forms and port hazards in kernel sources).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh" "$here/build" -DTILEXFORM_TESTS=OFF
tx="$here/build/tools/tilexform/tilexform"
ex="$here/examples"
run() {
  echo
  echo "== tilexform $*"
  "$tx" "$@" || echo "(exit $?)"
}
run inspect "$ex/sm90_matmul_f16_128x128x64_w4_s3.ttgir"
run layout --type 'tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>'
run layout --format json --type '!ttg.memdesc<3x128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>'
for dump in "$ex"/gfx942_matmul_*.ttgir "$ex"/gfx950_attn_*.ttgir "$ex"/sm100_*.ttgir; do
  run recover "$dump"
done
run recover --out "$here/build/anchor_layouts.py" --force "$ex/sm90_matmul_f16_128x128x64_w4_s3.ttgir"
run verify "$ex/sm90_vadd_b1024_w4.ttgir" "$ex/sm90_gluon_vadd_faithful_b1024_w4.ttgir"
run verify "$ex/sm90_vadd_b1024_w4.ttgir" "$ex/sm90_gluon_vadd_narrow_b1024_w4.ttgir"
run probe "$ex/artifacts"
run survey "$ex/src"
