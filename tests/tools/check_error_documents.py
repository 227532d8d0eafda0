#!/usr/bin/env python3
"""check_error_documents.py TILEXFORM SCHEMA_DIR WRONG_DIR: runs every command
on wrong input and with a bad command line, with --format json and jsonl, and
checks the one JSON contract: stdout holds exactly one document, valid against
the command's schema, with verdict ERROR, the exit code the process exited
with, and one `errors[]` entry per line on stderr. Prints one line per
failure and a count; exits 1 on any."""
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from validate_json import validator  # noqa: E402

tool, schemas, wrong = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
py, empty = str(wrong / "kernel.py"), str(wrong / "empty.ttgir")
# command words, the schema, and the runs: (arguments, expected exit)
cases = {
    "inspect": [([py], 65), ([empty], 65), (["--bogus", py], 64)],
    "layout": [(["--attr", "#ttg.blocked<{sizePerThread = [1"], 64),
               (["--type", "tensor<8x8xf16, #ttg.blocked<{sizePerThread = [1]"], 65)],
    "recover": [([py], 65), (["/nonexistent.ttgir"], 65), (["--max-sites", "-1", py], 64)],
    "verify": [([py, empty], 65), ([py], 64)],
    "transcribe": [([py], 65), (["--style", "fancy", py], 64)],
    "lint": [([py], 65), (["--fail-on", "never", py], 64)],
    "probe": [([py], 65), (["--arch", "bogus", py], 64)],
    "survey": [(["/nonexistent-tree"], 65)],
    "audit": [([py], 65), (["--diff", py], 64)],
    "parity-gate": [(["--champion-ms", "1"], 64), (["--champion-samples", py, "--anchor-ms", "1"], 65)],
    "gate champion": [([py], 65)],
    "gate ab": [([py], 65), ([], 64)],
    "gate determinism": [([py], 65)],
}
failures, runs = [], 0
for command, runs_of in cases.items():
    check = validator(schemas / f"{command.split()[0]}.schema.json")
    for args, want in runs_of:
        for fmt in ("json", "jsonl"):
            argv = [tool, *command.split(), "--format", fmt, *args]
            r = subprocess.run(argv, capture_output=True, text=True)
            runs += 1
            where = " ".join(["tilexform", *command.split(), "--format", fmt, *args])
            if r.returncode != want:
                failures.append(f"{where}: exit {r.returncode}, expected {want}")
                continue
            lines = r.stdout.splitlines()
            if fmt == "jsonl" and len(lines) != 1:
                failures.append(f"{where}: {len(lines)} lines on stdout, expected one")
                continue
            try:
                doc = json.loads(r.stdout)
            except ValueError as e:
                failures.append(f"{where}: stdout is not one JSON document: {e}")
                continue
            errs = list(check.iter_errors(doc))
            if errs:
                failures.append(f"{where}: not valid against its schema: {errs[0].message}")
            stderr = [l for l in r.stderr.splitlines() if l.startswith("tilexform: ")]
            if (doc.get("verdict"), doc.get("exit_code"), doc.get("command")) != ("ERROR", want, command):
                failures.append(f"{where}: envelope says {doc.get('command')} {doc.get('verdict')} "
                                f"{doc.get('exit_code')}")
            elif len(doc["errors"]) != len(stderr):
                failures.append(f"{where}: {len(doc['errors'])} errors, {len(stderr)} lines on stderr")
            elif not all(e["message"] in l for e, l in zip(doc["errors"], stderr)):
                failures.append(f"{where}: errors[] differs from stderr")
for f in failures:
    print("FAIL", f)
print(f"{runs} runs, {len(cases)} commands, {len(failures)} failures")
sys.exit(1 if failures else 0)
