#!/usr/bin/env python3
"""check_anchors.py TILEXFORM CORPUS FIXTURES TMP: for every anchor fixture
FIXTURES/<target>/<case>.py, transcribes CORPUS/<target>/<case>.ttgir twice
and compares both with the fixture byte for byte, compiles the module as
Python, and verifies plain's dump against the anchor's own TTGIR
(FIXTURES/<target>/<case>.anchor.ttgir). One line per anchor."""
import pathlib
import py_compile
import subprocess
import sys

tool, corpus, fixtures, tmp = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]), pathlib.Path(sys.argv[4])
count, failed = 0, 0
for target in ("sm90", "sm100", "gfx942", "gfx950", "gfx1100", "gfx1201"):
    for fixture in sorted((fixtures / target).glob("*.py")):
        case = fixture.stem
        count += 1
        problems = []
        for run in (1, 2):
            out = tmp / f"{target}-{case}-{run}.py"
            r = subprocess.run([tool, "transcribe", "--style", "faithful", str(corpus / target / f"{case}.ttgir"), "--out", str(out)],
                               capture_output=True, text=True)
            if r.returncode != 0:
                problems.append(f"transcribe exit {r.returncode}: {r.stdout.strip()} {r.stderr.strip()}")
            elif out.read_bytes() != fixture.read_bytes():
                problems.append(f"run {run} differs from the fixture")
        try:
            py_compile.compile(str(fixture), cfile=str(tmp / f"{target}-{case}.pyc"), doraise=True)
        except py_compile.PyCompileError as e:
            problems.append(f"py_compile: {e}")
        anchor = fixtures / target / f"{case}.anchor.ttgir"
        v = subprocess.run([tool, "verify", str(corpus / target / f"{case}.ttgir"), str(anchor)],
                           capture_output=True, text=True)
        verdict = next((l.split()[-1] for l in v.stdout.splitlines() if l.startswith("verdict:")), "?")
        if verdict not in ("PASS",):
            problems.append(f"verify {verdict}")
        if problems:
            failed += 1
            print(f"FAIL {target} {case}: {'; '.join(problems)}")
        else:
            print(f"{target} {case}: same bytes, compiles, verify PASS")
print(f"{count} anchors")
sys.exit(1 if failed else 0)
