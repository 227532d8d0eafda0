#!/usr/bin/env bash
# Builds the libFuzzer targets in the strict build (clang-22, ASan/UBSan:
# scripts/setup.sh --strict) and runs each for
# SECONDS (default 60) on seeds from the repository: real dumps, the lit
# inputs, the oracle's layouts, artifacts, deep-nesting and special-value
# seeds, with fuzz/ttgir.dict. Crashes are saved in build-strict/crashes/.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(reader layout verify artifacts tree audit gate anchor survey_tree sarif)
# The strict build (scripts/setup.sh --strict), which scripts/test.sh --strict
# has already made in CI: only what the targets need is built here.
build="$here/build-strict"
TILEXFORM_BUILD_TARGETS="$(printf 'tilexform_fuzz_%s ' "${targets[@]}")" \
  "$here/scripts/setup.sh" "$build" --strict

seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"/{reader,layout,verify,artifacts,tree,audit,gate,anchor,survey_tree,sarif} "$build/crashes"
python3 - "$here" "$seeds" <<'PY'
import json, pathlib, sys
here, seeds = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
dumps = sorted(p for p in (here / "tests/corpus").rglob("*.ttgir"))
small = [p for p in dumps if p.stat().st_size < 40000]
for i, p in enumerate(small + sorted((here / "tests/lit").rglob("Inputs/**/*.ttgir"))
                      + sorted((here / "fuzz/seeds").glob("*"))):
    (seeds / "reader" / f"{i}.ttgir").write_bytes(p.read_bytes())
for i, line in enumerate((here / "tests/data/oracle_layouts.jsonl").read_text().splitlines()[::7]):
    rec = json.loads(line)
    text = rec.get("attr") or rec.get("type")
    if text:
        (seeds / "layout" / f"{i}").write_bytes(bytes([i % 256]) + text.encode())
pairs = [(a, b) for a in small for b in small if a.parent == b.parent and "gluon" in b.name][:40]
for i, (a, b) in enumerate(pairs):
    (seeds / "verify" / f"{i}").write_bytes(a.read_bytes() + b"\n// ===\n" + b.read_bytes())
kinds = {".amdgcn": 0, ".hsaco": 1, ".cubin": 2, ".ptx": 3, ".sass": 4, ".json": 5, ".py": 6}
arts = sorted(p for p in (here / "tests/artifacts").rglob("*") if p.suffix in kinds and p.stat().st_size < 60000)
for i, p in enumerate(arts[::3] + sorted((here / "tests/survey").glob("*.py"))):
    (seeds / "artifacts" / f"{i}").write_bytes(bytes([kinds[p.suffix]]) + p.read_bytes())
names = {".json": 0, ".cubin": 1, ".hsaco": 2, ".amdgcn": 3, ".ptx": 4, ".sass": 5}
for i, d in enumerate(sorted({p.parent for p in arts})[:30]):
    blob = b""
    for p in sorted(d.iterdir()):
        if p.suffix in names and p.stat().st_size < 20000:
            blob += bytes([names[p.suffix]]) + p.read_bytes() + b"\xff"
    blob += bytes([11]) + (here / "tests/survey/forms.py").read_bytes() + b"\xff" + bytes([14]) + b"*.pyc\n!m.py\n"
    (seeds / "tree" / f"{i}").write_bytes(blob)
listings = {".amdgcn": 0, ".s": 0, ".sass": 1, ".ptx": 2, ".txt": 3}
lits = sorted(p for p in (here / "tests").rglob("*") if p.suffix in listings and p.is_file()
              and p.stat().st_size < 120000 and ("audit" in p.parts or "parity-gate" in p.parts
                                                 or p.suffix == ".amdgcn"))
for i, p in enumerate(lits[::2]):
    (seeds / "audit" / f"{i}").write_bytes(bytes([listings[p.suffix]]) + p.read_bytes())
# The gates' JSON inputs: champion bundles (0) and config sidecars (1),
# Triton's metadata (2), samples files for gate ab (3) and parity-gate (4, 5).
gate_inputs = [(0, p) for p in sorted((here / "tests/lit/gate/Inputs/champion").glob("*.json"))
               if "config" not in p.name and p.stem != "matmul"]
gate_inputs += [(1, here / "tests/lit/gate/Inputs/champion/matmul.config.json")]
gate_inputs += [(2, p) for p in arts if p.suffix == ".json"][:20]
gate_inputs += [(k, here / "tests/lit/gate/Inputs/timings_sm90_samples.json") for k in (3, 5)]
for i, (k, p) in enumerate(gate_inputs):
    (seeds / "gate" / f"{i}").write_bytes(bytes([k]) + p.read_bytes())
(seeds / "gate" / "list").write_bytes(bytes([4]) + b"[0.2, 0.21, 0.205]")
(seeds / "gate" / "deep").write_bytes(bytes([3]) + b'{"samples_ms": {"a": ' + b"[" * 300 + b"]" * 300 + b"}}")
# The anchor target: a dump whole (a last byte of 0), or text for each of
# the template's slots (the injections of the output-safety tests).
for i, p in enumerate(small[::4]):
    (seeds / "anchor" / f"dump{i}").write_bytes(p.read_bytes() + b"\x00")
for i, text in enumerate([b"vadd\r__import__('os').system('id')\r#", b"cuda:90\x85x = 1",
                          b"a\xe2\x80\xa8b", b'lib"); print(1); ("', b"\\22\\09\x00", b"\xff\xfe",
                          b"@LIB@@OP@@FILE@"]):
    (seeds / "anchor" / f"slots{i}").write_bytes((text + b"\x00") * 9 + bytes([1 + i % 7]))
# The survey_tree target: programs that build a tree (fuzz/SurveyTreeFuzzer.cpp):
# op 0 a folder, 1 a .py file, 4 a link inside, 6 a link out, 9 a chain.
def py(dir_index, name, text):
    text = text[:4095]
    return bytes([1, dir_index, len(name) - 1]) + name + bytes([len(text) // 16, len(text) % 16]) + text
for i, p in enumerate(sorted((here / "tests/survey").glob("*.py"))[:8]):
    (seeds / "survey_tree" / f"{i}").write_bytes(
        bytes([0, 0, 2]) + b"pkg" + py(1, b"k", p.read_bytes()) + bytes([4, 0, 0, 1, 0, 1])
        + bytes([6, i % 6, 0, 0, 0, 1]) + bytes([9, 0, 1, 40]))
# The sarif target: the lint inputs, each under a first line that names
# its file with the bytes a URI must escape.
lint_dumps = sorted((here / "tests/lit/lint/Inputs").rglob("*.ttgir"))
for i, p in enumerate(lint_dumps[:40]):
    name = [b"a b#c?d%e.ttgir", b"\xff\xfe\xe2\x80\xa8\"x\".ttgir", b"k\\..\\:1\t.ttgir",
            b"caf\xc3\xa9 <k>.ttgir"][i % 4]
    (seeds / "sarif" / f"{i}").write_bytes(b"// " + name + b"\n" + p.read_bytes())
PY
status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus-$t"
  mkdir -p "$corpus"
  echo "fuzz: $t for ${seconds}s" >&2
  # UBSan stops at the first report; the leak checker is off (MLIR's
  # uniqued storage lives for the process by design).
  if ! ASAN_OPTIONS=detect_leaks=0:handle_segv=1 UBSAN_OPTIONS=halt_on_error=1 \
      "$build/fuzz/tilexform_fuzz_$t" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
      -rss_limit_mb=3072 -dict="$here/fuzz/ttgir.dict" -artifact_prefix="$build/crashes/$t-" \
      -print_final_stats=1 "$corpus" "$seeds/$t" 2> "$build/fuzz-$t.log"; then
    echo "fuzz: $t FAILED (see $build/fuzz-$t.log and $build/crashes/)" >&2
    tail -40 "$build/fuzz-$t.log" >&2
    status=1
  fi
  grep -E "stat::number_of_executed_units|cov:" "$build/fuzz-$t.log" | tail -2 >&2 || true
done
exit $status
