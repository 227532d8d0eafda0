#!/usr/bin/env python3
"""mutate_corpus.py TOOL CORPUS [N] [SEED]: feeds N mutated dumps (truncated,
bytes flipped, lines dropped or duplicated, brackets deleted) to `inspect
--json` and fails on any crash, hang, unexpected exit code, partial JSON, or
an error message that is not one line naming the file."""
import json
import pathlib
import random
import subprocess
import sys
import tempfile

tool, root = sys.argv[1], pathlib.Path(sys.argv[2])
n = int(sys.argv[3]) if len(sys.argv) > 3 else 300
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
files = sorted(p for p in root.rglob("*") if p.suffix == ".ttgir")


def mutate(data: bytes) -> bytes:
    kind = rng.randrange(6)
    if kind == 0:
        return data[: rng.randrange(len(data))]
    if kind == 1:
        b = bytearray(data)
        for _ in range(rng.randrange(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b)
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    if kind == 2:
        del lines[i]
    elif kind == 3:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif kind == 4:
        line = lines[i]
        for ch in b"{}[]<>()":
            if ch in line and rng.random() < 0.5:
                j = line.index(ch)
                line = line[:j] + line[j + 1:]
                break
        lines[i] = line
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


bad = 0
with tempfile.TemporaryDirectory() as tmp:
    for k in range(n):
        src = rng.choice(files)
        path = pathlib.Path(tmp) / f"m{k}.ttgir"
        path.write_bytes(mutate(src.read_bytes()))
        try:
            p = subprocess.run([tool, "inspect", "--json", str(path)], capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            bad += 1
            print("HANG", src)
            continue
        err = p.stderr.decode(errors="replace")
        ok = p.returncode in (0, 65)
        if p.returncode == 0:
            try:
                json.loads(p.stdout)
            except ValueError:
                ok = False
        else:
            # One line on stderr, and on stdout the error document saying the same.
            try:
                doc = json.loads(p.stdout)
                ok = ok and doc["verdict"] == "ERROR" and doc["exit_code"] == 65 and \
                    len(doc["errors"]) == 1 and doc["errors"][0]["message"] in err
            except (ValueError, KeyError, TypeError):
                ok = False
            ok = ok and err.count("\n") == 1 and str(path) in err
        if not ok:
            bad += 1
            print("BAD", p.returncode, src, err.strip()[:300])
            (pathlib.Path(tmp).parent / f"tilexform-bad-{k}.ttgir").write_bytes(path.read_bytes())
print(f"{n} mutated dumps: {n - bad} handled, {bad} bad")
sys.exit(1 if bad else 0)
