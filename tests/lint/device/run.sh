#!/usr/bin/env bash
# Runs every lint device case (nan_rows.py, proxy_fence.py, mbarrier_phase.py,
# beside this script) on the GPU, each in its own process under a timeout,
# then lints the TTGIR each one compiled to.
#
#   OUT=DIR bash tests/lint/device/run.sh      (from the repository root)
#
# Writes into $OUT:
#   results.jsonl  one line per case (harness.py: rule, case, variant,
#                  outcome, launches, bad_launches, max_error, ...)
#   ttgir/         <rule>_<case>.ttgir, the compiled kernel's TTGIR
#   lint.jsonl     `tilexform lint --format jsonl` of each dump, one line each
#   lint.txt       the same findings as text
#   summary.md     the table of docs/lint.md "Checked on the GPU"
#   logs/          each case's stderr
# TILEXFORM names the binary (default build-libs/tilexform, else
# build/tools/tilexform/tilexform); without one the lint part is skipped.
# CASE_TIMEOUT (default 40 s) bounds one case; BUDGET (default 180 s) bounds
# the whole run: cases past it are recorded as skipped.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:?set OUT to an empty folder}
python=${PYTHON:-python3}
case_timeout=${CASE_TIMEOUT:-40}
budget=${BUDGET:-180}
mkdir -p "$out/ttgir" "$out/logs"
: > "$out/results.jsonl"

# A compilation cache of this run only, outside $OUT.
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export TRITON_CACHE_DIR=$cache

start=$(date +%s)
record() { # module case outcome detail
  printf '{"module": "%s", "case": "%s", "outcome": "%s", "detail": "%s"}\n' "$1" "$2" "$3" "$4" \
    >> "$out/results.jsonl"
}

for mod in nan_rows proxy_fence mbarrier_phase; do
  if ! cases=$("$python" "$here/$mod.py" --list 2> "$out/logs/$mod.list.log"); then
    record "$mod" "*" "no result" "$mod.py --list failed: $(tail -1 "$out/logs/$mod.list.log" | tr -d '"\\')"
    echo "$mod: --list failed" >&2
    continue
  fi
  for c in $cases; do
    if [ $(( $(date +%s) - start )) -ge "$budget" ]; then
      record "$mod" "$c" "skipped" "the run's budget of ${budget} s was spent"
      echo "$mod $c: skipped (budget)" >&2
      continue
    fi
    log="$out/logs/${mod}_${c}"
    timeout -k 5 "$case_timeout" "$python" "$here/$mod.py" "$c" "$out/ttgir" > "$log.out" 2> "$log.err"
    rc=$?
    line=$(grep '^{' "$log.out" | tail -1)
    if [ -n "$line" ]; then
      echo "$line" >> "$out/results.jsonl"
    elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      record "$mod" "$c" "hang-timeout" "killed by timeout after ${case_timeout} s (exit $rc)"
    else
      record "$mod" "$c" "no result" "exit $rc: $(tail -1 "$log.err" | tr -d '"\\')"
    fi
    echo "$mod $c: ${line:-exit $rc}" >&2
  done
done

tx=${TILEXFORM:-}
if [ -z "$tx" ]; then
  for t in build-libs/tilexform build/tools/tilexform/tilexform; do
    if [ -x "$t" ]; then tx=$t; break; fi
  done
fi
shopt -s nullglob
dumps=("$out"/ttgir/*.ttgir)
if [ -n "$tx" ] && [ -x "$tx" ] && [ ${#dumps[@]} -gt 0 ]; then
  : > "$out/lint.jsonl"
  for f in "${dumps[@]}"; do
    "$tx" lint --format jsonl "$f" >> "$out/lint.jsonl" 2>> "$out/logs/lint.err"
  done
  "$tx" lint "${dumps[@]}" > "$out/lint.txt" 2>&1
else
  echo "lint: no tilexform binary (TILEXFORM, build-libs/tilexform) or no dumps; skipped" >&2
fi

"$python" "$here/summarize.py" "$out" > "$out/summary.md" 2> "$out/logs/summary.err" \
  || echo "summary failed: $(tail -1 "$out/logs/summary.err")" >&2
cat "$out/summary.md" >&2
echo "lint device run: $(( $(date +%s) - start )) s" >&2
