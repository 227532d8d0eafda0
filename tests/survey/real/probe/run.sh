#!/usr/bin/env bash
# Compiles the ten kernels of tests/survey/real_loops.py for sm90 and gfx942 at
# launch num_stages 1 and 3 (compile only: no launch, no tensor) and reads
# every loop the pipeliner left in the TTGIR (loops.py beside this script).
#
#   OUT=DIR bash tests/survey/real/probe/run.sh      (from the repository root)
#
# Needs Python 3 with Triton 3.6; no network, no tilexform. Writes into $OUT:
#   loops.jsonl    one line per compile and one per loop (loops.py says which)
#   ttgir.tar.gz   ttgir/<kernel>[.<SWITCH>-<value>].<target>.ns<N>.ttgir
#   probe.log      versions, the progress of each compile, and any error
# Then, where tilexform is built: python3 tests/survey/real/probe/check.py DIR
# BUDGET (default 150 s) bounds the compiles; JOBS (default 8) runs them in
# parallel processes.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:?set OUT to an empty folder}
python=${PYTHON:-python3}
budget=${BUDGET:-150}
jobs=${JOBS:-8}
mkdir -p "$out"
log="$out/probe.log"

# The dumps and a compilation cache of this run only, outside $OUT.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TRITON_CACHE_DIR=$work/cache
mkdir -p "$work/ttgir"

{
  echo "# survey loop probe, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  "$python" -c 'import sys, triton; print("python", sys.version.split()[0]); print("triton", triton.__version__)' 2>&1
  "$python" -c 'import torch; print("torch", torch.__version__)' 2>&1 | tail -1
  nvidia-smi -L 2>&1 | head -2
} > "$log" 2>&1

start=$(date +%s)
timeout -k 10 "$budget" "$python" "$here/loops.py" "$out/loops.jsonl" "$work/ttgir" --jobs "$jobs" \
  >> "$log" 2>&1
rc=$?
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "loops.py stopped by the budget of ${budget} s: loops.jsonl holds what finished" >> "$log"
elif [ "$rc" -ne 0 ]; then
  echo "loops.py exited $rc" >> "$log"
fi
echo "compiles took $(( $(date +%s) - start )) s; $(ls "$work/ttgir" | wc -l) TTGIR dumps" >> "$log"

tar -czf "$out/ttgir.tar.gz" -C "$work" ttgir
if [ -f "$out/loops.jsonl" ]; then
  "$python" - "$out/loops.jsonl" >> "$log" 2>&1 <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
comp = [r for r in recs if r.get("record") == "compile"]
print(f"{len(comp)} compiles, {sum('error' in r for r in comp)} with an error, "
      f"{sum(r.get('record') == 'loop' for r in recs)} loops")
EOF
fi
exit "$rc"
