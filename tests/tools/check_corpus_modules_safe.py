#!/usr/bin/env python3
"""check_corpus_modules_safe.py TILEXFORM ROOT...: writes every module
tilexform can write for every .ttgir under the roots -- `transcribe
--allow-gaps` in both styles and `recover --allow-unrecoverable --out` --
and runs check_module_safety.py (beside this file) on each, so that the
checker's rules hold for everything the corpus produces and its attack tests
mean something. A module the checker calls unsafe, or a run that crashes
(a signal or exit 70), is a failure; a refusal (1, 65) is not. Prints one
line per failure and a count.

Under the sanitizers (TILEXFORM_SANITIZED=1, set by the lit config) every
run costs half a second of start-up: every tenth dump is taken. The Release
run of the same suite takes them all."""
import concurrent.futures
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
CHECKER = HERE / "check_module_safety.py"

RUNS = {
    "faithful": lambda tool, dump, out: [tool, "transcribe", "--allow-gaps", "--style", "faithful",
                                         str(dump), "--out", str(out)],
    "readable": lambda tool, dump, out: [tool, "transcribe", "--allow-gaps", "--style", "readable",
                                         str(dump), "--out", str(out)],
    "recover": lambda tool, dump, out: [tool, "recover", "--allow-unrecoverable", str(dump), "--out",
                                        str(out)],
}


def check(job):
    tool, tmp, index, dump, kind = job
    out = tmp / f"{index}-{kind}.py"
    where = f"{dump} ({kind})"
    r = subprocess.run(RUNS[kind](tool, dump, out), capture_output=True)
    if r.returncode < 0 or r.returncode == 70:
        return f"{where}: exit {r.returncode}: {r.stderr.decode(errors='replace').strip()}", False
    if r.returncode != 0 or not out.exists():
        return None, False
    c = subprocess.run([sys.executable, str(CHECKER), str(out)], capture_output=True, text=True)
    if c.returncode != 0:
        line = (c.stdout.strip() or c.stderr.strip()).splitlines()
        return f"{where}: {line[-1] if line else f'checker exit {c.returncode}'}", True
    return None, True


def main(argv):
    if len(argv) < 2:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    tool = argv[0]
    dumps = sorted({p for d in argv[1:] for p in pathlib.Path(d).rglob("*.ttgir")})
    if os.environ.get("TILEXFORM_SANITIZED") == "1":
        dumps = dumps[::10]
    failures, modules = [], 0
    with tempfile.TemporaryDirectory(prefix="corpus-modules-safe-") as tmp:
        jobs = [(tool, pathlib.Path(tmp), i, d, k) for i, d in enumerate(dumps) for k in RUNS]
        workers = max(1, min(4, os.cpu_count() or 1))
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            for problem, written in pool.map(check, jobs):
                modules += written
                if problem:
                    failures.append(problem)
    for f in failures:
        print(f"FAIL {f}")
    print(f"{len(dumps)} dumps, {modules} modules checked, {len(failures)} unsafe")
    return 1 if failures or modules == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
