#!/usr/bin/env python3
"""tilexform's start-up and throughput, as ratios against references measured
in the same run (so the numbers compare across machines).

  bench/bench.py [PATH/TO/tilexform]

Measures, as the median of several repetitions:
  - start-up: `tilexform --version` against `mlir-opt-22 --version` (an MLIR
    tool linked against the shared LLVM/MLIR libraries) and `/bin/true`;
  - throughput: `tilexform inspect --json` over every dump in tests/corpus,
    against reading the same bytes with `cat` (the I/O floor).
"""
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
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
