#!/usr/bin/env python3
"""tilexform's start-up and throughput, as ratios against references measured
in the same run (so the numbers compare across machines).

  bench/bench.py [PATH/TO/tilexform]

Measures, as the median of several repetitions:
  - start-up: `tilexform --version` against `mlir-opt-22 --version` (an MLIR
    tool linked against the shared LLVM/MLIR libraries) and `/bin/true`;
  - throughput: `tilexform inspect --json` over every dump in tests/corpus,
    against reading the same bytes with `cat` (the I/O floor);
  - probe: `tilexform probe --json` over tests/artifacts (every .cubin,
    .hsaco, .amdgcn and metadata file), against `cat` of the same files;
  - survey: `tilexform survey -j 2` over 5,000 generated kernel modules,
    against CPython's own `ast.parse` of the same files in one process.
"""
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

here = pathlib.Path(__file__).resolve().parent.parent
tool = sys.argv[1] if len(sys.argv) > 1 else str(here / "build" / "tools" / "tilexform" / "tilexform")
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


true_s = timed(["/bin/true"], 30)
tx_start = timed([tool, "--version"], 30)
print(f"start-up  tilexform --version     {tx_start * 1e3:7.2f} ms")
print(f"          /bin/true               {true_s * 1e3:7.2f} ms   (process floor)")
mlir_opt = shutil.which("mlir-opt-22") or "/usr/lib/llvm-22/bin/mlir-opt"
if os.path.exists(mlir_opt):
    ref = timed([mlir_opt, "--version"], 30)
    print(f"          mlir-opt-22 --version   {ref * 1e3:7.2f} ms   ratio tilexform/mlir-opt = {tx_start / ref:.2f}")

size = sum(f.stat().st_size for f in corpus)
cat_s = min(corpus_time(lambda f: ["cat", str(f)]) for _ in range(3))
tx_s = min(corpus_time(lambda f: [tool, "inspect", "--json", str(f)]) for _ in range(3))
print(f"throughput inspect --json {len(corpus)} dumps, {size / 1e6:.1f} MB: {tx_s:.2f} s "
      f"({tx_s / len(corpus) * 1e3:.1f} ms/dump, {size / tx_s / 1e6:.1f} MB/s)")
print(f"          cat over the same files: {cat_s:.2f} s   ratio inspect/cat = {tx_s / cat_s:.2f}")

artifacts = sorted(p for p in (here / "tests" / "artifacts").rglob("*") if p.is_file())
art_size = sum(p.stat().st_size for p in artifacts)
cat_art = timed(["cat", *map(str, artifacts)], 5)
probe_s = timed([tool, "probe", "--json", "-q", str(here / "tests" / "artifacts")], 5)
print(f"probe     {len(artifacts)} artifacts, {art_size / 1e6:.1f} MB: {probe_s * 1e3:.0f} ms   "
      f"cat {cat_art * 1e3:.0f} ms   ratio probe/cat = {probe_s / cat_art:.2f}")

with tempfile.TemporaryDirectory() as tree:
    subprocess.run([sys.executable, str(here / "bench" / "make_survey_tree.py"), tree, "5000"],
                   stdout=subprocess.DEVNULL, check=True)
    survey_s = timed([tool, "survey", "-q", "-j", "2", "--json", tree], 3)
    ref = ("import ast, pathlib, sys\n"
           "for p in pathlib.Path(sys.argv[1]).rglob('*.py'): ast.parse(p.read_text())")
    ast_s = timed([sys.executable, "-c", ref, tree], 3)
    print(f"survey    5000 generated modules, 2 jobs: {survey_s:.2f} s   "
          f"CPython ast.parse alone {ast_s:.2f} s   ratio survey/ast = {survey_s / ast_s:.2f}")
