#!/usr/bin/env python3
"""The examples of examples/commands.txt (its header says the format).

  examples.py run TILEXFORM     runs every example from a scratch folder,
                                printing each command and its output
  examples.py check TILEXFORM   runs them quietly; one line per example whose
                                exit code is not the one its heading states;
                                exits 1 on any
  examples.py list              prints `COMMAND<TAB>EXIT<TAB>WHAT<TAB>LINE`

Outputs an example writes (`--out x.py`) land in the scratch folder, where
`examples` links to the repository's own."""
import concurrent.futures
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent
HEADING = re.compile(r"^\[([a-z-]+)\] (?:exit (\d+): )?(.+)$")


def examples():
    out, heading = [], None
    text = (root / "examples" / "commands.txt").read_text()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        m = HEADING.match(line)
        if m:
            heading = (m.group(1), int(m.group(2) or 0), m.group(3), n)
            continue
        if heading is None or not line.startswith("tilexform "):
            sys.exit(f"examples/commands.txt:{n}: expected a heading or a command line")
        words = shlex.split(line)
        if words[1] != heading[0]:
            sys.exit(f"examples/commands.txt:{n}: the command is not the heading's {heading[0]}")
        out.append({"command": heading[0], "exit": heading[1], "what": heading[2],
                    "line": line, "words": words, "at": n})
        heading = None
    if not out:
        sys.exit("examples/commands.txt: no examples")
    return out


def run(tool, ex, scratch, capture):
    return subprocess.run([tool] + ex["words"][1:], cwd=scratch, capture_output=capture,
                          env={**os.environ, "NO_COLOR": "1"})


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "list":
        for ex in examples():
            print(f'{ex["command"]}\t{ex["exit"]}\t{ex["what"]}\t{ex["line"]}')
        return 0
    if mode not in ("run", "check") or len(sys.argv) != 3:
        sys.exit(__doc__)
    tool = os.path.abspath(sys.argv[2])
    exs = examples()
    with tempfile.TemporaryDirectory(prefix="tilexform-examples-") as scratch:
        os.symlink(root / "examples", os.path.join(scratch, "examples"))
        if mode == "run":
            for ex in exs:
                print(f'\n== {ex["line"]}', flush=True)
                code = run(tool, ex, scratch, False).returncode
                if code:
                    print(f'(exit {code}' + (", as intended: " + ex["what"] if code == ex["exit"] else "") + ")")
            return 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            results = list(pool.map(lambda ex: run(tool, ex, scratch, True), exs))
    bad = 0
    for ex, r in zip(exs, results):
        if r.returncode != ex["exit"]:
            bad += 1
            first = (r.stderr or r.stdout).decode(errors="replace").strip().splitlines()[:1]
            print(f'examples/commands.txt:{ex["at"]}: exit {r.returncode}, expected {ex["exit"]}: '
                  f'{ex["line"]}: {first[0] if first else ""}')
    print(f"{len(exs)} examples, {len(set(e['command'] for e in exs))} commands, {bad} wrong")
    return 1 if bad else 0


sys.exit(main())
