#!/usr/bin/env python3
"""check_transcribe_compiles.py TILEXFORM DIR...: transcribes every .ttgir
under the directories (corpus dumps, lit inputs, fuzz regressions) with and
without --allow-gaps, to stdout and to --out, and compiles every module
written with Python's own compile(), and runs check_module_safety.py's
byte and structure checks on it (only what tilexform writes, every byte of
the input as text). A module that does not compile or is unsafe, or a run
that crashes (a signal or exit 70), is a failure; a refusal (1, 65) is not.
Prints one line per failure and a count."""
import concurrent.futures
import os
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_module_safety import structural_problem  # noqa: E402

tool = sys.argv[1]
dumps = sorted({p for d in sys.argv[2:] for p in pathlib.Path(d).rglob("*.ttgir")})
tmp = pathlib.Path(tempfile.mkdtemp(prefix="transcribe-compiles-"))


def check(job):
    index, dump, gaps, style = job
    flags = (["--allow-gaps"] if gaps else []) + ["--style", style]
    where = f"{dump}{' --allow-gaps' if gaps else ''} --style {style}"
    problems, modules = [], 0
    out = tmp / f"{index}-{int(gaps)}-{style}.py"
    runs = [([tool, "transcribe", *flags, str(dump)], False)]
    if not sanitized or index % 8 == 0:
        runs.append(([tool, "transcribe", *flags, str(dump), "--out", str(out), "--force"], True))
    for args, to_file in runs:
        r = subprocess.run(args, capture_output=True)
        if r.returncode < 0 or r.returncode == 70:
            problems.append(f"{where}: exit {r.returncode}: {r.stderr.decode(errors='replace').strip()}")
            continue
        if r.returncode != 0:
            continue
        text = out.read_bytes() if to_file else r.stdout
        if not text.strip():
            continue
        modules += 1
        try:
            compile(text, where, "exec")
        except SyntaxError as e:
            problems.append(f"{where}{' --out' if to_file else ''}: line {e.lineno}: {e.msg}")
            continue
        except ValueError as e:  # a NUL byte, before Python 3.12
            problems.append(f"{where}{' --out' if to_file else ''}: {e}")
            continue
        unsafe = structural_problem(text, where)
        if unsafe:
            problems.append(f"{where}{' --out' if to_file else ''}: unsafe: {unsafe}")
    return problems, modules


# Under the sanitizers (TILEXFORM_SANITIZED=1, set by the lit config) every
# run costs half a second of start-up: each dump is transcribed with
# --allow-gaps only (it walks the whole module; without it the run stops at
# the first gap), in both styles, and written to --out for every eighth dump.
# The Release run of the same suite checks all eight variants of every dump.
sanitized = os.environ.get("TILEXFORM_SANITIZED") == "1"
jobs = [(i, d, g, s) for i, d in enumerate(dumps) for g in ((True,) if sanitized else (False, True))
        for s in ("faithful", "readable")]
failures, modules = [], 0
with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
    for problems, n in pool.map(check, jobs):
        failures += problems
        modules += n
for f in failures:
    print(f"FAIL {f}")
print(f"{len(dumps)} dumps, {modules} modules compiled, {len(failures)} failures")
sys.exit(1 if failures or modules == 0 else 0)
