#!/usr/bin/env bash
# Runs the capture harness over the real-library drivers and our fixtures on
# one GPU machine, the way tests/transcribe/real/device-results.json was made:
# every run also compiles each kernel and its anchor for gfx942 and gfx950
# (compile-only), runs share the GPU but time one at a time (--timing-lock),
# and a library's checks can be split over several runs (--shard).
#
#   tests/transcribe/real/run-libraries.sh OUT LIBS [SET] [SECONDS]
#
# LIBS holds one folder per library to put on PYTHONPATH: fla_src (a
# flash-linear-attention checkout's `fla` package), liger_src (Liger-Kernel's
# `src`), mamba_src (mamba's `mamba_ssm` package). SET is `small` (fixtures,
# Liger-Kernel, mamba), `fla` (flash-linear-attention in FLA_SHARDS runs) or
# `all` (default). SECONDS bounds each run (default 540): what it checked by
# then is in its round log. TILEXFORM names the binary (default: the build's);
# SKIP_CHECKED a round log (or results file) whose kernels every run leaves
# out, so that a second run checks what the first had no time for;
# RECHECK_HELPERS=1 still checks, on the GPU only, those of them whose readable
# anchor calls helpers.
# Results: OUT/<run>/round-log.jsonl and summary.json; OUT/logs/<run>.log.
set -uo pipefail
here=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:?OUT}
libs=$(cd "${2:?LIBS}" && pwd)
set_=${3:-all}
limit=${4:-540}
shards=${FLA_SHARDS:-10}
rounds=${ROUNDS:-3}
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
lock="$out/gpu.lock"
harness=("$here/scripts/transcribe-check.py" --rounds "$rounds" --first-config
  --compile-only gfx942 --compile-only gfx950 --timing-lock "$lock" --readable)
[ -n "${SKIP_CHECKED:-}" ] && harness+=(--skip-checked "$SKIP_CHECKED")
[ -n "${RECHECK_HELPERS:-}" ] && harness+=(--recheck-helpers)
[ -n "${TILEXFORM:-}" ] && harness+=(--tilexform "$TILEXFORM")

pids=()
start() { # NAME PYTHONPATH ENV... -- HARNESS-ARGS...
  local name=$1 path=$2
  shift 2
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  (cd "$here" && env PYTHONUNBUFFERED=1 PYTHONPATH="$path" "${envs[@]}" \
    timeout -k 10 "$limit" python3 "${harness[@]}" --out "$out/$name" "$@" \
    >"$out/logs/$name.log" 2>&1) &
  pids+=($!)
}

drivers="$here/tests/transcribe/real/drivers"
if [ "$set_" = small ] || [ "$set_" = all ]; then
  start fixtures "" -- --label fixtures --check-seconds $((limit - 120)) -- \
    "$here/tests/transcribe/fixtures/kernels.py"
  # Liger's rotary embedding for Qwen2-VL in a process of its own: a device
  # fault there would end the CUDA context for every kernel after it.
  start liger "$libs/liger_src" DRIVER_SKIP=qwen2vl_mrope -- --label Liger-Kernel \
    --check-seconds $((limit - 200)) -- "$drivers/liger_ops.py"
  start liger-mrope "$libs/liger_src" DRIVER_OPS=qwen2vl_mrope -- --label Liger-Kernel \
    -- "$drivers/liger_ops.py"
  start mamba "$libs/mamba_src" -- --label mamba --check-seconds $((limit - 200)) -- \
    "$drivers/mamba_ops.py"
fi
if [ "$set_" = fla ] || [ "$set_" = all ]; then
  # The fused recurrent kernel reads past one of its tensors (plain's own
  # reruns differed, and its launch in the program once faulted, depending on
  # what lay after the tensor): in a process of its own, so that a fault
  # there ends no other check.
  for ((i = 0; i < shards; i++)); do
    start "fla-$i" "$libs/fla_src" DRIVER_SKIP=fused_recurrent_gated_delta_rule -- \
      --label flash-linear-attention --shard "$i/$shards" --program-seconds 240 \
      --check-seconds $((limit - 300)) -- "$drivers/fla_ops.py"
  done
  start fla-recurrent "$libs/fla_src" DRIVER_OPS=fused_recurrent_gated_delta_rule -- \
    --label flash-linear-attention --check-seconds $((limit - 200)) -- "$drivers/fla_ops.py"
fi
for p in "${pids[@]}"; do wait "$p"; done
for f in "$out"/*/summary.json; do
  [ -f "$f" ] && echo "== $f" && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps({k: d[k] for k in d if k not in ("program",)}))' "$f"
done
exit 0
