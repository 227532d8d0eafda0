#!/usr/bin/env python3
"""Runs `inspect --json` on every dump under a folder and summarises."""
import json
import pathlib
import subprocess
import sys

tool, root = sys.argv[1], pathlib.Path(sys.argv[2])
files = sorted(p for p in root.rglob("*") if p.suffix in (".ttgir", ".ttir"))
failed = differ = unknown = 0
for f in files:
    p = subprocess.run([tool, "inspect", "--json", str(f)], capture_output=True, text=True)
    if p.returncode != 0:
        failed += 1
        print("FAILED", f, p.stderr.strip())
        continue
    doc = json.loads(p.stdout)
    for layout in doc["layouts"]:
        if not layout["text_roundtrip"]:
            differ += 1
            print("DIFFERS", f, layout["name"])
    unknown += sum(u["count"] for u in doc["unknown_ops"])
print(f"{len(files)} files loaded, {failed} failed")
print(f"{differ} aliases differ from their definition")
print(f"{unknown} unknown ops")
