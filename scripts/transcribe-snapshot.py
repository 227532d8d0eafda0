#!/usr/bin/env python3
"""Writes what `tilexform transcribe` makes of every .ttgir of the corpus, the
examples and the tests, in both styles, into one folder: run it with the
build before a change and after it, then `diff -r` the two folders. A
change meant to keep behaviour (a refactoring of the transcriber) shows no
difference.

  scripts/transcribe-snapshot.py TILEXFORM OUT_DIR
"""
import hashlib
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent.parent


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    tool, out = sys.argv[1], pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    dumps = sorted(p for root in ("tests", "examples") for p in (HERE / root).rglob("*.ttgir"))
    runs = 0
    for dump in dumps:
        rel = dump.relative_to(HERE).as_posix()
        key = hashlib.sha256(rel.encode()).hexdigest()[:10] + "-" + dump.stem[:60]
        for style in ("faithful", "readable"):
            for gaps in ([], ["--allow-gaps"]):
                p = subprocess.run([tool, "transcribe", "--style", style, *gaps, rel],
                                   cwd=HERE, capture_output=True)
                name = f"{key}.{style}{'.gaps' if gaps else ''}"
                (out / name).write_bytes(b"# " + rel.encode() + b"\n# exit %d\n" % p.returncode +
                                         p.stdout + b"\n--- stderr\n" + p.stderr)
                runs += 1
    print(f"{len(dumps)} dumps, {runs} runs written to {out}")


if __name__ == "__main__":
    main()
