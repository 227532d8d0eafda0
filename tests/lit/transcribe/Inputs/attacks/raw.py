#!/usr/bin/env python3
"""raw.py IN_DIR OUT_DIR: copies every .ttgir of IN_DIR to OUT_DIR with
MLIR's escape of a carriage return (the four characters \\0D) replaced by
the raw byte, outside `//` comments. MLIR's lexer takes a raw CR inside a
string as it is, so the same hostile text reaches tilexform whether or not
it decodes escapes."""
import pathlib
import sys

src, dst = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
dst.mkdir(parents=True, exist_ok=True)
for f in sorted(src.glob("*.ttgir")):
    lines = f.read_bytes().split(b"\n")
    raw = [l if l.startswith(b"//") else l.replace(b"\\0D", b"\r") for l in lines]
    (dst / f.name).write_bytes(b"\n".join(raw))
