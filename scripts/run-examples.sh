#!/usr/bin/env bash
# Sets up, builds, and runs tilexform's main jobs on the shipped examples:
# inspect and layout, recover (plain Triton's layouts as Gluon constructors),
# verify (a Gluon anchor against its plain kernel), probe (occupancy from
# compile artifacts), survey (pipeline forms and port hazards in kernel sources),
# gate (champion bundle, determinism, A/B timing).
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
# A command whose "no" is the point of the example: say so.
run_no() {
  local why=$1
  shift
  echo
  echo "== tilexform $*"
  local code=0
  "$tx" "$@" || code=$?
  echo "(exit $code, as intended: $why)"
}
run inspect "$ex/sm90_matmul_f16_128x128x64_w4_s3.ttgir"
run layout --type 'tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>'
run layout --format json --type '!ttg.memdesc<3x128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>'
# gfx942: amd_rotating_shared has no Gluon class; recover writes it as its
# own linear layout at its buffer shape.
run recover "$ex"/gfx942_matmul_f16_128x128x64_w4_s2.ttgir
for dump in "$ex"/gfx950_attn_*.ttgir "$ex"/sm100_*.ttgir; do
  run recover "$dump"
done
run recover --out "$here/build/anchor_layouts.py" --force "$ex/sm90_matmul_f16_128x128x64_w4_s3.ttgir"
run verify "$ex/sm90_vadd_b1024_w4.ttgir" "$ex/sm90_gluon_vadd_faithful_b1024_w4.ttgir"
run_no "the narrow anchor does not carry plain's layouts" \
  verify "$ex/sm90_vadd_b1024_w4.ttgir" "$ex/sm90_gluon_vadd_narrow_b1024_w4.ttgir"
run probe "$ex/artifacts"
run survey "$ex/src"
run transcribe --out "$here/build/matmul_anchor.py" --force "$ex/sm90_matmul_f16_128x128x64_w4_s3.ttgir"
run transcribe --out "$here/build/gfx942_matmul_anchor.py" --force \
  "$ex/gfx942_matmul_f16_128x128x64_w4_s2.ttgir"
run audit --max-stream 120 "$ex/parity/gfx942_matmul_s2/matmul_f16_128x128x64_w4_s2.amdgcn"
run audit --diff "$ex/parity/gfx942_matmul_s1/matmul_f16_128x128x64_w4_s1.amdgcn" \
  "$ex/parity/gfx942_matmul_s2/matmul_f16_128x128x64_w4_s2.amdgcn"
run_no "an unpipelined anchor of a num_stages=2 champion does not clear" \
  parity-gate --champion-ms 1.0 --anchor-ms 1.4 \
  --champion "$ex/parity/gfx942_matmul_s2" --anchor "$ex/parity/gfx942_matmul_s1"
run parity-gate --champion-samples "$ex/gates/timings_sm90_samples.json:matmul_f16_128x128x64_w4_s3" \
  --anchor-samples "$ex/gates/timings_sm90_samples.json:matmul_f16_128x128x64_w4_s3#control"
run gate champion "$ex/gates/champion/bundle.json"
run gate ab "$ex/gates/timings_sm90_samples.json" \
  --arms matmul_f16_128x128x64_w4_s1,matmul_f16_128x128x64_w4_s3 --permute
run_no "two anchors inside the run-to-run spread" \
  gate ab "$ex/gates/timings_sm90_samples.json" --arms gluon_vadd_faithful_b1024_w4,gluon_vadd_narrow_b1024_w4
run_no "split-K fp32 atomics are not deterministic" \
  gate determinism "$ex/gates/atomic" --dtype float32 --shape 64
