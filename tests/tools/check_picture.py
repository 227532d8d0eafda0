#!/usr/bin/env python3
"""Draws every layout of a kinds file with `tilexform layout --svg` and reads
the pictures back: the SVG parses as XML, it has one cell per element, each
cell's owners (block, warp, lane, register; or offset) are the ones
`layout --table` lists for that element, its label is the cell `--view`
prints, and the colours follow the warp (the bank for shared layouts).

usage: check_picture.py TILEXFORM KINDS_FILE OUT_DIR
"""
import json
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def fail(where, message):
    print(f"{where}: {message}", file=sys.stderr)
    sys.exit(1)


def owner_text(o):
    if "offset" in o:
        return f"B{o.get('block', 0)}:O{o['offset']}"
    return f"B{o.get('block', 0)}:W{o.get('warp', 0)}:T{o.get('lane', 0)}:R{o.get('register', 0)}"


def owner_key(o):
    return (o.get("block", 0), o.get("warp", 0), o.get("lane", 0), o.get("register", 0),
            o.get("offset", -1))


def view_cells(text):
    """The cells of `layout --view` for a distributed layout, in element order."""
    flat = text.replace("[", " ").replace("]", " ")
    return [c.strip() for c in re.split(r",|\n", flat) if c.strip()]


def element_bits(type_text):
    m = re.search(r"<[0-9x]*x?([a-z]+)(\d+)", type_text)
    return int(m.group(2)) if m else 16


def check(tool, kind, type_text, svg_path, where):
    run = subprocess.run([tool, "layout", "--type", type_text, "--svg", svg_path, "--force",
                          "--table", "--format", "json"], capture_output=True, text=True)
    # 1: drawn, and the layout has no exact Gluon constructor (amd_rotating_shared).
    if run.returncode not in (0, 1):
        fail(where, f"layout exited {run.returncode}: {run.stderr.strip()}")
    doc = json.loads(run.stdout)
    if doc.get("svg") != svg_path:
        fail(where, "the JSON does not name the picture it wrote")
    table = {tuple(row["element"]): sorted(row["owners"], key=owner_key) for row in doc["table"]}
    shape = doc["shape"]
    elements = math.prod(shape)
    shared = "offset" in doc["linear"]
    lanes = 1 << len(doc["linear"].get("lane", []))
    blocks = 1 << len(doc["linear"].get("block", []))

    root = ET.parse(svg_path).getroot()  # raises on XML that does not parse
    if root.tag != SVG + "svg":
        fail(where, f"the root element is {root.tag}, not svg")
    if root.get("data-shape") != "x".join(map(str, shape)):
        fail(where, f"data-shape {root.get('data-shape')} is not {shape}")
    cells = [r for r in root.iter(SVG + "rect") if "cell" in r.get("class", "").split()]
    if len(cells) != elements or len(table) != elements:
        fail(where, f"{len(cells)} cells, {len(table)} table rows, {elements} elements")
    labelled = root.get("data-labelled") == "true"
    if labelled != (elements <= 64 * 64):
        fail(where, f"labels {'kept' if labelled else 'left out'} at {elements} elements")
    view = None
    if labelled and not shared:
        run = subprocess.run([tool, "layout", "--type", type_text, "--view"], capture_output=True,
                             text=True)
        view = view_cells(run.stdout)
        if len(view) != elements:
            fail(where, f"--view has {len(view)} cells, not {elements}")

    seen = set()
    fill_of = {}  # warp (or bank) -> fill
    bits = element_bits(type_text)
    for i, cell in enumerate(cells):
        element = tuple(int(x) for x in cell.get("data-element").split(","))
        if element in seen:
            fail(where, f"element {element} drawn twice")
        seen.add(element)
        owners = table.get(element)
        if owners is None:
            fail(where, f"element {element} is not in --table")
        drawn = cell.get("data-owners").split()
        if sorted(drawn) != sorted(owner_text(o) for o in owners):
            fail(where, f"element {element}: the picture says {drawn}, --table "
                        f"{[owner_text(o) for o in owners]}")
        first = owners[0]
        if shared:
            bank = first["offset"] * bits // 32 % 32
            if int(cell.get("data-offset")) != first["offset"] or int(cell.get("data-bank")) != bank:
                fail(where, f"element {element}: offset/bank {cell.get('data-offset')}/"
                            f"{cell.get('data-bank')}, expected {first['offset']}/{bank}")
            key = bank
            label = "|".join((f"B{o.get('block', 0)}:" if blocks > 1 else "") +
                             f"o{o['offset']} b{o['offset'] * bits // 32 % 32}" for o in owners)
        else:
            got = tuple(int(cell.get("data-" + k)) for k in ("warp", "lane", "register"))
            want = (first.get("warp", 0), first.get("lane", 0), first.get("register", 0))
            if got != want:
                fail(where, f"element {element}: warp/lane/register {got}, --table says {want}")
            key = want[0]
            label = "|".join((f"B{o.get('block', 0)}:" if blocks > 1 else "") +
                             f"T{o.get('warp', 0) * lanes + o.get('lane', 0)}:{o.get('register', 0)}"
                             for o in owners)
            if view is not None and view[i].replace(" ", "") != label:
                fail(where, f"element {element}: label {label}, --view prints {view[i]}")
        if labelled:
            title = cell.find(SVG + "title")
            if title is None or title.text != f"[{','.join(map(str, element))}] {label}":
                fail(where, f"element {element}: title {title.text if title is not None else None}"
                            f", expected label {label}")
        if fill_of.setdefault(key, cell.get("fill")) != cell.get("fill"):
            fail(where, f"{'bank' if shared else 'warp'} {key} drawn in two colours")
    fills = list(fill_of.values())
    if len(set(fills)) != len(fills):
        fail(where, f"two {'banks' if shared else 'warps'} share a colour: {fill_of}")
    swatches = {int(r.get("data-bank" if shared else "data-warp")): r.get("fill")
                for r in root.iter(SVG + "rect") if r.get("class") == "swatch"}
    for key, fill in fill_of.items():
        if swatches.get(key) != fill:
            fail(where, f"the legend draws {key} in {swatches.get(key)}, the cells in {fill}")
    return elements, len(fill_of), labelled


def main():
    tool, kinds_file, out_dir = sys.argv[1:4]
    os.makedirs(out_dir, exist_ok=True)
    kinds = []
    with open(kinds_file) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            kind, type_text = line.rstrip("\n").split("\t")
            where = f"{kinds_file}:{n}"
            svg = os.path.join(out_dir, f"{n}.svg")
            elements, colours, labelled = check(tool, kind, type_text, svg, where)
            print(f"ok {kind} {elements} elements, {colours} colours"
                  f"{', labelled' if labelled else ''}")
            kinds.append(kind)
    print(f"checked {len(kinds)} pictures")


if __name__ == "__main__":
    main()
