#!/usr/bin/env python3
"""How long is a transcribed anchor beside the kernel it came from?

usage: scripts/anchor-size.py TILEXFORM CORPUS [--style readable|faithful] [--json]

For every dump CORPUS/<target>/<case>/<case>.ttgir whose kernel is a
@triton.jit function of CORPUS/src/*.py, transcribes it and counts lines
that are neither blank nor comments:
  - the source: the kernel's function (its `def` to its last line) and the
    @jit helpers of the same files that the dump's call sites name;
  - the anchor: its @gluon.jit functions (the kernel and its combine
    helpers); the imports, layout constants, NUM_WARPS and the launch
    helper are left out, as the source has none of them in its function.
Prints one row per dump, then the median and the maximum of anchor/source.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys


def code_lines(lines):
    return [l for l in lines if l.strip() and not l.strip().startswith("#")]


def functions(path):
    """name -> (first line, last line) of every top-level @...jit function (1-based)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, i = {}, 0
    while i < len(lines):
        if re.match(r"@(triton|gluon)\.jit", lines[i]):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("def "):
                j += 1
            m = re.match(r"def (\w+)", lines[j]) if j < len(lines) else None
            k = j + 1
            while k < len(lines) and (not lines[k].strip() or lines[k].startswith((" ", "\t", ")"))):
                k += 1
            if m:
                out[m.group(1)] = (j + 1, k)
            i = k
            continue
        i += 1
    return out, lines


def source_size(src_dir, kernel, called_lines):
    for name in sorted(os.listdir(src_dir)):
        if not name.endswith(".py"):
            continue
        path = os.path.join(src_dir, name)
        fns, lines = functions(path)
        if kernel not in fns:
            continue
        first, last = fns[kernel]
        count = len(code_lines(lines[first - 1:last]))
        # @jit helpers of this file that the dump's call sites land in.
        for other, (f, l) in fns.items():
            if other != kernel and any(f <= n <= l for n in called_lines.get(name, ())):
                count += len(code_lines(lines[f - 1:l]))
        return name, count
    return None, 0


def anchor_size(python):
    lines = python.split("\n")
    count, inside = 0, False
    for l in lines:
        if l.startswith("def "):
            inside = l != "" and not l.startswith("def launch(")
        elif l and not l.startswith((" ", "\t")):
            inside = False
        if inside:
            count += len(code_lines([l]))
    return count


def called_lines(ttgir):
    """file basename -> line numbers named in the dump's locations."""
    out = {}
    for m in re.finditer(r'"([^"]+\.py)":(\d+):\d+', ttgir):
        out.setdefault(os.path.basename(m.group(1)), set()).add(int(m.group(2)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tilexform")
    ap.add_argument("corpus")
    ap.add_argument("--style", default="readable", choices=["readable", "faithful"])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    src_dir = os.path.join(args.corpus, "src")
    rows, skipped = [], []
    for target in sorted(os.listdir(args.corpus)):
        tdir = os.path.join(args.corpus, target)
        if target == "src" or not os.path.isdir(tdir):
            continue
        for case in sorted(os.listdir(tdir)):
            dump = os.path.join(tdir, case, case + ".ttgir")
            if not os.path.exists(dump) or case.startswith("gluon_"):
                continue
            with open(dump, encoding="utf-8") as f:
                text = f.read()
            m = re.search(r"tt\.func public @(\w+)", text)
            if not m:
                continue
            src_name, src_count = source_size(src_dir, m.group(1), called_lines(text))
            if not src_name:
                continue
            r = subprocess.run([args.tilexform, "transcribe", "--style", args.style, "--json", dump],
                               capture_output=True, text=True)
            doc = json.loads(r.stdout) if r.stdout.strip().startswith("{") else {}
            if r.returncode != 0 or "python" not in doc:
                skipped.append((target, case, doc.get("verdict", r.returncode)))
                continue
            n = anchor_size(doc["python"])
            rows.append({"target": target, "case": case, "kernel": m.group(1), "source": src_count,
                         "anchor": n, "ratio": round(n / src_count, 2)})
    ratios = [r["ratio"] for r in rows]
    summary = {"style": args.style, "anchors": len(rows), "skipped": len(skipped),
               "median": statistics.median(ratios) if ratios else None,
               "max": max(ratios) if ratios else None}
    if args.json:
        print(json.dumps({"summary": summary, "rows": rows, "skipped": skipped}, indent=1))
        return 0
    for r in rows:
        print(f"{r['target']:8} {r['case']:45} source {r['source']:3}  anchor {r['anchor']:4}  "
              f"x{r['ratio']:.2f}")
    for t, c, why in skipped:
        print(f"{t:8} {c:45} not transcribed ({why})")
    print(f"{args.style}: {len(rows)} anchors, median x{summary['median']}, max x{summary['max']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
