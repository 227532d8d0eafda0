#!/usr/bin/env python3
"""Brings capture-harness runs into tests/transcribe/real/device-results.json.

  import-results.py RESULTS LIBRARY REPOSITORY COMMIT RUN_DIR... [--notes TEXT]

Each RUN_DIR is one harness --out folder (round-log.jsonl, summary.json); the
runs of one library (its shards, a kernel run in a process of its own) are
merged, a kernel counted once per target, and the library's entry in RESULTS
replaced: its runs, per-target totals (with the plain/anchor ratio
distribution and the readable anchors' figures) and one row per kernel and
target. Figures only: no code or dump of the library is kept.
"""
import argparse
import json
import pathlib
import statistics

KEEP = ("kernel", "hash", "transcribe", "plain_compiled", "compiled", "failed_in", "bit_exact",
        "plain_deterministic", "within_plain_spread", "verify", "audit_diff", "audit_cause",
        "parity_gate", "ratio", "plain_ms", "anchor_ms", "signature", "reuse", "readable", "not_run",
        "blocked_by", "error", "plain_listing_error", "anchor_listing_error")


def row_of(r):
    out = {k: r[k] for k in KEEP if k in r}
    out["hash"] = out.get("hash", "")[:16]
    out["target"] = r.get("arch") or "sm90"
    for k in ("error", "plain_listing_error", "anchor_listing_error"):
        if k in out:
            out[k] = str(out[k]).strip().splitlines()[-1][:300]
    if isinstance(out.get("readable"), dict):
        out["readable"] = {k: v for k, v in out["readable"].items() if k != "error"}
    return out


def totals(rows):
    t = {}
    for target in sorted({r["target"] for r in rows}):
        rs = [r for r in rows if r["target"] == target]
        count = lambda k, v: sum(1 for r in rs if r.get(k) == v)  # noqa: E731
        ratios = sorted(r["ratio"] for r in rs if r.get("ratio"))
        x = dict(kernels=len(rs), plain_did_not_compile=count("plain_compiled", False),
                 not_run=sum(1 for r in rs if r.get("not_run") or (target == "sm90" and "compiled" not in r
                                                                    and r.get("transcribe") == "TRANSCRIBED")),
                 transcribed=count("transcribe", "TRANSCRIBED"), compiled=count("compiled", True),
                 bit_exact=count("bit_exact", True) if target == "sm90" else None,
                 verify_pass=count("verify", "PASS"), verify_reconciled=count("verify", "RECONCILED"),
                 audit_same=count("audit_diff", "SAME"),
                 parity_cleared=count("parity_gate", "CLEARED") if target == "sm90" else None)
        if ratios:
            x["ratio"] = dict(min=round(ratios[0], 4), median=round(statistics.median(ratios), 4),
                              max=round(ratios[-1], 4), at_least_0_98=sum(1 for v in ratios if v >= 0.98),
                              n=len(ratios))
        rd = [r["readable"] for r in rs if isinstance(r.get("readable"), dict)]
        if rd:
            sizes = sorted(v["ratio_to_source"] for v in rd if v.get("ratio_to_source"))
            x["readable"] = dict(checked=len(rd), compiled=sum(1 for v in rd if v.get("compiled")),
                                 bit_exact=sum(1 for v in rd if v.get("bit_exact")),
                                 verify_pass=sum(1 for v in rd if v.get("verify") in ("PASS", "RECONCILED")),
                                 same_ops_as_faithful=sum(1 for v in rd if v.get("same_ops_as_faithful")),
                                 same_order_as_faithful=sum(1 for v in rd if v.get("same_order_as_faithful")))
            if sizes:
                x["readable"]["lines_over_source"] = dict(min=sizes[0], median=statistics.median(sizes),
                                                          max=sizes[-1], n=len(sizes))
        reuse = [e for r in rs for e in r.get("reuse", [])]
        if reuse:
            x["reuse"] = dict(launches=len(reuse),
                              plain_same_binary=sum(1 for e in reuse if e.get("plain_same_binary")),
                              anchor_same_binary=sum(1 for e in reuse if e.get("anchor_same_binary")),
                              bit_exact=sum(1 for e in reuse if e.get("bit_exact")))
        t[target] = x
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("library")
    ap.add_argument("repository")
    ap.add_argument("commit")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--notes", default="")
    a = ap.parse_args()
    rows, seen, runs = [], set(), []
    for d in map(pathlib.Path, a.runs):
        s = json.loads((d / "summary.json").read_text()) if (d / "summary.json").exists() else {}
        runs.append({k: s.get(k) for k in ("program_seconds", "program_error", "launches", "captured",
                                          "not_checked", "cuda_context_lost_at")} | {"run": d.name})
        for line in (d / "round-log.jsonl").read_text().splitlines():
            r = row_of(json.loads(line))
            key = (r["hash"], r["target"])
            if key not in seen:
                seen.add(key)
                rows.append(r)
    rows.sort(key=lambda r: (r["target"], r["kernel"], r["hash"]))
    path = pathlib.Path(a.results)
    doc = json.loads(path.read_text())
    entry = dict(library=a.library, repository=a.repository, commit=a.commit, runs=runs,
                 totals=totals(rows), notes=a.notes, kernels=rows)
    libs = [x for x in doc["libraries"] if x["library"] != a.library]
    libs.append(entry)
    doc["libraries"] = libs
    path.write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps(entry["totals"], indent=1))


if __name__ == "__main__":
    main()
