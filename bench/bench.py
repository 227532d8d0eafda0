#!/usr/bin/env python3
"""tilexform's start-up and throughput, as ratios against references measured
in the same run (so the numbers compare across machines).

  bench/bench.py [PATH/TO/tilexform] [SECTION...]

SECTION is any of startup, throughput, reader, probe, survey, recover and
scale (default: all).

Measures, as the median of several repetitions:
  - start-up: `tilexform --version` against `mlir-opt-22 --version` (an MLIR
    tool linked against the shared LLVM/MLIR libraries) and `/bin/true`;
  - throughput: `tilexform inspect --json` over every dump in tests/corpus,
    against reading the same bytes with `cat` (the I/O floor);
  - reader: tilexform loading each corpus dump (`inspect`) against
    `mlir-opt-22` parsing the same module in MLIR's generic form (printed by
    `tilexform inspect --print-generic`), whole processes and with each
    tool's own start-up taken out;
  - probe: `tilexform probe --json` over tests/artifacts (every .cubin,
    .hsaco, .amdgcn and metadata file), against `cat` of the same files;
  - survey: `tilexform survey -j 2` over 5,000 generated kernel modules,
    against CPython's own `ast.parse` of the same files in one process;
  - recover: one process per plain .ttgir dump, text and JSON, each as its
    median over interleaved rounds above `/bin/true` (the largest, the
    kitchen sink, named, and the slowest three), and
    every plain dump in one process with `--format jsonl`;
  - scale: probe and survey over trees of 1,000 and 10,000 kernels, wall time
    and peak memory of the process (`/usr/bin/time`), and the 1k -> 10k growth.
"""
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

here = pathlib.Path(__file__).resolve().parent.parent
SECTIONS = ("startup", "throughput", "reader", "probe", "survey", "recover", "scale")
args = sys.argv[1:]
tool = args.pop(0) if args and args[0] not in SECTIONS else str(here / "build" / "tools" / "tilexform" / "tilexform")
unknown = [a for a in args if a not in SECTIONS]
if unknown:
    sys.exit(f"bench.py: unknown section {unknown[0]!r} (sections: {', '.join(SECTIONS)})")
chosen = set(args) or set(SECTIONS)


def want(section):
    return section in chosen
corpus = sorted(p for p in (here / "tests" / "corpus").rglob("*") if p.suffix in (".ttgir", ".ttir"))


def timed(cmd, reps):
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def corpus_time(cmd_for):
    t0 = time.perf_counter()
    for f in corpus:
        subprocess.run(cmd_for(f), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


mlir_opt = shutil.which("mlir-opt-22") or "/usr/lib/llvm-22/bin/mlir-opt"
true_s = timed(["/bin/true"], 30)
tx_start = timed([tool, "--version"], 30)
if want("startup"):
    print(f"start-up  tilexform --version     {tx_start * 1e3:7.2f} ms")
    print(f"          /bin/true               {true_s * 1e3:7.2f} ms   (process floor)")
    if os.path.exists(mlir_opt):
        ref = timed([mlir_opt, "--version"], 30)
        print(f"          mlir-opt-22 --version   {ref * 1e3:7.2f} ms   ratio tilexform/mlir-opt = {tx_start / ref:.2f}")

if want("throughput"):
    size = sum(f.stat().st_size for f in corpus)
    cat_s = min(corpus_time(lambda f: ["cat", str(f)]) for _ in range(3))
    tx_s = min(corpus_time(lambda f: [tool, "inspect", "--json", str(f)]) for _ in range(3))
    print(f"throughput inspect --json {len(corpus)} dumps, {size / 1e6:.1f} MB: {tx_s:.2f} s "
          f"({tx_s / len(corpus) * 1e3:.1f} ms/dump, {size / tx_s / 1e6:.1f} MB/s)")
    print(f"          cat over the same files: {cat_s:.2f} s   ratio inspect/cat = {tx_s / cat_s:.2f}")

def one_module_file(dumps, path):
    """Every dump as one top-level module of a single file, aliases renamed
    per dump (`#blocked` -> `#blocked_7`) so the file is one valid input."""
    alias_def = re.compile(r"^([#!][A-Za-z_][\w.$-]*)\s*=", re.M)
    ref = re.compile(r"[#!][A-Za-z_][\w$]*")
    with open(path, "w") as out:
        for i, f in enumerate(dumps):
            text = f.read_text()
            names = set(alias_def.findall(text))
            out.write(ref.sub(lambda m: m.group(0) + f"_{i}" if m.group(0) in names else m.group(0),
                              text) + "\n")


if want("reader") and os.path.exists(mlir_opt):
    opt = [mlir_opt, "--allow-unregistered-dialect",
           "--mlir-very-unsafe-disable-verifier-on-parsing", "-o", "/dev/null"]
    with tempfile.TemporaryDirectory() as gen_dir:
        gen = pathlib.Path(gen_dir)
        # Per dump, one process each: what a CI step pays.
        generic = []
        for i, f in enumerate(corpus):
            g = gen / f"{i}.mlir"
            with open(g, "w") as out:
                subprocess.run([tool, "inspect", "--print-generic", str(f)], stdout=out, check=True)
            generic.append(g)
        # Both tools must accept every module before they are timed.
        for g in generic:
            subprocess.run(opt + [str(g)], stdout=subprocess.DEVNULL, check=True)
        tx_load = min(corpus_time(lambda f: [tool, "inspect", str(f)]) for _ in range(3))
        pairs = dict(zip(corpus, generic))
        opt_load = min(corpus_time(lambda f: opt + [str(pairs[f])]) for _ in range(3))
        print(f"reader    {len(corpus)} dumps, one process each: tilexform inspect {tx_load:.2f} s, "
              f"mlir-opt-22 on the generic form {opt_load:.2f} s   ratio mlir-opt/tilexform = "
              f"{opt_load / tx_load:.2f}")
        # Every dump in one file: parse throughput, start-up out of the way.
        big = gen / "all.ttgir"
        one_module_file([f for f in corpus if f.suffix == ".ttgir"], big)
        big_generic = gen / "all.mlir"
        with open(big_generic, "w") as out:
            subprocess.run([tool, "inspect", "--print-generic", str(big)], stdout=out, check=True)
        big_size = big.stat().st_size
        tx_big = timed([tool, "inspect", str(big)], 5) - timed([tool, "--version"], 10)
        opt_big = timed(opt + [str(big_generic)], 5) - timed([mlir_opt, "--version"], 10)
        print(f"          all .ttgir dumps in one file, {big_size / 1e6:.1f} MB, start-up taken out: "
              f"tilexform {big_size / tx_big / 1e6:.1f} MB/s, mlir-opt-22 (generic form) "
              f"{big_size / opt_big / 1e6:.1f} MB/s   throughput ratio tilexform/mlir-opt = "
              f"{opt_big / tx_big:.2f} (goal >= 0.8)")

artifacts = sorted(p for p in (here / "tests" / "artifacts").rglob("*") if p.is_file())
if want("probe"):
    art_size = sum(p.stat().st_size for p in artifacts)
    cat_art = timed(["cat", *map(str, artifacts)], 5)
    probe_s = timed([tool, "probe", "--json", "-q", str(here / "tests" / "artifacts")], 5)
    print(f"probe     {len(artifacts)} artifacts, {art_size / 1e6:.1f} MB: {probe_s * 1e3:.0f} ms   "
          f"cat {cat_art * 1e3:.0f} ms   ratio probe/cat = {probe_s / cat_art:.2f}")

if want("survey"):
    with tempfile.TemporaryDirectory() as tree:
        subprocess.run([sys.executable, str(here / "bench" / "make_survey_tree.py"), tree, "5000"],
                       stdout=subprocess.DEVNULL, check=True)
        survey_s = timed([tool, "survey", "-q", "-j", "2", "--json", tree], 3)
        ref = ("import ast, pathlib, sys\n"
               "for p in pathlib.Path(sys.argv[1]).rglob('*.py'): ast.parse(p.read_text())")
        ast_s = timed([sys.executable, "-c", ref, tree], 3)
        print(f"survey    5000 generated modules, 2 jobs: {survey_s:.2f} s   "
              f"CPython ast.parse alone {ast_s:.2f} s   ratio survey/ast = {survey_s / ast_s:.2f}")

if want("recover"):
    plain = sorted(p for p in (here / "tests" / "corpus").rglob("*.ttgir") if "gluon" not in p.name)
    # Round-robin: every round runs /bin/true and every dump in text and in
    # JSON once, so a slow moment of the machine costs one sample of many
    # dumps, not every sample of one; each figure is its median over the
    # rounds, less the median /bin/true.
    rounds = 15
    samples = {f: ([], []) for f in plain}
    floor = []

    def once(cmd):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return time.perf_counter() - t0

    for _ in range(rounds):
        floor.append(once(["/bin/true"]))
        for f in plain:
            samples[f][0].append(once([tool, "recover", str(f)]))
            samples[f][1].append(once([tool, "recover", "--json", str(f)]))
    floor_s = statistics.median(floor)
    per = {f: (statistics.median(t) - floor_s, statistics.median(j) - floor_s)
           for f, (t, j) in samples.items()}
    text_ms = sorted(v[0] * 1e3 for v in per.values())
    json_ms = sorted(v[1] * 1e3 for v in per.values())
    big = max(plain, key=lambda p: p.stat().st_size)
    print(f"recover   {len(plain)} plain dumps, one process each ({rounds} rounds), above /bin/true: median {statistics.median(text_ms):.2f} ms text, "
          f"{statistics.median(json_ms):.2f} ms JSON; max {text_ms[-1]:.2f} / {json_ms[-1]:.2f} ms")
    print(f"          largest ({big.parent.name}/{big.name}, {big.stat().st_size / 1e3:.0f} KB): "
          f"{per[big][0] * 1e3:.2f} ms text, {per[big][1] * 1e3:.2f} ms JSON above /bin/true")
    worst = sorted(per, key=lambda f: -max(per[f]))[:3]
    print("          slowest: " + ", ".join(f"{f.parent.name}/{f.name} {per[f][0] * 1e3:.2f} / {per[f][1] * 1e3:.2f} ms"
                                       for f in worst))
    all_s = min(timed([tool, "recover", "--format", "jsonl", *map(str, plain)], 1) for _ in range(5))
    print(f"          all {len(plain)} in one process, --format jsonl: {all_s:.3f} s")

# Scale: probe and survey over generated trees of 1,000 and 10,000 kernels
# (hard links to the corpus's kernel directories; generated modules), wall
# time and peak memory of the one process, and the growth from 1k to 10k.
kernel_dirs = sorted({p.parent for p in artifacts if "damaged" not in p.parts and p.suffix in
                      (".cubin", ".hsaco", ".amdgcn", ".json") and p.parent != here / "tests" / "artifacts"
                      and p.parent.parent != here / "tests" / "artifacts"})


def peak(cmd):
    """Wall seconds and peak RSS (MB) of one run of `cmd`."""
    start = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    return wall, int(r.stderr.strip().splitlines()[-1]) / 1024


if want("scale") and (shutil.which("/usr/bin/time") or os.path.exists("/usr/bin/time")):
    figures = {}
    for n in (1000, 10000):
        with tempfile.TemporaryDirectory() as tree:
            for i in range(n):
                src = kernel_dirs[i % len(kernel_dirs)]
                dst = pathlib.Path(tree) / f"k{i:05d}"
                dst.mkdir()
                for f in src.iterdir():
                    if f.is_file():
                        os.link(f, dst / f.name)
            figures[("probe", n)] = min((peak([tool, "probe", "--json", "-q", tree]) for _ in range(3)),
                                        key=lambda x: x[0])
        with tempfile.TemporaryDirectory() as tree:
            subprocess.run([sys.executable, str(here / "bench" / "make_survey_tree.py"), tree, str(n)],
                           stdout=subprocess.DEVNULL, check=True)
            figures[("survey", n)] = min((peak([tool, "survey", "-q", "--json", tree]) for _ in range(3)),
                                         key=lambda x: x[0])
    for cmd in ("probe", "survey"):
        (s1, m1), (s10, m10) = figures[(cmd, 1000)], figures[(cmd, 10000)]
        print(f"{cmd:<9} 10,000 kernels: {s10:.2f} s, peak {m10:.0f} MB (goal < 5 s, < 200 MB); "
              f"1,000: {s1:.2f} s, {m1:.0f} MB; growth 1k -> 10k {s10 / s1:.1f}x time (linear: 10x)")
