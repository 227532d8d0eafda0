#!/usr/bin/env python3
"""lint_corpus.py TILEXFORM CORPUS: lints every .ttgir under CORPUS one by one
and says how each ended: a dump that crashes the linter, exits other than 0
or 1, or writes a document that does not parse or disagrees with its exit
code is named. Prints the dumps read and the findings by severity and rule."""
import collections
import json
import pathlib
import subprocess
import sys

tool, corpus = sys.argv[1], pathlib.Path(sys.argv[2])
dumps = sorted(corpus.rglob("*.ttgir"))
bad = []
severity = collections.Counter()
rules = collections.Counter()
for d in dumps:
    p = subprocess.run([tool, "lint", "--format", "json", str(d)], capture_output=True, timeout=60)
    if p.returncode not in (0, 1):
        bad.append(f"{d.relative_to(corpus)}: exit {p.returncode}: {p.stderr.decode(errors='replace')[:200]}")
        continue
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        bad.append(f"{d.relative_to(corpus)}: output is not JSON ({e})")
        continue
    if doc["exit_code"] != p.returncode or doc["verdict"] not in ("CLEAN", "FINDINGS"):
        bad.append(f"{d.relative_to(corpus)}: exit {p.returncode}, document says {doc['verdict']} {doc['exit_code']}")
    for f in doc["findings"]:
        severity[f["severity"]] += 1
        rules[f["rule"]] += 1
for line in bad:
    print("BAD", line)
print("dumps:", len(dumps))
print("failed:", len(bad))
print("errors:", severity["error"])
print("warnings:", severity["warning"])
for rule, n in sorted(rules.items()):
    print(f"rule {rule}: {n}")
