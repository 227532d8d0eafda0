#!/usr/bin/env python3
"""Checks that no value of a readable anchor borrows a source name: every
statement `x_3 = ...` whose name (without its numeric suffix) the source
assigns somewhere is written under a source line that assigns that name
(`x = ...`, `x, y = ...`, `x += ...`, `for x in ...`), or is that value at
another shape, layout or slot (`gl.full(shape, x, ...)`, `x[:, None]`,
`x.broadcast_to(...)`, `gl.convert_layout(x, ...)`, `x.index(...)`). Role
names (`pred`, `mask`, `stage`, `k_bar`, ...) and a loop's carried values
are not source names.

  check_anchor_names.py TILEXFORM SOURCE_ROOT DUMP_OR_FOLDER...

Each dump is transcribed with --style readable --source-root SOURCE_ROOT;
prints one line per borrowed name and a summary, exits 1 when there is one.
"""
import pathlib
import re
import subprocess
import sys

COMMENT = re.compile(r"^\s*# [^ ]+:\d+  (.*)$")
ASSIGN = re.compile(r"^\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?:=|\+=|-=|\*=|/=)(?!=)")
FOR = re.compile(r"^\s*for\s+([A-Za-z_]\w*)\s+in\b")
# The names of roles (transcribe/Names.h): what a value is for, not a name
# the source gave it.
ROLES = {"tmp", "pred", "mask", "stage", "fill_stage", "phase", "next_stage", "next_fill_stage",
         "bar", "ready_bar", "mma_bar", "smem"}
IDENT = re.compile(r"^[A-Za-z_]\w*$")
STATEMENT = re.compile(r"^\s+([A-Za-z_]\w*(?:, [A-Za-z_]\w*)*) = (.*)$")
SAME_VALUE = [re.compile(p) for p in (r"^gl\.full\(\[[^\]]*\], ([A-Za-z_]\w*),",
                                      r"^([A-Za-z_]\w*)(?:\[|\.broadcast_to\(|\.index\(|\.permute\()",
                                      r"^gl\.convert_layout\(([A-Za-z_]\w*)[,\[.]")]


def base(name):
    return re.sub(r"_\d+$", "", name)


def assigned(source_line):
    m = FOR.match(source_line)
    if m:
        return {m.group(1)}
    m = ASSIGN.match(source_line)
    return {n.strip() for n in m.group(1).split(",")} if m else set()


def check(text, where):
    quotes = [COMMENT.match(line).group(1) for line in text.splitlines() if COMMENT.match(line)]
    source_names = set().union(*(assigned(q) for q in quotes)) if quotes else set()
    bad, quote = [], None
    for line in text.splitlines():
        m = COMMENT.match(line)
        if m:
            quote = m.group(1)
            continue
        m = STATEMENT.match(line)
        if not m or quote is None:
            continue
        rhs = m.group(2)
        targets = m.group(1).split(", ")
        # A loop's carried values: set before it and reassigned at the end
        # of its body (names, or a tuple of expressions), under the names
        # the loop carries; a wait gives back the values it waited for.
        if IDENT.match(rhs) or len(targets) > 1 and not rhs.startswith("warpgroup_mma_wait("):
            continue
        if rhs.startswith(("warpgroup_mma_init(", "warpgroup_mma_wait(")):
            continue
        for target in targets:
            b = base(target)
            if b in ROLES or b.endswith(("_bar", "_smem")):
                continue
            # An update of a loop's carried value (`acc = acc + x`).
            if target in re.findall(r"[A-Za-z_]\w*", rhs):
                continue
            if b not in source_names or b in assigned(quote):
                continue
            if any(p.match(rhs) and base(p.match(rhs).group(1)) == b for p in SAME_VALUE):
                continue
            bad.append(f"{where}: {line.strip()}  (under: {quote})")
    return bad


def main():
    tool, root = sys.argv[1], sys.argv[2]
    dumps = []
    for a in sys.argv[3:]:
        p = pathlib.Path(a)
        dumps += sorted(p.rglob("*.ttgir")) if p.is_dir() else [p]
    bad, checked = [], 0
    for d in dumps:
        p = subprocess.run([tool, "transcribe", "--style", "readable", "--allow-gaps",
                            "--source-root", root, d], capture_output=True, text=True)
        if p.returncode not in (0, 1):
            continue
        checked += 1
        bad += check(p.stdout, d)
    for b in bad:
        print(b)
    print(f"{checked} anchors checked, {len(bad)} borrowed names")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
