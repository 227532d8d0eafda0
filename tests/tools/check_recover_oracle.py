#!/usr/bin/env python3
"""check_recover_oracle.py TOOL CORPUS ORACLE: for every oracle record taken
from a corpus dump, `recover --json` of that dump must list the record's layout
(same canonical attribute) with a constructor equal to Triton's answer, as a
value: same class, same arguments, Triton 3.6's printed defaults omitted."""
import ast
import collections
import json
import pathlib
import re
import subprocess
import sys

DEFAULTS = {"cga_layout": [], "element_bitwidth": 32, "rank": 2, "transposed": False,
            "fp4_padded": False, "alignment": 16, "instr_shape": None}


def value(node):
    if isinstance(node, ast.Call):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
        args = {}
        for kw in node.keywords:
            v = value(kw.value)
            if v is None or DEFAULTS.get(kw.arg, object()) == v:
                continue
            if kw.arg == "tiles_per_warp" and all(x == 1 for x in v):
                continue
            if name == "AMDWMMALayout" and kw.arg == "instr_shape" and v == [16, 16, 16]:
                continue
            args[kw.arg] = v
        return (name, tuple(sorted((k, repr(v)) for k, v in args.items())))
    return ast.literal_eval(node)


def ctor(text):
    return value(ast.parse(text.strip(), mode="eval").body)


tool, corpus, oracle = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
by_file = collections.defaultdict(list)
for line in open(oracle):
    r = json.loads(line)
    if r.get("file") and r.get("gluon") and r.get("attr"):
        target, case = r["file"].split("/")[0], r["file"].split("/")[1]
        by_file[corpus / target / (case + ".ttgir")].append(r)
checked = bad = 0
canon = {}
for path, records in sorted(by_file.items()):
    p = subprocess.run([tool, "recover", "--json", "--allow-unrecoverable", "--max-sites", "1",
                        str(path)], capture_output=True, text=True)
    doc = json.loads(p.stdout)
    layouts = {l["attr"]: l for l in doc["layouts"]}
    for r in records:
        if r["attr"] not in canon:
            q = subprocess.run([tool, "layout", "--json", "--type", r["attr"]], capture_output=True,
                               text=True)
            canon[r["attr"]] = json.loads(q.stdout)["attr"]
        checked += 1
        l = layouts.get(canon[r["attr"]])
        if l is None or l["gluon"] is None or ctor(l["gluon"]) != ctor(r["gluon"]):
            bad += 1
            print("DIFFERS", path, r["attr"], "\n  want", r["gluon"], "\n  got ", l and l["gluon"])
print(f"{checked} oracle records from {len(by_file)} dumps: {checked - bad} agree, {bad} differ")
sys.exit(1 if bad else 0)
