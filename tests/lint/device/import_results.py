"""Brings a device run of tests/lint/device/run.sh into the repository.

  python3 tests/lint/device/import_results.py RESULTS_DIR [--tilexform BIN]

(run from the repository root; import-results.sh is the same with the
defaults). RESULTS_DIR is run.sh's $OUT: results.jsonl and ttgir/.

1. Copies every ttgir/<rule>_<case>.ttgir to tests/lit/lint/Inputs/device/,
   with the directories of the source paths in its loc(...) dropped (the
   device machine's checkout is nobody's business: "proxy_fence.py":60:0).
2. Writes tests/lint/device/device-results.jsonl: the run's records, paths
   dropped the same way.
3. Lints each imported dump with BIN (default build/tools/tilexform/tilexform)
   for its own rule and writes tests/lit/lint/device.test: a trip case must
   be reported by its rule (the findings as they are now, line for line), a
   fixed case must be clean under it. Where lint does not answer so, the test
   still states the requirement, fails, and the mismatch is printed here.
4. Writes the table of docs/lint.md "Checked on the GPU" between its markers.

Exit 0 when every case answered as expected, 1 when some did not, 64/65 for a
bad command line or results folder.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
INPUTS = os.path.join(ROOT, "tests", "lit", "lint", "Inputs", "device")
TEST = os.path.join(ROOT, "tests", "lit", "lint", "device.test")
RESULTS = os.path.join(HERE, "device-results.jsonl")
DOCS = os.path.join(ROOT, "docs", "lint.md")

sys.path.insert(0, HERE)
import summarize  # noqa: E402

# A quoted path with directories: keep its last component.
_PATH = re.compile(r'"(?:[A-Za-z]:)?[/\\](?:[^"\n]*[/\\])?([^"/\\\n]+)"')
# Unquoted absolute paths in messages (tracebacks, compiler errors).
_BARE = re.compile(r'(?<![\w.])/(?:[\w.+-]+/)+([\w.+-]+)')


def scrub(text):
    return _BARE.sub(r"\1", _PATH.sub(r'"\1"', text))


def filecheck_escape(text):
    return text.replace("{{", "{{\\{\\{}}").replace("[[", "{{\\[\\[}}")


def prefix_of(name):
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").upper()


def lint(binary, rule, path):
    p = subprocess.run([binary, "lint", "--rule", rule, "--format", "jsonl", path], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit("{}: lint exited {}: {}".format(path, p.returncode, p.stderr.strip()))
    return json.loads(p.stdout), p.stdout


def main(argv):
    args = list(argv)
    binary = os.path.join(ROOT, "build", "tools", "tilexform", "tilexform")
    if "--tilexform" in args:
        i = args.index("--tilexform")
        if i + 1 >= len(args):
            print("--tilexform needs a path", file=sys.stderr)
            return 64
        binary = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    src = args[0]
    results_path = os.path.join(src, "results.jsonl")
    if not os.path.exists(results_path):
        print("{}: no results.jsonl (the $OUT of tests/lint/device/run.sh)".format(src), file=sys.stderr)
        return 65
    if not os.access(binary, os.X_OK):
        print("{}: no tilexform binary; build it or pass --tilexform".format(binary), file=sys.stderr)
        return 64
    records = summarize.read_jsonl(results_path)
    if not records:
        print("{}: empty".format(results_path), file=sys.stderr)
        return 65

    os.makedirs(INPUTS, exist_ok=True)
    for old in os.listdir(INPUTS):
        if old.endswith(".ttgir"):
            os.remove(os.path.join(INPUTS, old))
    with open(RESULTS, "w") as f:
        for r in records:
            f.write(scrub(json.dumps(r)) + "\n")

    lines = [
        "# The kernels of tests/lint/device/ as Triton compiled them on the device",
        "# (tests/lint/device/device-results.jsonl says what each one did there):",
        "# each trip case is reported by its rule, each fixed case is clean under it.",
        "# Written by tests/lint/device/import-results.sh; the findings are lint's",
        "# answer when the dumps were imported.",
    ]
    mismatches = []
    lint_docs = []
    for r in records:
        name, rule, case, variant = r.get("ttgir"), r.get("rule"), r.get("case"), r.get("variant")
        if not name or not rule:
            lines += ["", "# {} {}: no TTGIR ({}: {}).".format(rule or r.get("module"), case, r.get("outcome"),
                                                                  scrub(str(r.get("detail") or "")))]
            continue
        dump = os.path.join(src, "ttgir", name)
        if not os.path.exists(dump):
            print("{}: listed in results.jsonl but missing; skipped".format(dump), file=sys.stderr)
            continue
        with open(dump) as f:
            text = scrub(f.read())
        target = os.path.join(INPUTS, name)
        with open(target, "w") as f:
            f.write(text)
        doc, raw = lint(binary, rule, target)
        lint_docs.append(raw.strip())
        findings = [x for x in doc.get("findings", []) if x.get("rule") == rule]
        p = prefix_of(rule + "_" + case)
        lines += ["", "# {} {} ({}): {}.".format(rule, case, variant, r.get("what", "")),
                  "# On the device: {}.".format(summarize.outcome_text(r))]
        rel = "%S/Inputs/device/" + name
        if variant == "trip":
            lines.append("RUN: %expect-exit 1 %tilexform lint --rule {} {} | FileCheck %s --check-prefix={}".format(
                rule, rel, p))
            if findings:
                for x in findings:
                    lines.append("{}: {}:{}:{}: {}: {} [{}]".format(p, name, x["line"], x["col"], x["severity"],
                                                                    filecheck_escape(x["message"]), rule))
                summary = doc.get("summary", {})
                lines.append("{}: {}: {} error(s), {} warning(s)".format(p, name, summary.get("errors", 0),
                                                                         summary.get("warnings", 0)))
            else:
                mismatches.append("{} {}: trip, not reported by {}".format(rule, case, rule))
                lines.append("{}: {}:{{{{[0-9]+}}}}:{{{{[0-9]+}}}}: error: {{{{.*}}}} [{}]".format(p, name, rule))
        else:
            lines.append("RUN: %tilexform lint --rule {} {} | FileCheck %s --check-prefix={}".format(rule, rel, p))
            lines.append("{}-NOT: [{}]".format(p, rule))
            lines.append("{}: {}: clean".format(p, name))
            if findings:
                mismatches.append("{} {}: fixed, but reported by {} at line(s) {}".format(
                    rule, case, rule, ", ".join(str(x["line"]) for x in findings)))
    with open(TEST, "w") as f:
        f.write("\n".join(lines) + "\n")

    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "results.jsonl"), "w") as f:
            f.write("".join(scrub(json.dumps(r)) + "\n" for r in records))
        with open(os.path.join(tmp, "lint.jsonl"), "w") as f:
            f.write("\n".join(lint_docs) + "\n")
        table, _, _ = summarize.table(tmp)
    summarize.write_docs(DOCS, table)
    print(table)
    print("\nwrote {}, {}, {} and the table in {}".format(os.path.relpath(INPUTS, ROOT), os.path.relpath(RESULTS, ROOT),
                                                         os.path.relpath(TEST, ROOT), os.path.relpath(DOCS, ROOT)))
    for m in mismatches:
        print("MISMATCH: " + m)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
