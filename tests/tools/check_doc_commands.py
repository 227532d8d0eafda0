#!/usr/bin/env python3
"""check_doc_commands.py TILEXFORM [--root DIR] [--jobs N] [--min-commands N] [--list]

Runs every command README.md and docs/*.md quote and checks it against what
the page shows. A quoted command is a line of a fenced code block that starts
with `$ tilexform ` (a line ending in `\\` continues on the next); the lines
after it, up to the next `$ ` line or the end of the block, are its output as
the page shows it:

  - the first output line must equal the first line the command writes to
    standard output, or, where the page shows a diagnostic first (a line
    starting `tilexform: `), the first line it writes to standard error;
    `...` inside a line stands for any text, and a first line that is only
    `...` is not compared;
  - a last line `(exit N)`, or `(exit N, why)`, is the exit code the page
    promises; without one the command must exit 0.

Each command runs with TILEXFORM for `tilexform`, through bash, from a scratch
folder of its own that links every entry of the repository root (paths in
the pages are repository-relative; what a command writes, `--out anchor.py`,
lands in the scratch folder). Lines that are not `$ tilexform` lines
(synopses, `python3 ...`, commands that need Triton or a GPU) are not run.

Prints one line per mismatch (page:line, the command, expected and got) and
a count; exits 1 on any mismatch, and when fewer than --min-commands (20)
commands were found, so that a page reorganised away from the convention
cannot pass by checking nothing. --list prints the commands found instead."""
import argparse
import concurrent.futures
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

PROMPT = "$ tilexform "
FENCE = re.compile(r"^\s*(```|~~~)")
EXIT_LINE = re.compile(r"^\(exit (\d+)\b.*\)$")


def pages(root):
    found = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    return [p for p in found if p.is_file()]


def commands_of(page, root):
    """The page's commands: page, line, command (continuations joined), the exit
    code it promises and the first output line it shows (None: not compared)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    out, fenced, i = [], False, 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            # A block inside a list item is indented as its fence is.
            indent = len(lines[i]) - len(lines[i].lstrip()) if not fenced else 0
            fenced = not fenced
            if fenced:
                j = i + 1
                while j < len(lines) and not FENCE.match(lines[j]):
                    body = lines[j]
                    lines[j] = body[indent:] if body[:indent].strip() == "" else body
                    j += 1
            i += 1
            continue
        line = lines[i]
        if not (fenced and line.startswith(PROMPT)):
            i += 1
            continue
        at = i + 1
        command = line[2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1].rstrip() + " " + lines[i].strip()
        shown = []
        i += 1
        while i < len(lines) and not FENCE.match(lines[i]) and not lines[i].startswith("$ "):
            shown.append(lines[i].rstrip())
            i += 1
        while shown and not shown[-1]:
            shown.pop()
        exit_code = 0
        if shown and EXIT_LINE.match(shown[-1]):
            exit_code = int(EXIT_LINE.match(shown[-1]).group(1))
            shown.pop()
        first = shown[0] if shown else None
        if first is not None and first.strip() == "...":
            first = None
        out.append({"page": page.relative_to(root).as_posix(), "line": at, "command": command,
                    "exit": exit_code, "first": first})
    return out


def matches(expected, got):
    if "..." not in expected:
        return expected == got
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, got, re.DOTALL) is not None


def run(cmd, tool, root, timeout):
    with tempfile.TemporaryDirectory(prefix="doc-command-") as scratch:
        for entry in root.iterdir():
            if entry.name != ".git":
                os.symlink(entry, os.path.join(scratch, entry.name))
        words = cmd["command"].split(" ", 1)
        script = shlex.quote(tool) + (" " + words[1] if len(words) > 1 else "")
        env = dict(os.environ, NO_COLOR="1")
        try:
            p = subprocess.run(["bash", "-c", script], cwd=scratch, env=env,
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, f"timed out after {timeout} s", ""
        out, err = (s.decode("utf-8", "replace").splitlines() for s in (p.stdout, p.stderr))
        first_out = out[0].rstrip() if out else ""
        first_err = err[0].rstrip() if err else ""
        if (cmd["first"] or "").startswith("tilexform: "):
            return p.returncode, first_err, first_out
        return p.returncode, first_out, first_err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tilexform")
    ap.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parents[2]),
                    help="the folder holding README.md and docs/ (default: this repository)")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--min-commands", type=int, default=20)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per command")
    ap.add_argument("--list", action="store_true", help="print the commands found, run nothing")
    opts = ap.parse_args()
    root = pathlib.Path(opts.root).resolve()
    tool = os.path.abspath(opts.tilexform)

    cmds = [c for page in pages(root) for c in commands_of(page, root)]
    if opts.list:
        for c in cmds:
            print(f"{c['page']}:{c['line']}\t{c['exit']}\t{c['command']}")
        return 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        results = list(pool.map(lambda c: run(c, tool, root, opts.timeout), cmds))

    mismatches = 0
    for c, (code, first, other) in zip(cmds, results):
        where = f"{c['page']}:{c['line']}: {c['command']}"
        if code is None:
            print(f"{where}: {first}")
            mismatches += 1
            continue
        if code != c["exit"]:
            print(f"{where}: exit: expected {c['exit']}, got {code} ({first or other!r})")
            mismatches += 1
        elif c["first"] is not None and not matches(c["first"], first):
            print(f"{where}: first line: expected {c['first']!r}, got {first!r}")
            mismatches += 1
    files = len({c["page"] for c in cmds})
    print(f"{len(cmds)} commands checked in {files} pages, {mismatches} mismatches")
    if len(cmds) < opts.min_commands:
        print(f"only {len(cmds)} '$ tilexform' commands found, fewer than {opts.min_commands}: "
              f"nothing would be checked")
        return 1
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
