#!/usr/bin/env python3
"""check_audit.py TILEXFORM FILE...: audits each listing and checks what the
audit promises: a hot loop in every matmul and attention kernel, and class
and opcode histograms that add up to the instruction count of the hot loop
and of the whole kernel. Prints one line per file; exits 1 on any failure."""
import json
import subprocess
import sys

tool, files = sys.argv[1], sys.argv[2:]
failed = 0
for f in files:
    out = subprocess.run([tool, "audit", "--json", f], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"FAIL {f}: exit {out.returncode}: {out.stderr.strip()}")
        failed += 1
        continue
    d = json.loads(out.stdout)
    problems = []
    hot = d["hot_loop"]
    name = f.rsplit("/", 1)[-1]
    if ("matmul" in name or "attn" in name) and hot is None:
        problems.append("no hot loop")
    for part in ("hot_loop", "whole"):
        c = d[part]
        if c is None:
            continue
        n = c["instructions"]
        if sum(c["classes"].values()) != n or sum(c["opcodes"].values()) != n:
            problems.append(f"{part}: histograms do not add up to {n}")
        if c["end_line"] < c["start_line"]:
            problems.append(f"{part}: lines run backwards")
    if hot is not None and hot["matrix"] == 0 and ("matmul" in name or "attn" in name):
        problems.append("hot loop without matrix instructions")
    if problems:
        print(f"FAIL {f}: {'; '.join(problems)}")
        failed += 1
    else:
        print(f"ok {name}: {d['kernel']} hot {hot['label'] if hot else None} "
              f"{hot['instructions'] if hot else d['whole']['instructions']} instructions")
sys.exit(1 if failed else 0)
