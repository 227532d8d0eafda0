#!/usr/bin/env python3
"""check_anchor_module.py TOOL MODULE.py RECOVER.json: every `NAME =
gl.constexpr(EXPR)` in the module, parsed back by `tilexform layout --gluon`,
gives the attribute recover reported for it. A parent named by its constant
(`parent=A_LOAD_LAYOUT`) must be defined above and is expanded first."""
import json
import re
import subprocess
import sys

tool, module, report = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
by_gluon = {l["gluon"]: l for l in report["layouts"] if l["gluon"]}
ok = bad = 0
defined = {}
for line in open(module):
    m = re.match(r"^([A-Z0-9_]+) = gl\.constexpr\((.*)\)$", line.strip())
    if not m:
        continue
    name, expr = m.group(1), m.group(2)
    for ref in re.findall(r"parent=([A-Z][A-Z0-9_]*)", expr):
        if ref not in defined:
            print("UNDEFINED", ref, "in", name)
            sys.exit(1)
        expr = expr.replace(f"parent={ref}", f"parent={defined[ref]}", 1)
    defined[name] = expr
    layout = by_gluon[expr]
    shape = layout["sites"][0]["shape"] if layout["sites"] else [64, 64]
    if layout["kind"] in ("swizzled_shared", "nvmma_shared", "shared_linear", "padded_shared"):
        shape = shape[-2:] if len(shape) > 2 else shape
    p = subprocess.run([tool, "layout", "--json", "--gluon", expr, "--shape",
                        "x".join(map(str, shape))], capture_output=True, text=True)
    doc = json.loads(p.stdout)
    if doc["attr"] == layout["attr"] and doc["roundtrip"] == "EXACT":
        ok += 1
    else:
        bad += 1
        print("DIFFERS", expr, doc["attr"], layout["attr"])
print(f"{ok} constants parse back to their layouts, {bad} differ")
sys.exit(1 if bad else 0)
