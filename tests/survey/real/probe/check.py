"""Sets survey's loop forms for tests/survey/real_loops.py beside what the
compiler did to the same loops (a run of run.sh beside this script).

  python3 tests/survey/real/probe/check.py OUTDIR [--tilexform BIN]

(from the repository root; BIN defaults to build/tools/tilexform/tilexform).
OUTDIR is run.sh's $OUT, with loops.jsonl. For each loop survey reports, each
compiled kernel that holds it, each variant and target, the form the TTGIR
shows at launch num_stages 1 and 3:

  static         no loop at the line
  while          an scf.while
  outer          holds an scf.for / scf.while (and carries no async token)
  launch         pipelined at num_stages 3, not at 1
  annotated      pipelined at 1 and at 3
  not-pipelined  pipelined at neither

beside the one survey's form stands for (frozen and a for loop's none: not
pipelined; a while loop's none: while). survey gives one form per source
loop: where its `why` names the constexpr switch a variant sets (L4's "is None
or 1 by ENABLE_PIPELINING", L7's "where ATOMIC_ADD holds"), the form it names
for the other arm counts too, and the line says "agrees (the switch survey
names)". Writes OUTDIR/check.txt (one line each and a count) and
OUTDIR/check.jsonl. Exit 0 when every line agrees, 1 when one does not or a
compile failed, 2 for a bad command line or OUTDIR.
"""

import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
SOURCE_REL = os.path.join("tests", "survey", "real_loops.py")
SOURCE_NAME = os.path.basename(SOURCE_REL)
STAGES = (1, 3)

SWITCH_NOTE = "agrees (the switch survey names)"


def label(kernel):
    """L7 for l07_bwd_helper_while; the name itself otherwise."""
    m = re.match(r"l(\d+)_", kernel)
    return f"L{int(m.group(1))}" if m else kernel


def variant_order(item):
    """Variants with a switch True before those with it False."""
    return item[0].replace("=True", "=0").replace("=False", "=1")


def load_records(path):
    compiles, loops = [], []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                print(f"{path}:{n}: not JSON, skipped", file=sys.stderr)
                continue
            if r.get("record") == "compile":
                compiles.append(r)
            elif r.get("record") == "loop":
                loops.append(r)
    return compiles, loops


def run_survey(binary):
    p = subprocess.run([binary, "survey", "--json", SOURCE_REL], cwd=ROOT,
                       capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.exit(f"survey printed no JSON (exit {p.returncode}): {p.stderr.strip()[-400:]}")


# ---------------------------------------------------------------------------
# The compiled form

def compiled_form(at):
    """The form of the loops at one line, from {num_stages: [loop records]}."""
    present = {n: bool(at.get(n)) for n in STAGES}
    if not any(present.values()):
        return "static"
    if not all(present.values()):
        return "odd: a loop at num_stages {} only".format(
            " and ".join(str(n) for n in STAGES if present[n]))
    every = [lp for n in STAGES for lp in at[n]]
    piped = {n: any(lp["pipelined"] for lp in at[n]) for n in STAGES}
    if any(lp["kind"] == "while" for lp in every):
        return "while"
    if any(lp["nested_loop"] for lp in every):
        # An outer loop's own body holds a pipelined inner loop's prologue
        # (its async copies, buffer indexing); only tokens it carries itself
        # would say the outer loop was pipelined.
        if any(lp["carries_async_tokens"] for lp in every):
            return "outer, carrying async tokens"
        return "outer"
    if piped[3] and not piped[1]:
        return "launch"
    if piped[1] and piped[3]:
        return "annotated"
    if not piped[1] and not piped[3]:
        return "not-pipelined"
    return "odd: pipelined at num_stages 1 only"


# ---------------------------------------------------------------------------
# What survey's form stands for

def expected_of(loop):
    """The compiled form survey's form for a loop stands for."""
    form = loop["form"]
    if form == "none":
        return "while" if loop.get("iterator") == "while" else "not-pipelined"
    if form == "frozen":
        return "not-pipelined"
    if form == "authored":
        # A Gluon loop that writes its own overlap: the same at 1 and 3.
        return "annotated"
    return form  # launch, annotated, static, outer


def inner_form_of(loop):
    """The form of an outer loop where the loop it holds is compiled away."""
    ns = loop.get("num_stages")
    if ns is None:
        return "launch" if loop.get("dots", 0) > 0 else "not-pipelined"
    if ns.isdigit():
        return "not-pipelined" if int(ns) <= 1 else "annotated"
    return None  # a name: survey says no more


def truth(expr, switches):
    """The value of a switch expression ("X", "not X", "X and not Y") under a
    variant's constexprs, or None where the variant does not set it."""
    value = True
    for term in expr.split(" and "):
        term = term.strip()
        neg = term.startswith("not ")
        name = term[4:].strip() if neg else term
        if name not in switches:
            return None
        value = value and (not switches[name] if neg else bool(switches[name]))
    return value


def stages_arm(why, switches, source_lines):
    """For "num_stages=NS (line N) is None or 1 by X": "none" or "one", the
    arm the variant takes, from the binding at line N; None when the why
    names no such switch or the variant does not set it; "either" when the
    binding cannot be read."""
    m = re.search(r"\(line (\d+)\) is None or 1 by (.+?): ", why)
    if not m:
        return None
    test = truth(m.group(2), switches)
    if test is None:
        return None
    n = int(m.group(1))
    text = source_lines[n - 1] if 0 < n <= len(source_lines) else ""
    if re.search(r"None\s+if\s+.+\s+else\s+1\b", text):
        return "none" if test else "one"
    if re.search(r"\b1\s+if\s+.+\s+else\s+None", text):
        return "one" if test else "none"
    return "either"


OUTER_SWITCH = re.compile(r"(?:holds the loop at line (\d+)|whose loop \(line (\d+)\) lands in its "
                          r"body) where (.+?) holds \(a constexpr")


def outer_switch(why):
    """(inner line, switch expression) an outer loop's why names, or None."""
    m = OUTER_SWITCH.search(why)
    return (int(m.group(1) or m.group(2)), m.group(3)) if m else None


def expectation(loop, switches, source_lines, inner_switches):
    """([(form, note)], ...): the forms that agree with survey in a variant,
    each with the word its line gets."""
    base = expected_of(loop)
    why = loop.get("why", "")
    arm = stages_arm(why, switches, source_lines)
    if arm == "one":
        return [("not-pipelined", SWITCH_NOTE)]
    if arm == "either":
        return [(base, "agrees"), ("not-pipelined", SWITCH_NOTE)]
    sw = outer_switch(why)
    if sw:
        holds = truth(sw[1], switches)
        if holds is False:
            inner = inner_form_of(loop)
            return [(inner, SWITCH_NOTE)] if inner else [
                (f, SWITCH_NOTE) for f in ("launch", "annotated", "not-pipelined")]
    # A loop an outer loop's why says is compiled away where its switch fails.
    for expr in inner_switches.get(loop["line"], []):
        if truth(expr, switches) is False:
            return [("static", SWITCH_NOTE)]
    return [(base, "agrees")]


# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--tilexform", default=os.path.join("build", "tools", "tilexform", "tilexform"))
    args = ap.parse_args()
    loops_path = os.path.join(args.outdir, "loops.jsonl")
    if not os.path.isfile(loops_path):
        print(f"no {loops_path}", file=sys.stderr)
        return 2
    binary = args.tilexform if os.path.isabs(args.tilexform) else os.path.join(ROOT, args.tilexform)
    if not os.access(binary, os.X_OK):
        print(f"no tilexform at {args.tilexform}", file=sys.stderr)
        return 2
    compiles, loop_recs = load_records(loops_path)
    if not compiles:
        print(f"{loops_path} holds no compile records", file=sys.stderr)
        return 2
    survey = run_survey(binary)
    with open(os.path.join(ROOT, SOURCE_REL)) as f:
        source_lines = f.read().splitlines()

    # Compiles by (kernel, variant, target, num_stages); loops of this source
    # by the same key and line.
    by_key = {(c["kernel"], c.get("variant", ""), c["target"], c["num_stages"]): c
              for c in compiles}
    at_line = {}
    for lp in loop_recs:
        if lp.get("file") not in (None, SOURCE_NAME) or lp.get("line") is None:
            continue
        key = (lp["kernel"], lp.get("variant", ""), lp["target"], lp["num_stages"])
        at_line.setdefault((key, lp["line"]), []).append(lp)
    compiled_kernels = sorted({c["kernel"] for c in compiles})
    variants = {}  # kernel -> {variant label: switches}
    targets = sorted({c["target"] for c in compiles}, key=lambda t: (t != "sm90", t))
    for c in compiles:
        variants.setdefault(c["kernel"], {})[c.get("variant", "")] = c.get("switches", {})

    # Which lines outer loops' whys say are compiled away, and under what.
    inner_switches, helper_hosts = {}, {}
    for k in survey.get("kernels", []):
        for loop in k.get("loops", []):
            sw = outer_switch(loop.get("why", ""))
            if sw:
                inner_switches.setdefault(sw[0], []).append(sw[1])
            m = re.search(r"inlines @jit helper (\w+)", loop.get("why", ""))
            if m:
                helper_hosts.setdefault(m.group(1), set()).add(k["name"])

    rows = []
    for k in survey.get("kernels", []):
        for loop in k.get("loops", []):
            line = loop["line"]
            # The compiled kernels that hold this loop: itself, or the
            # kernels that inline the helper it is in.
            if k["name"] in compiled_kernels:
                hosts = [k["name"]]
            else:
                hosts = sorted(helper_hosts.get(k["name"], set()) |
                               {key[0] for key, ln in at_line if ln == line})
            if not hosts:
                rows.append(dict(loop=k["name"], kernel=k["name"], line=line, variant="",
                                 target="", survey_form=loop["form"], survey_why=loop["why"],
                                 verdict="not compiled",
                                 error="no compiled kernel holds this loop"))
                continue
            for host in hosts:
                for variant, switches in sorted(variants[host].items(), key=variant_order):
                    for target in targets:
                        rows.append(check_one(k["name"], host, loop, variant, switches, target,
                                              by_key, at_line, source_lines, inner_switches))

    counts = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    text = []
    for r in rows:
        head = "{} {} line {}{}{}".format(
            label(r["host"]) if r.get("host") else r["loop"], r["kernel"], r["line"],
            f" [{r['variant']}]" if r.get("variant") else "",
            f" {r['target']}" if r.get("target") else "")
        if r.get("error"):
            text.append(f"{head}: survey {r['survey_form']}; {r['verdict']}: {r['error']}")
        else:
            text.append(f"{head}: survey {r['survey_form']}, compiled {r['compiled_form']} "
                        f"(expected {' or '.join(r['expected'])}): {r['verdict']}")
    order = ["agrees", SWITCH_NOTE, "DISAGREES", "compile error", "not compiled"]
    summary = ", ".join(f"{counts[v]} {v}" for v in order if v in counts)
    text.append(f"{len(rows)} lines: {summary}")
    with open(os.path.join(args.outdir, "check.txt"), "w") as f:
        f.write("\n".join(text) + "\n")
    with open(os.path.join(args.outdir, "check.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print("\n".join(text))
    bad = sum(counts.get(v, 0) for v in ("DISAGREES", "compile error", "not compiled"))
    return 1 if bad else 0


def check_one(kernel, host, loop, variant, switches, target, by_key, at_line, source_lines,
              inner_switches):
    line = loop["line"]
    row = dict(loop=label(host), kernel=kernel, host=host, line=line, variant=variant,
               switches=switches, target=target, survey_form=loop["form"],
               survey_why=loop.get("why", ""))
    missing, errors = [], []
    for n in STAGES:
        c = by_key.get((host, variant, target, n))
        if c is None:
            missing.append(f"num_stages {n}")
        elif "error" in c:
            errors.append(f"num_stages {n}: {c['error'].strip().splitlines()[-1][:300]}")
    if missing or errors:
        row.update(verdict="compile error",
                   error="; ".join((["no compile record for " + ", ".join(missing)]
                                    if missing else []) + errors))
        return row
    at = {n: at_line.get(((host, variant, target, n), line), []) for n in STAGES}
    form = compiled_form(at)
    allowed = expectation(loop, switches, source_lines, inner_switches)
    verdict = next((note for f, note in allowed if f == form), "DISAGREES")
    row.update(
        compiled_form=form,
        expected=[f for f, _ in allowed],
        verdict=verdict,
        pipelined_at_1=any(lp["pipelined"] for lp in at[1]),
        pipelined_at_3=any(lp["pipelined"] for lp in at[3]),
        tt_num_stages_at_1=next((lp["tt_num_stages"] for lp in at[1]
                                 if lp.get("tt_num_stages") is not None), None),
        tt_num_stages_at_3=next((lp["tt_num_stages"] for lp in at[3]
                                 if lp.get("tt_num_stages") is not None), None),
        compiled={str(n): [{k: lp.get(k) for k in (
            "kind", "async_copies", "multibuffer_index", "carries_async_tokens",
            "single_buffer_index", "carries_memdesc", "nested_loop", "tt_num_stages", "dots",
            "line_from")} for lp in at[n]] for n in STAGES},
        ttgir={str(n): by_key[(host, variant, target, n)].get("ttgir") for n in STAGES},
    )
    return row


if __name__ == "__main__":
    sys.exit(main())
