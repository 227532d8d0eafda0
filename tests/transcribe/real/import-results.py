#!/usr/bin/env python3
"""Brings capture-harness runs into tests/transcribe/real/device-results.json.

  import-results.py RESULTS LIBRARY REPOSITORY COMMIT RUN_DIR... [--notes TEXT]

Each RUN_DIR is one harness --out folder (round-log.jsonl, summary.json); the
runs of one library (its shards, a kernel run in a process of its own) are
merged, a kernel counted once per target, and the library's entry in RESULTS
replaced (with --gpu and --date when its runs had another GPU or day than the
file's). With --keep-earlier, the entry's rows of kernels these runs did not
check stay, each with the day and GPU it was checked on (`checked_on`,
`gpu`) unless --drop-hash names them, and the earlier
runs stay listed: a partial run adds to the figures instead of dropping
what it had no time for. The entry holds its runs, per-target totals (with the plain/anchor ratio
distribution and the readable anchors' figures) and one row per kernel and
target. Figures only: no code or dump of the library is kept.
"""
import argparse
import importlib.util
import json
import pathlib

KEEP = ("kernel", "hash", "transcribe", "plain_compiled", "compiled", "failed_in", "bit_exact",
        "plain_deterministic", "within_plain_spread", "verify", "audit_diff", "audit_cause",
        "parity_gate", "ratio", "plain_ms", "anchor_ms", "signature", "reuse", "readable", "not_run",
        "blocked_by", "precision", "error", "plain_listing_error", "anchor_listing_error")


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


def load_harness():
    """The capture harness's own summary, so that the file's totals are the
    ones its runs print."""
    path = pathlib.Path(__file__).resolve().parents[3] / "scripts" / "transcribe-check.py"
    spec = importlib.util.spec_from_file_location("transcribe_check", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def totals(rows):
    summarize = load_harness().summarize
    return {target: summarize([r for r in rows if r["target"] == target])
            for target in sorted({r["target"] for r in rows})}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("library")
    ap.add_argument("repository")
    ap.add_argument("commit")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--notes", help="the library's notes (default: the ones RESULTS has)")
    ap.add_argument("--gpu", help="the GPU these runs had, when not the file's (`NVIDIA H100`)")
    ap.add_argument("--date", help="the day of these runs, when not the file's")
    ap.add_argument("--keep-earlier", action="store_true",
                    help="keep the earlier rows of kernels these runs did not check")
    ap.add_argument("--drop-hash", action="append", default=[], metavar="HASH",
                    help="with --keep-earlier, leave out the earlier rows of this kernel hash (a "
                         "launch that no longer happens: its driver was fixed)")
    a = ap.parse_args()
    if any(not h.strip() for h in a.drop_hash):
        ap.error("--drop-hash takes a kernel hash (or its first characters), not an empty string")
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
    path = pathlib.Path(a.results)
    doc = json.loads(path.read_text())
    before = next((x for x in doc["libraries"] if x["library"] == a.library), {})
    if a.keep_earlier and before:
        day, gpu = a.date or doc.get("date"), a.gpu or doc.get("gpu")
        for r in rows:
            r["checked_on"], r["gpu"] = day, gpu
        earlier_day = before.get("date") or doc.get("date")
        earlier_gpu = before.get("gpu") or doc.get("gpu")
        for r in before.get("kernels", []):
            if any(r["hash"].startswith(h[:16]) for h in a.drop_hash):
                continue
            if (r["hash"], r["target"]) not in seen:
                seen.add((r["hash"], r["target"]))
                rows.append(dict(r, checked_on=r.get("checked_on", earlier_day),
                                 gpu=r.get("gpu", earlier_gpu)))
        # A run imported again is listed once.
        runs = [r for r in before.get("runs", []) if r not in runs] + runs
    rows.sort(key=lambda r: (r["target"], r["kernel"], r["hash"]))
    notes = a.notes if a.notes is not None else before.get("notes", "")
    entry = dict(library=a.library, repository=a.repository, commit=a.commit, runs=runs,
                 totals=totals(rows), notes=notes, kernels=rows)
    for key in ("gpu", "date"):
        if getattr(a, key):
            entry[key] = getattr(a, key)
    libs = [x for x in doc["libraries"] if x["library"] != a.library]
    libs.append(entry)
    doc["libraries"] = libs
    path.write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps(entry["totals"], indent=1))


if __name__ == "__main__":
    main()
