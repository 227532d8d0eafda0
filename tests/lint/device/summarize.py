"""The table of docs/lint.md "Checked on the GPU" from a device run.

  python3 summarize.py RESULTS_DIR [--docs docs/lint.md]

RESULTS_DIR holds results.jsonl (one line per case, from run.sh) and
lint.jsonl (`tilexform lint --format jsonl` of each TTGIR). Prints the table
in Markdown; with --docs, also writes its rows into that file between the
markers `<!-- device-results:begin -->` and `<!-- device-results:end -->`.
Standard library only: it runs on the device machine too.
"""

import json
import os
import sys

BEGIN = "<!-- device-results:begin -->"
END = "<!-- device-results:end -->"
HEADER = ("| rule | case | variant | what the kernel does | on the device | lint: the rule's findings | "
          "as expected |\n| --- | --- | --- | --- | --- | --- | --- |")


def read_jsonl(path):
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                row = json.loads(line)
            except ValueError:
                row = None
            if isinstance(row, dict):
                rows.append(row)
            else:
                print("{}:{}: not a JSON object; skipped".format(path, n), file=sys.stderr)
    return rows


def outcome_text(r):
    o = r.get("outcome") or "no result"
    parts = []
    launches, bad = r.get("launches"), r.get("bad_launches")
    if o in ("correct", "wrong values", "NaN") and launches:
        parts.append("{}/{} launches wrong".format(bad, launches))
    if o in ("wrong values", "NaN") and r.get("max_error") not in (None, 0, 0.0):
        parts.append("max error {:g}".format(r["max_error"]) if isinstance(r["max_error"], (int, float)) else
                     "max error {}".format(r["max_error"]))
    if r.get("nan_count"):
        parts.append("{} NaN".format(r["nan_count"]))
    for key, label in (("rows_zero", "rows = 0"), ("rows_marker", "rows = marker")):
        if r.get(key):
            parts.append("{} {}".format(r[key], label))
    if r.get("ptx_fence_proxy_async") is not None and r.get("rule") == "proxy-fence":
        parts.append("PTX: {} fence.proxy.async".format(r["ptx_fence_proxy_async"]))
    if o in ("hang-timeout", "compile error", "launch error", "device fault", "no result", "skipped") and r.get("detail"):
        parts.append(str(r["detail"]).replace("|", "/")[:160])
    return o + (" (" + "; ".join(parts) + ")" if parts else "")


def lint_by_file(rows):
    out = {}
    for doc in rows:
        for d in doc.get("results", [doc]):
            name = os.path.basename(str(d.get("file", "")))
            out[name] = d
    return out


def table(results_dir):
    results = read_jsonl(os.path.join(results_dir, "results.jsonl"))
    lint = lint_by_file(read_jsonl(os.path.join(results_dir, "lint.jsonl")))
    lines = [HEADER]
    mismatches = 0
    for r in results:
        rule = r.get("rule") or r.get("module", "?")
        doc = lint.get(r.get("ttgir") or "")
        if doc is None:
            found = "not linted"
            expected = "?"
        else:
            hits = [f for f in doc.get("findings", []) if f.get("rule") == rule]
            found = ("flagged: " + ", ".join("{} at {}:{}".format(f.get("op"), f.get("line"), f.get("col"))
                                            for f in hits)) if hits else "clean"
            want_flag = r.get("lint_expected") == "flagged"
            ok = bool(hits) == want_flag
            expected = "yes" if ok else "**no**"
            mismatches += 0 if ok else 1
        lines.append("| `{}` | {} | {} | {} | {} | {} | {} |".format(rule, r.get("case", "?"), r.get("variant", "?"),
                                                                 r.get("what", "").replace("|", "/"), outcome_text(r),
                                                                 found, expected))
    return "\n".join(lines), mismatches, results


def write_docs(path, text):
    with open(path) as f:
        doc = f.read()
    b, e = doc.find(BEGIN), doc.find(END)
    if b < 0 or e < b:
        raise SystemExit("{}: no {} ... {} markers".format(path, BEGIN, END))
    doc = doc[:b + len(BEGIN)] + "\n" + text + "\n" + doc[e:]
    with open(path, "w") as f:
        f.write(doc)


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 64
    text, mismatches, results = table(argv[0])
    meta = next((r for r in results if r.get("device")), {})
    print("Device: {}, Triton {}.\n".format(meta.get("device", "?"), meta.get("triton", "?")))
    print(text)
    if mismatches:
        print("\n{} case(s) where lint did not answer as expected.".format(mismatches))
    if len(argv) == 3 and argv[1] == "--docs":
        write_docs(argv[2], text)
    elif len(argv) != 1:
        print("usage: summarize.py RESULTS_DIR [--docs docs/lint.md]", file=sys.stderr)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
