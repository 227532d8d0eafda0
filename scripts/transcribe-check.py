#!/usr/bin/env python3
"""The capture harness: runs a Python program (a script, `-m pytest ...`, or
`-c CODE`) with every Triton JIT launch intercepted, and checks each distinct
compiled kernel end to end against its transcribed Gluon anchor.

  scripts/transcribe-check.py [options] -- PROGRAM.py [ARGS...]
  scripts/transcribe-check.py [options] -- -m pytest -x tests/test_ops.py
  scripts/transcribe-check.py [options] -- -c "import mylib; mylib.selftest()"

For every launch of a plain `@triton.jit` kernel (autotuned kernels: the
config that ran, not the autotuner's trials) the harness keeps the arguments
before the launch, the grid, the launch options and the compiled kernel. For
each distinct compiled kernel it then

  1. writes plain's .ttir/.ttgir/.ptx/.cubin (or .amdgcn/.hsaco), its metadata
     and SASS (cuobjdump) under OUT/kernels/<kernel>-<hash>/;
  2. runs `tilexform transcribe` on plain's .ttgir (anchor.py);
  3. runs plain twice and the anchor once, each on its own copy of the
     pre-launch state (storage, offsets, strides and aliasing kept), and
     compares every tensor argument bit for bit: a kernel whose own reruns
     differ (atomics) is compared within plain's own spread and reported so;
  4. runs `tilexform verify` (plain against the anchor's own TTGIR),
     `tilexform audit --diff` of the two hot loops' SASS and
     `tilexform parity-gate` on the pair's samples and artifacts;
  5. times both in interleaved rounds (CUDA graphs, alternating order, both
     arms on the same buffers; a pair under --min-ratio after --rounds rounds
     gets twice as many more, every sample kept) and writes the samples as a `gate ab` file with each arm's fingerprint (the
     sha256 of the binary it ran);

and writes one JSON line per kernel to OUT/round-log.jsonl (a round log) and a
summary to OUT/summary.json. With --compile-only ARCH (gfx942, gfx950, sm100,
...) each captured kernel is also compiled for ARCH from its own source with
the launch's signature, specialisation and options; the anchor is transcribed
from that dump and compiled for ARCH, and verify and `audit --diff` of the two
.amdgcn/.sass listings run without a GPU of that kind.

A Python exception in the program ends the program, not the run: what was
captured before it is checked, and the exception is reported in the summary.
"""
import argparse
import contextlib
import fcntl
import hashlib
import importlib.util
import inspect
import json
import os
import pathlib
import runpy
import shutil
import subprocess
import sys
import threading
import time
import traceback

HERE = pathlib.Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------------------
# Pre-launch state: every distinct storage copied once, views rebuilt on it.

class Snapshot:
    """Copies of a launch's arguments: each storage once (so aliasing between
    arguments survives), each tensor a view with plain's offset and strides
    (so its alignment, and Triton's specialisation of it, is plain's)."""

    def __init__(self, args, kwargs):
        import torch
        self._torch = torch
        self.storages = {}
        self.args = [self._keep(a) for a in args]
        self.kwargs = {k: self._keep(v) for k, v in kwargs.items()}

    def _storage(self, t):
        s = t.untyped_storage()
        key = s.data_ptr()
        if key not in self.storages:
            # Zero slack after the storage, as the caching allocator leaves
            # slack after a tensor: a kernel that reads past its tensor (an
            # unmasked tail) reads zeros on every run instead of faulting or
            # reading whatever the last run left there.
            n = s.nbytes()
            copy = self._torch.zeros(n + min(max(n // 4, 64 << 10), 64 << 20), dtype=self._torch.uint8,
                                     device=t.device)
            copy[:n].copy_(self._torch.empty(0, dtype=self._torch.uint8, device=t.device).set_(s))
            self.storages[key] = copy
        return self.storages[key]

    def _keep(self, v):
        torch = self._torch
        if torch.is_tensor(v):
            return ("tensor", v.dtype, v.device, self._storage(v), v.storage_offset(),
                    tuple(v.shape), tuple(v.stride()))
        if hasattr(v, "base") and hasattr(v, "block_shape") and torch.is_tensor(v.base):
            return ("desc", type(v), self._keep(v.base), list(v.block_shape),
                    getattr(v, "padding", None), getattr(v, "layout", None))
        if isinstance(v, (list, tuple)) and any(torch.is_tensor(x) for x in v):
            return ("seq", type(v), [self._keep(x) for x in v])
        return ("value", v)

    def _make(self, k, fresh):
        torch = self._torch
        kind = k[0]
        if kind == "tensor":
            _, dtype, device, storage, offset, shape, stride = k
            key = id(storage)
            if key not in fresh:
                fresh[key] = storage.clone()
            base = fresh[key]
            t = torch.empty(0, dtype=dtype, device=device)
            t.set_(base.untyped_storage(), offset, shape, stride)
            return t
        if kind == "desc":
            _, cls, base, block, padding, layout = k
            b = self._make(base, fresh)
            if layout is not None:
                return cls(b, list(b.shape), list(b.stride()), block, layout)
            return cls.from_tensor(b, block)
        if kind == "seq":
            _, cls, items = k
            return cls(self._make(x, fresh) for x in items)
        return k[1]

    def materialize(self):
        """A fresh copy of the state: (args, kwargs, tensors by position/name)."""
        fresh = {}
        args = [self._make(a, fresh) for a in self.args]
        kwargs = {n: self._make(v, fresh) for n, v in self.kwargs.items()}
        return args, kwargs

    def materialize_plain(self):
        """The launch's arguments with tensors left as placeholders: for reading
        its scalars without copying any storage."""
        value = lambda k: k[1] if k[0] == "value" else None  # noqa: E731
        return [value(a) for a in self.args], {n: value(v) for n, v in self.kwargs.items()}

    def nbytes(self):
        return sum(s.numel() for s in self.storages.values())


def tensors_of(args, kwargs):
    """The tensor arguments by name (position for positional ones)."""
    import torch
    out = {}
    for i, a in enumerate(args):
        if torch.is_tensor(a):
            out[f"#{i}"] = a
        elif hasattr(a, "base") and torch.is_tensor(getattr(a, "base", None)):
            out[f"#{i}.base"] = a.base
    for n, a in kwargs.items():
        if torch.is_tensor(a):
            out[n] = a
    return out


def compare(xs, ys):
    """Bit-for-bit comparison of two runs' tensors: (equal, max_abs_diff, differing names)."""
    import torch
    equal, diff, names = True, 0.0, []
    for n, x in xs.items():
        y = ys[n]
        xb = x.reshape(-1).contiguous().view(torch.uint8) if x.numel() else x
        yb = y.reshape(-1).contiguous().view(torch.uint8) if y.numel() else y
        if torch.equal(xb, yb):
            continue
        equal = False
        names.append(n)
        if x.dtype.is_floating_point:
            d = (x.float() - y.float()).abs()
            d = torch.nan_to_num(d, nan=float("inf"))
            diff = max(diff, d.max().item() if d.numel() else 0.0)
        else:
            diff = max(diff, (x.long() - y.long()).abs().max().item() if x.numel() else 0.0)
    return equal, diff, names


# ---------------------------------------------------------------------------
# Capture.

class Capture:
    def __init__(self, max_bytes, max_per_fn, max_reuse=2):
        self.max_reuse = max_reuse
        self.pending_reuse = None
        self.kernels = {}     # hash -> record
        self.seen_fn = {}     # fn -> number of snapshots taken
        self.max_bytes = max_bytes
        self.max_per_fn = max_per_fn
        self.local = threading.local()
        self.launches = 0
        self.skipped_gluon = set()
        self.inductor_kernels = 0     # Inductor kernels replayed through JITFunction.run
        self.inductor_errors = []
        self.inductor_replayed = set()  # their CachingAutotuners

    def install(self, first_config=False):
        from triton.runtime import jit as jitmod
        from triton.runtime import autotuner
        capture = self
        original_run = jitmod.JITFunction.run
        self.original_run = original_run

        def run(fn_self, *args, grid, warmup, **kwargs):
            if warmup or getattr(capture.local, "busy", False) or capture.is_gluon(fn_self):
                if capture.is_gluon(fn_self) and not getattr(capture.local, "busy", False):
                    capture.skipped_gluon.add(fn_self.__name__)
                return original_run(fn_self, *args, grid=grid, warmup=warmup, **kwargs)
            capture.launches += 1
            snap = None
            key = id(fn_self)
            # A function already captured may be launched again with other
            # scalar arguments on the same binary (a length that is not
            # specialised): the state is kept so that the anchor can be run
            # there too, and its binary reuse checked.
            h_reuse = None
            if key in capture.seen_fn and capture.max_reuse > 0:
                h_reuse = capture.reuse_candidate(fn_self, args, kwargs)
            if h_reuse is not None:
                capture.local.busy = True
                try:
                    capture.pending_reuse = Snapshot(args, kwargs)
                except Exception:  # noqa: BLE001
                    capture.pending_reuse = None
                    h_reuse = None
                finally:
                    capture.local.busy = False
            elif capture.seen_fn.get(key, 0) < capture.max_per_fn:
                capture.local.busy = True
                try:
                    snap = Snapshot(args, kwargs)
                except Exception:  # noqa: BLE001 - an argument we cannot copy
                    snap = None
                finally:
                    capture.local.busy = False
            ck = original_run(fn_self, *args, grid=grid, warmup=warmup, **kwargs)
            if ck is not None and h_reuse is not None:
                snap, capture.pending_reuse = capture.pending_reuse, None
                h = capture.hash_of(ck)
                if h in capture.kernels:
                    capture.note_reuse(h, snap, grid, h_reuse)
                    snap = None
                elif capture.seen_fn.get(key, 0) >= capture.max_per_fn:
                    snap = None
            if snap is not None and ck is not None:
                h = capture.hash_of(ck)
                if h not in capture.kernels and snap.nbytes() <= capture.max_bytes:
                    capture.seen_fn[key] = capture.seen_fn.get(key, 0) + 1
                    capture.kernels[h] = dict(fn=fn_self, ck=ck, grid=grid, snap=snap, reuses=[],
                                              kwargs_names=list(kwargs), order=len(capture.kernels))
            return ck

        jitmod.JITFunction.run = run
        bench = autotuner.Autotuner._bench

        def quiet_bench(at_self, *a, **k):
            # The autotuner's trials are not the launch that ran.
            capture.local.busy = True
            try:
                return bench(at_self, *a, **k)
            finally:
                capture.local.busy = False

        autotuner.Autotuner._bench = quiet_bench
        if first_config:
            prune = autotuner.Autotuner.prune_configs

            def first_only(at_self, *a, **k):
                # The library's own pruning, then its first config: one
                # compile per kernel instead of one per candidate.
                return prune(at_self, *a, **k)[:1]

            autotuner.Autotuner.prune_configs = first_only
        self.install_inductor()

    def install_inductor(self):
        """torch.compile's kernels. Inductor compiles the @triton.jit functions
        it generates with triton.compile and launches them through its own
        launcher (CachingAutotuner.run), never through JITFunction.run. Each
        such launch is kept as the launch of its function with the config
        that ran: the grid is read where Triton's launcher receives it, and
        the function is launched once more through JITFunction.run on a copy
        of the pre-launch state, which the JIT hook captures as any other
        kernel (the model's own tensors are not touched twice)."""
        try:
            from torch._inductor.runtime import triton_heuristics as th
            import torch._inductor.config as inductor_config
        except Exception:  # noqa: BLE001 - no torch, or one without Inductor
            return
        launcher_cls = self.triton_launcher_class()
        if launcher_cls is None or not hasattr(th, "CachingAutotuner"):
            return
        # Inductor's own launcher does not pass through Triton's: use Triton's.
        if hasattr(inductor_config, "use_static_cuda_launcher"):
            inductor_config.use_static_cuda_launcher = False
        capture = self
        original_call = launcher_cls.__call__

        def call(launcher_self, *args, **kwargs):
            if getattr(capture.local, "inductor", False):
                capture.local.inductor_grid = tuple(args[:3])
            return original_call(launcher_self, *args, **kwargs)

        launcher_cls.__call__ = call
        original_run = th.CachingAutotuner.run

        def run(at_self, *args, **kwargs):
            key = id(at_self)
            if (getattr(capture.local, "busy", False) or kwargs.get("benchmark_run")
                    or key in capture.inductor_replayed or getattr(at_self, "fn", None) is None):
                return original_run(at_self, *args, **kwargs)
            capture.local.busy = True
            try:
                snap = Snapshot(args, {})
            except Exception:  # noqa: BLE001 - an argument we cannot copy
                snap = None
            finally:
                capture.local.busy = False
            capture.local.inductor, capture.local.inductor_grid = True, None
            try:
                ret = original_run(at_self, *args, **kwargs)
            finally:
                capture.local.inductor = False
            grid = capture.local.inductor_grid
            if snap is not None and grid is not None:
                capture.inductor_replayed.add(key)
                capture.inductor_kernels += 1
                capture.replay_inductor(at_self, snap, grid)
            elif snap is not None:
                # Launched past Triton's launcher: said once, not copied again.
                capture.inductor_replayed.add(key)
                capture.inductor_errors.append(f"{at_self.fn.__name__}: its launch did not pass "
                                               "through Triton's launcher (no grid to replay)")
            return ret

        th.CachingAutotuner.run = run

    @staticmethod
    def triton_launcher_class():
        for mod, name in (("triton.backends.nvidia.driver", "CudaLauncher"),
                          ("triton.backends.amd.driver", "HIPLauncher")):
            try:
                cls = getattr(importlib.import_module(mod), name, None)
            except Exception:  # noqa: BLE001
                cls = None
            if cls is not None:
                return cls
        return None

    def replay_inductor(self, at_self, snap, grid):
        """Launches an Inductor kernel's function through JITFunction.run with
        the config that ran, on a copy of the state before its launch."""
        launchers = getattr(at_self, "launchers", None) or []
        config = getattr(launchers[0], "config", None) if launchers else None
        if config is None:
            self.inductor_errors.append(f"{at_self.fn.__name__}: no launcher config")
            return
        fn = at_self.fn
        names = list(getattr(fn, "arg_names", []))
        args, _ = snap.materialize()
        kwargs = dict(config.kwargs)
        for name, v in ((getattr(at_self, "triton_meta", None) or {}).get("constants") or {}).items():
            if isinstance(name, str) and name in names and names.index(name) >= len(args):
                kwargs.setdefault(name, v)
        for opt in ("num_warps", "num_stages", "num_ctas", "maxnreg"):
            v = getattr(config, opt, None)
            if v is not None:
                kwargs[opt] = v
        import torch
        try:
            fn.run(*args, grid=grid, warmup=False, **kwargs)
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001 - reported, the program goes on
            self.inductor_errors.append(f"{fn.__name__}: " + "".join(
                traceback.format_exception_only(type(e), e)).strip()[-400:])

    @staticmethod
    def hash_of(ck):
        return getattr(ck, "hash", None) or hashlib.sha256(ck.asm.get("ttgir", "").encode()).hexdigest()

    @staticmethod
    def scalars(fn_self, args, kwargs):
        """The launch's non-tensor arguments by name: what may differ between
        launches that share one binary."""
        import torch
        named = bound_arguments(fn_self, args, kwargs)
        return {k: v for k, v in named.items()
                if isinstance(v, (int, float, bool)) and not torch.is_tensor(v)}

    def reuse_candidate(self, fn_self, args, kwargs):
        """True when this launch's scalars differ from every kept launch of the
        function (checked after the launch, by the binary it ran)."""
        sc = self.scalars(fn_self, args, kwargs)
        recs = [rec for rec in self.kernels.values() if rec["fn"] is fn_self]
        if all(len(rec["reuses"]) >= self.max_reuse for rec in recs) and \
                self.seen_fn.get(id(fn_self), 0) >= self.max_per_fn:
            return None
        for rec in recs:
            seen = [self.scalars(fn_self, *rec["snap"].materialize_plain())] + [
                r["scalars"] for r in rec["reuses"]]
            if sc in seen:
                return None
        return sc

    def note_reuse(self, h, snap, grid, scalars):
        rec = self.kernels[h]
        if snap is None or len(rec["reuses"]) >= self.max_reuse or snap.nbytes() > self.max_bytes:
            return
        rec["reuses"].append(dict(snap=snap, grid=grid, scalars=scalars))

    @staticmethod
    def is_gluon(fn_self):
        return type(fn_self).__name__.startswith("Gluon")


# ---------------------------------------------------------------------------
# Checking one kernel.

def sha256_bytes(b):
    return hashlib.sha256(b if isinstance(b, bytes) else b.encode()).hexdigest()


def write(path, data):
    path.write_bytes(data) if isinstance(data, bytes) else path.write_text(data)


def tool(args, tilexform, cwd=None):
    p = subprocess.run([tilexform] + args, capture_output=True, text=True, cwd=cwd)
    doc = None
    try:
        doc = json.loads(p.stdout) if p.stdout.strip().startswith("{") else None
    except json.JSONDecodeError:
        doc = None
    return p.returncode, doc, p.stdout, p.stderr


def resolve_grid(grid, fn, args, kwargs):
    if not callable(grid):
        return tuple(grid) if isinstance(grid, (list, tuple)) else (grid,)
    params = list(inspect.signature(fn.fn).parameters)
    meta = dict(zip(params, args))
    meta.update(kwargs)
    g = grid(meta)
    return tuple(g) if isinstance(g, (list, tuple)) else (g,)


def bound_arguments(fn, args, kwargs):
    params = inspect.signature(fn.fn).parameters
    named = dict(zip(params, args))
    named.update({k: v for k, v in kwargs.items() if k in params})
    return named


def load_module(path):
    spec = importlib.util.spec_from_file_location(path.stem + "_anchor", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def sass_of(cubin, out):
    exe = shutil.which("cuobjdump")
    if not exe or not cubin.exists():
        return None
    p = subprocess.run([exe, "-sass", str(cubin)], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    out.write_text(p.stdout)
    return out


def dump_plain(ck, d):
    asm = ck.asm
    names = {"ttir": "plain.ttir", "ttgir": "plain.ttgir", "ptx": "plain.ptx", "cubin": "plain.cubin",
             "amdgcn": "plain.amdgcn", "hsaco": "plain.hsaco", "llir": "plain.llir"}
    for k, n in names.items():
        if k in asm and asm[k]:
            write(d / n, asm[k])
    md = getattr(ck, "metadata", None)
    if md is not None:
        try:
            m = md._asdict() if hasattr(md, "_asdict") else dict(md)
            (d / "plain.json").write_text(json.dumps(m, default=str, indent=1))
        except Exception:  # noqa: BLE001
            pass
    sass_of(d / "plain.cubin", d / "plain.sass")


def time_pair(run_plain, run_anchor, rounds, rep, extend_below=None):
    """Interleaved rounds, alternating which arm goes first; each sample the
    median of a CUDA-graph benchmark, so Python's launch cost is not timed.
    Both arms are given the same buffers, so neither gains from where its
    tensors lie (L2 slices, DRAM channels). With `extend_below`, a pair whose
    median ratio is below it after `rounds` rounds gets twice as many more:
    every sample is kept and reported, the ratio is the median of all."""
    import triton.testing
    samples = {"plain": [], "anchor": []}
    order = []

    def take(n):
        for _ in range(n):
            arms = ["plain", "anchor"] if len(order) % 2 == 0 else ["anchor", "plain"]
            order.append(arms)
            for arm in arms:
                f = run_plain if arm == "plain" else run_anchor
                samples[arm].append(triton.testing.do_bench_cudagraph(f, rep=rep))

    take(rounds)
    if extend_below is not None and rounds > 0:
        med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
        if med(samples["plain"]) < extend_below * med(samples["anchor"]):
            take(2 * rounds)
    return samples, order


CUDA_LOST = []  # the kernel (and step) whose device fault ended GPU checks
MIN_RATIO = [0.98]


class GpuLock:
    """A readers-writer lock on a file shared by several harness runs on one
    GPU (a library or shard each): running programs and checks hold it
    shared, timing holds it exclusive, so no kernel of another run is on the
    GPU while a pair is timed. A second file is the turnstile that gives a
    waiting writer priority over new readers."""

    def __init__(self, path=None):
        self.path = path
        self.f = self.t = None

    def _open(self):
        if self.f is None:
            self.f = open(self.path, "a")
            self.t = open(self.path + ".turn", "a")

    @contextlib.contextmanager
    def shared(self):
        if not self.path:
            yield
            return
        self._open()
        fcntl.flock(self.t, fcntl.LOCK_EX)
        fcntl.flock(self.t, fcntl.LOCK_UN)
        fcntl.flock(self.f, fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(self.f, fcntl.LOCK_UN)

    @contextlib.contextmanager
    def exclusive(self):
        if not self.path:
            yield
            return
        self._open()
        fcntl.flock(self.t, fcntl.LOCK_EX)
        try:
            fcntl.flock(self.f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self.f, fcntl.LOCK_UN)
        finally:
            fcntl.flock(self.t, fcntl.LOCK_UN)


LOCK = GpuLock()


def check_reuse(rec, ru, mod, lp, h, ca):
    """A later launch of plain's binary with other scalar arguments (a length
    plain did not specialise): plain and the anchor run there from the same
    state; the anchor must be bit-exact and, where plain reused its binary,
    reuse its own first binary too."""
    import torch
    fn = rec["fn"]
    e = dict(arguments=ru["scalars"])
    try:
        a1, k1 = ru["snap"].materialize()
        a3, k3 = ru["snap"].materialize()
        ckp = fn.run(*a1, grid=ru["grid"], warmup=False, **k1)
        torch.cuda.synchronize()
        e["plain_same_binary"] = Capture.hash_of(ckp) == h
        named = bound_arguments(fn, a3, k3)
        grid = tuple(resolve_grid(ru["grid"], fn, a3, k3))
        ca2 = mod.launch(grid, **{p: named[p] for p in lp})
        torch.cuda.synchronize()
        if ca is not None and ca2 is not None:
            e["anchor_same_binary"] = Capture.hash_of(ca2) == Capture.hash_of(ca)
        eq, diff, names = compare(tensors_of(a1, k1), tensors_of(a3, k3))
        e["bit_exact"] = eq
        if not eq:
            e["max_abs_diff"], e["differs_in"] = diff, names
    except Exception as ex:  # noqa: BLE001
        e["error"] = "".join(traceback.format_exception_only(type(ex), ex)).strip()[-800:]
        if "CUDA error" in e["error"]:
            raise
    return e


def ops_of(ttgir):
    """The ops of a TTGIR's functions in order, each as its name and its
    types with every layout alias replaced by its definition: what two
    compilations share when they differ only in value names, locations and
    the numbering of aliases."""
    import re
    aliases = {}
    for m in re.finditer(r"^(#[\w.]+) = (.*)$", ttgir, re.M):
        aliases[m.group(1)] = m.group(2).strip()
    unalias = lambda t: re.sub(r"#[A-Za-z_][\w.]*", lambda m: aliases.get(m.group(0), m.group(0)), t)  # noqa: E731
    out = []
    for line in ttgir.split("\n"):
        t = line.strip()
        if not t or t.startswith(("#", "module", "}", "^", "loc")) or t.startswith("tt.func"):
            continue
        t = re.sub(r"\s*loc\([^)]*\)\s*$", "", t)
        m = re.match(r"(?:%[\w#:, %]+ = )?\"?([a-z_][\w]*\.[\w.]+)\"?(.*)$", t)
        if not m:
            continue
        types = t.rsplit(" : ", 1)[1] if " : " in t else ""
        out.append((m.group(1), unalias(re.sub(r"#loc\d*", "", types))))
    return out


def same_ops(a, b):
    """(same ops, same order): the two op lists hold the same ops (name and
    types, as a multiset), and in the same order apart from where MLIR put
    its constants."""
    from collections import Counter
    same = Counter(a) == Counter(b)
    strip = lambda xs: [x for x in xs if x[0] != "arith.constant"]  # noqa: E731
    return same, same and strip(a) == strip(b)


def source_lines(ttgir, kernel):
    """The source's size: the kernel's @jit function and the @jit helpers the
    dump's locations land in, counted as scripts/anchor-size.py counts them."""
    import re
    sizes = load_anchor_size()
    files = {}
    for m in re.finditer(r'"([^"]+\.py)":(\d+):\d+', ttgir):
        files.setdefault(m.group(1), set()).add(int(m.group(2)))
    total, found = 0, False
    for path, lines_named in files.items():
        if not os.path.exists(path):
            continue
        fns, lines = sizes.functions(path)
        for name, (f, l) in fns.items():
            if name == kernel or any(f <= n <= l for n in lines_named):
                found = found or name == kernel
                total += len(sizes.code_lines(lines[f - 1:l]))
    return total if found else None


_ANCHOR_SIZE = []


def load_anchor_size():
    if not _ANCHOR_SIZE:
        spec = importlib.util.spec_from_file_location("anchor_size", HERE / "scripts" / "anchor-size.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _ANCHOR_SIZE.append(mod)
    return _ANCHOR_SIZE[0]


def check_readable(rec, d, opts, fn, snap, grid, plain_tensors, named_params):
    """The readable anchor of the same dump: it must compile, be bit-exact
    where the faithful one is, verify PASS, and compile to the faithful
    anchor's TTGIR op for op. Its size beside the source's is recorded.
    Returns the record and the readable anchor's launch (for its timing), or
    None where it did not run."""
    import torch
    r = {}
    call = None
    code, doc, _, err = tool(["transcribe", str(d / "plain.ttgir"), "--style", "readable", "--out",
                              str(d / "readable.py"), "--force", "--format", "json"], opts.tilexform)
    if code != 0:
        r["transcribe"] = doc.get("verdict") if doc else f"exit {code}: {err.strip()[-300:]}"
        return r, None
    # How many @gluon.jit helpers it writes for the source's inlined ones
    # (a row with the field was checked by a build that writes them).
    r["helpers"] = len(doc.get("helpers", [])) if doc else 0
    try:
        sizes = load_anchor_size()
        r["anchor_lines"] = sizes.anchor_size((d / "readable.py").read_text())
        if (d / "anchor.py").exists():
            r["faithful_lines"] = sizes.anchor_size((d / "anchor.py").read_text())
        src = source_lines((d / "plain.ttgir").read_text(), fn.__name__)
        if src:
            r["source_lines"] = src
            r["ratio_to_source"] = round(r["anchor_lines"] / src, 2)
        mod = load_module(d / "readable.py")
        params = [p for p in inspect.signature(mod.launch).parameters][1:]
        a, k = snap.materialize()
        named = bound_arguments(fn, a, k)
        cr = mod.launch(grid, **{p: named[p] for p in params})
        torch.cuda.synchronize()
        r["compiled"] = True
        call = lambda named: mod.launch(grid, **{p: named[p] for p in params})  # noqa: E731
        eq, diff, _ = compare(plain_tensors, tensors_of(a, k))
        r["bit_exact"] = eq
        if cr is not None and "ttgir" in cr.asm:
            (d / "readable.ttgir").write_text(cr.asm["ttgir"])
            if (d / "anchor.ttgir").exists():
                r["same_ops_as_faithful"], r["same_order_as_faithful"] = same_ops(
                    ops_of(cr.asm["ttgir"]), ops_of((d / "anchor.ttgir").read_text()))
            code, vdoc, _, err = tool(["verify", str(d / "plain.ttgir"), str(d / "readable.ttgir"),
                                       "--format", "json"], opts.tilexform)
            r["verify"] = vdoc.get("verdict") if vdoc else f"exit {code}"
    except Exception as e:  # noqa: BLE001
        r.setdefault("compiled", False)
        r["error"] = "".join(traceback.format_exception_only(type(e), e)).strip()[-800:]
        if "CUDA error" in r["error"]:
            CUDA_LOST.append(f"{fn.__name__} (the readable anchor)")
        call = None
    return r, call


def has_helpers(rec, out, opts):
    """Whether the readable anchor of this kernel's dump calls helpers."""
    d = out / "helpers" / f"{rec['fn'].__name__}-{rec['ck'].hash[:10]}"
    d.mkdir(parents=True, exist_ok=True)
    ttgir = rec["ck"].asm.get("ttgir")
    if not ttgir:
        return False
    write(d / "plain.ttgir", ttgir)
    code, doc, _, _ = tool(["transcribe", str(d / "plain.ttgir"), "--style", "readable", "--format",
                            "json"], opts.tilexform)
    return bool(doc and doc.get("helpers"))


def check_kernel(rec, out, opts):
    """Checks one captured kernel on this GPU, then times it."""
    timing = []
    with LOCK.shared():
        r = check_kernel_runs(rec, out, opts, timing)
    for t in timing:
        t()
    return r


def check_kernel_runs(rec, out, opts, timing):
    import torch
    fn, ck = rec["fn"], rec["ck"]
    name = fn.__name__
    h = getattr(ck, "hash", "") or ""
    d = out / "kernels" / f"{name}-{h[:10]}"
    d.mkdir(parents=True, exist_ok=True)
    r = dict(kernel=name, hash=h, label=opts.label, module=getattr(fn.fn, "__module__", ""),
             source=inspect.getsourcefile(fn.fn) if hasattr(fn, "fn") else "")
    dump_plain(ck, d)
    snap = rec["snap"]
    args0, kwargs0 = snap.materialize()
    r["grid"] = list(resolve_grid(rec["grid"], fn, args0, kwargs0))
    r["launch_options"] = {k: v for k, v in kwargs0.items()
                           if k not in inspect.signature(fn.fn).parameters and
                           isinstance(v, (int, float, str, bool))}

    # Transcribe.
    code, doc, _, err = tool(["transcribe", str(d / "plain.ttgir"), "--style", "faithful", "--out", str(d / "anchor.py"),
                              "--force", "--format", "json"], opts.tilexform)
    r["transcribe"] = doc.get("verdict") if doc else f"exit {code}"
    if doc and doc.get("blocked_by"):
        r["blocked_by"] = sorted({b["what"] for b in doc["blocked_by"]})
    if code != 0:
        r["transcribe_error"] = err.strip()[-500:]
        return r

    # Run plain twice and the anchor once, each from the pre-launch state.
    def launch_plain(a, k):
        return rec["fn"].run(*a, grid=rec["grid"], warmup=False, **k)

    step = "plain's reruns"
    try:
        a1, k1 = snap.materialize()
        a2, k2 = snap.materialize()
        a3, k3 = snap.materialize()
        launch_plain(a1, k1)
        torch.cuda.synchronize()
        launch_plain(a2, k2)
        torch.cuda.synchronize()
        step = "the anchor's launch"
        t1, t2 = tensors_of(a1, k1), tensors_of(a2, k2)
        det, spread, _ = compare(t1, t2)
        r["plain_deterministic"] = det
        if not det:
            r["plain_spread"] = spread
        mod = load_module(d / "anchor.py")
        lp = [p for p in inspect.signature(mod.launch).parameters][1:]
        named3 = bound_arguments(fn, a3, k3)
        missing = [p for p in lp if p not in named3]
        if missing:
            raise RuntimeError(f"the anchor's launch takes {missing}, which plain's launch does not name")
        grid = tuple(r["grid"])
        anchor_call = lambda named: mod.launch(grid, **{p: named[p] for p in lp})  # noqa: E731
        ca = anchor_call(named3)
        torch.cuda.synchronize()
        r["compiled"] = True
        t3 = tensors_of(a3, k3)
        eq, diff, names = compare(t1, t3)
        r["bit_exact"] = eq
        if not eq:
            r["max_abs_diff"] = diff
            r["differs_in"] = names
            if not det:
                r["within_plain_spread"] = diff <= spread
        if ca is not None:
            for k, n in {"ttgir": "anchor.ttgir", "cubin": "anchor.cubin", "ptx": "anchor.ptx",
                         "amdgcn": "anchor.amdgcn", "hsaco": "anchor.hsaco"}.items():
                if k in ca.asm and ca.asm[k]:
                    write(d / n, ca.asm[k])
            sass_of(d / "anchor.cubin", d / "anchor.sass")
        if rec.get("reuses"):
            step = "the launches that reuse plain's binary"
            r["reuse"] = [check_reuse(rec, ru, mod, lp, h, ca) for ru in rec["reuses"]]
    except Exception as e:  # noqa: BLE001 - every failure is a result
        r.setdefault("compiled", False)
        r["failed_in"] = step
        r["error"] = "".join(traceback.format_exception_only(type(e), e)).strip()[-1500:]
        if "CUDA error" in r["error"]:
            # A device fault leaves the CUDA context unusable for the rest of
            # the process: later kernels are compiled for --compile-only
            # targets but not run here.
            CUDA_LOST.append(f"{name} ({step})")
        return r

    readable_call = None
    if opts.readable:
        r["readable"], readable_call = check_readable(rec, d, opts, fn, snap, grid, t1, named_params=lp)

    # Verify and audit from the artifacts.
    code, doc, _, err = tool(["verify", str(d / "plain.ttgir"), str(d / "anchor.ttgir"),
                              "--format", "json"], opts.tilexform)
    r["verify"] = doc.get("verdict") if doc else f"exit {code}: {err.strip()[-300:]}"
    if doc and doc.get("signature"):
        sig = doc["signature"]
        r["signature"] = "same" if sig.get("same") else [
            f'{x["argument"]}: plain {x["plain"]}; anchor {x["anchor"]}' for x in sig.get("differences", [])]
    if (d / "plain.sass").exists() and (d / "anchor.sass").exists():
        code, doc, _, err = tool(["audit", "--diff", str(d / "plain.sass"), str(d / "anchor.sass"),
                                  "--ttgir", str(d / "plain.ttgir"), str(d / "anchor.ttgir"),
                                  "--format", "json"], opts.tilexform)
        r["audit_diff"] = doc.get("verdict") if doc else f"exit {code}: {err.strip()[-300:]}"
        if doc and doc.get("likely_cause"):
            r["audit_cause"] = doc["likely_cause"]

    # Times, samples with fingerprints, parity-gate: after the checks, with
    # the GPU to itself (check_kernel runs it).
    if opts.rounds > 0:
        timing.append(lambda: time_kernel(r, d, opts, fn, snap, launch_plain, anchor_call))
        if readable_call is not None:
            timing.append(lambda: time_readable(r["readable"], opts, fn, snap, launch_plain,
                                                readable_call))
    return r


def time_readable(rr, opts, fn, snap, launch_plain, readable_call):
    """plain against the readable anchor, timed as the faithful one is
    (interleaved rounds of CUDA-graph medians): `plain_ms`, `readable_ms` and
    `ratio` in the readable record."""
    try:
        ap, kp = snap.materialize()
        named_a = bound_arguments(fn, ap, kp)
        with LOCK.exclusive():
            samples, _ = time_pair(lambda: launch_plain(ap, kp), lambda: readable_call(named_a),
                                   opts.rounds, opts.rep, extend_below=opts.min_ratio + 0.005)
        med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
        rr["plain_ms"], rr["readable_ms"] = med(samples["plain"]), med(samples["anchor"])
        rr["ratio"] = rr["plain_ms"] / rr["readable_ms"] if rr["readable_ms"] else None
    except Exception as e:  # noqa: BLE001
        rr["timing_error"] = "".join(traceback.format_exception_only(type(e), e)).strip()[-800:]


def time_kernel(r, d, opts, fn, snap, launch_plain, anchor_call):
    try:
        ap, kp = snap.materialize()
        named_a = bound_arguments(fn, ap, kp)
        with LOCK.exclusive():
            samples, order = time_pair(lambda: launch_plain(ap, kp), lambda: anchor_call(named_a),
                                       opts.rounds, opts.rep, extend_below=opts.min_ratio + 0.005)
        med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
        r["plain_ms"], r["anchor_ms"] = med(samples["plain"]), med(samples["anchor"])
        r["ratio"] = r["plain_ms"] / r["anchor_ms"] if r["anchor_ms"] else None
        fp = {}
        for arm in ("plain", "anchor"):
            b = d / f"{arm}.cubin"
            if not b.exists():
                b = d / f"{arm}.hsaco"
            if b.exists():
                fp[arm] = sha256_bytes(b.read_bytes())
        (d / "samples.json").write_text(json.dumps(
            {"samples_ms": samples, "round_order": order, "fingerprints": fp}, indent=1))
        code, doc, _, err = tool(["parity-gate", "--champion-samples", f"{d / 'samples.json'}:plain",
                                  "--anchor-samples", f"{d / 'samples.json'}:anchor",
                                  "--min-ratio", str(opts.min_ratio), "--format", "json"],
                                 opts.tilexform)
        r["parity_gate"] = doc.get("verdict") if doc else f"exit {code}: {err.strip()[-300:]}"
    except Exception as e:  # noqa: BLE001
        r["timing_error"] = "".join(traceback.format_exception_only(type(e), e)).strip()[-800:]


# ---------------------------------------------------------------------------
# Compile-only: the same kernel for another target, from its own source.

def target_of(arch):
    from triton.backends.compiler import GPUTarget
    if arch.startswith("sm"):
        return GPUTarget("cuda", int(arch[2:].lstrip("_").rstrip("a")), 32)
    return GPUTarget("hip", arch, 64)


def compile_stages(src, target, options, want):
    """Compiles `src` for `target`, returning {stage: text}; when a late stage
    needs a tool this machine lacks (a linker), the stages before it."""
    import triton
    try:
        ck = triton.compile(src, target=target, options=options)
        return {k: v for k, v in ck.asm.items() if k in want}, None
    except Exception as e:  # noqa: BLE001
        late = "".join(traceback.format_exception_only(type(e), e)).strip()[-600:]
    from triton.compiler.compiler import make_backend
    from triton._C.libtriton import ir
    backend = make_backend(target)
    opts = backend.parse_options(options)
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    codegen_fns = backend.get_codegen_implementation(opts)
    module_map = backend.get_module_map()
    module = src.make_ir(target, opts, codegen_fns, module_map, context)
    stages = {}
    backend.add_stages(stages, opts, src.language)
    metadata = {}
    got = {}
    for stage, f in stages.items():
        try:
            module = f(module, metadata)
        except Exception as e:  # noqa: BLE001
            got["_error"] = late + " | " + "".join(traceback.format_exception_only(type(e), e)).strip()[-400:]
            break
        if stage in want:
            got[stage] = module if isinstance(module, (str, bytes)) else str(module)
    return got, got.pop("_error", None) if "_error" in got else late


TF32_PRECISIONS = ("tf32", "tf32x3")


@contextlib.contextmanager
def precision_as(fn, constexprs, precision):
    """Rewrites the kernel's dot precision to `precision` where the launch
    chose tf32: a constexpr argument whose value is a tf32 precision, and a
    module-level `tl.constexpr` one the kernel's module holds. Yields the
    rewritten constexprs (None when nothing was tf32) and restores the
    module's globals on leaving."""
    import triton.language as tl
    swapped = {k: (precision if v in TF32_PRECISIONS else v) for k, v in (constexprs or {}).items()}
    changed = swapped != (constexprs or {})
    glob = getattr(getattr(fn, "fn", None), "__globals__", {})
    saved = {k: v for k, v in glob.items()
             if isinstance(v, tl.constexpr) and getattr(v, "value", None) in TF32_PRECISIONS}
    try:
        for k in saved:
            glob[k] = tl.constexpr(precision)
        yield swapped if (changed or saved) else None
    finally:
        glob.update(saved)


def check_compile_only(rec, out, opts, arch):
    from triton.compiler import ASTSource
    try:
        from triton.experimental.gluon._runtime import GluonASTSource
    except ImportError:
        GluonASTSource = ASTSource
    fn, ck = rec["fn"], rec["ck"]
    name = fn.__name__
    h = getattr(ck, "hash", "") or ""
    d = out / arch / f"{name}-{h[:10]}"
    d.mkdir(parents=True, exist_ok=True)
    r = dict(kernel=name, hash=h, label=opts.label, arch=arch)
    src0 = ck.src
    options = {}
    md = ck.metadata
    for k in ("num_warps", "num_stages", "num_ctas"):
        if hasattr(md, k):
            options[k] = getattr(md, k)
    for k, v in rec["snap"].kwargs.items():
        if k in ("waves_per_eu", "matrix_instr_nonkdim", "kpack") and v[0] == "value":
            options[k] = v[1]
    target = target_of(arch)
    listing = "amdgcn" if target.backend == "hip" else "ptx"
    constexprs = getattr(src0, "constants", None) or getattr(src0, "constexprs", None)
    try:
        def plain_stages(consts):
            # A front-end error (the kernel's own code refusing the target)
            # comes out of make_ir, before any stage.
            try:
                src = ASTSource(fn=fn, signature=src0.signature, constexprs=consts, attrs=src0.attrs)
                return compile_stages(src, target, options, {"ttgir", "amdgcn", "ptx"})
            except Exception as e:  # noqa: BLE001
                return {}, "".join(traceback.format_exception_only(type(e), e)).strip()[-1500:]

        got, late = plain_stages(constexprs)
        if "ttgir" not in got and target.backend == "hip" and late and "tf32" in late:
            # A library picks its dots' precision for the GPU it runs on
            # (flash-linear-attention: 'tf32' where NVIDIA has it, 'ieee'
            # elsewhere); the NVIDIA launch's choice is not one an AMD run
            # would make. Compile what the library would have picked there.
            with precision_as(fn, constexprs, "ieee") as swapped:
                if swapped is not None:
                    got, late = plain_stages(swapped)
                    r["precision"] = "tf32 -> ieee (the library's choice where tf32 is not supported)"
        if "ttgir" not in got:
            raise RuntimeError(f"plain did not compile for {arch}: {late}")
        (d / "plain.ttgir").write_text(got["ttgir"])
        if listing in got:
            (d / f"plain.{listing}").write_text(got[listing])
        elif late:
            r["plain_listing_error"] = late[-400:]
    except Exception as e:  # noqa: BLE001
        r["plain_compiled"] = False
        r["error"] = "".join(traceback.format_exception_only(type(e), e)).strip()[-1500:]
        return r
    r["plain_compiled"] = True
    code, doc, _, err = tool(["transcribe", str(d / "plain.ttgir"), "--style", "faithful", "--out", str(d / "anchor.py"),
                              "--force", "--format", "json"], opts.tilexform)
    r["transcribe"] = doc.get("verdict") if doc else f"exit {code}"
    if doc and doc.get("blocked_by"):
        r["blocked_by"] = sorted({b["what"] for b in doc["blocked_by"]})
    if code != 0:
        r["transcribe_error"] = err.strip()[-500:]
        return r
    try:
        mod = load_module(d / "anchor.py")
        # The anchor's kernel by the name transcribe gave it (a library's
        # kernels are often private: `_rms_norm_forward_kernel`).
        kernel = getattr(mod, doc.get("anchor_kernel") or name, None)
        if kernel is None or not Capture.is_gluon(kernel):
            raise RuntimeError(f"the anchor module defines no Gluon kernel {doc.get('anchor_kernel')!r}")
        params = list(inspect.signature(kernel.fn).parameters)
        plain_params = list(inspect.signature(fn.fn).parameters)
        sig = {p: src0.signature[p] for p in params}
        attrs = {}
        for key, val in (src0.attrs or {}).items():
            pname = plain_params[key[0]] if len(key) == 1 and key[0] < len(plain_params) else None
            if pname in params:
                attrs[(params.index(pname),)] = val
        asrc = GluonASTSource(fn=kernel, signature=sig, constexprs={}, attrs=attrs)
        got, late = compile_stages(asrc, target, {"num_warps": mod.NUM_WARPS}, {"ttgir", "amdgcn", "ptx"})
        if "ttgir" not in got:
            raise RuntimeError(f"the anchor did not compile for {arch}: {late}")
        (d / "anchor.ttgir").write_text(got["ttgir"])
        if listing in got:
            (d / f"anchor.{listing}").write_text(got[listing])
        elif late:
            r["anchor_listing_error"] = late[-400:]
        r["compiled"] = True
    except Exception as e:  # noqa: BLE001
        r["compiled"] = False
        r["error"] = "".join(traceback.format_exception_only(type(e), e)).strip()[-1500:]
        return r
    code, doc, _, err = tool(["verify", str(d / "plain.ttgir"), str(d / "anchor.ttgir"), "--format",
                              "json"], opts.tilexform)
    r["verify"] = doc.get("verdict") if doc else f"exit {code}: {err.strip()[-300:]}"
    if (d / f"plain.{listing}").exists() and (d / f"anchor.{listing}").exists():
        code, doc, _, err = tool(["audit", "--diff", str(d / f"plain.{listing}"),
                                  str(d / f"anchor.{listing}"), "--ttgir", str(d / "plain.ttgir"),
                                  str(d / "anchor.ttgir"), "--format", "json"], opts.tilexform)
        r["audit_diff"] = doc.get("verdict") if doc else f"exit {code}: {err.strip()[-300:]}"
        if doc and doc.get("likely_cause"):
            r["audit_cause"] = doc["likely_cause"]
    return r


# ---------------------------------------------------------------------------

def summarize(rows):
    n = len(rows)
    count = lambda k, v: sum(1 for r in rows if r.get(k) == v)  # noqa: E731
    ratios = sorted(r["ratio"] for r in rows if r.get("ratio"))
    s = dict(kernels=n, transcribed=count("transcribe", "TRANSCRIBED"), compiled=count("compiled", True),
             bit_exact=count("bit_exact", True), verify_pass=count("verify", "PASS"),
             verify_reconciled=count("verify", "RECONCILED"),
             audit_same=count("audit_diff", "SAME"), parity_cleared=count("parity_gate", "CLEARED"),
             not_run=sum(1 for r in rows if r.get("not_run")),
             plain_did_not_compile=count("plain_compiled", False))
    if ratios:
        s["ratio"] = dict(min=ratios[0], median=ratios[len(ratios) // 2], max=ratios[-1],
                          at_least_min_ratio=sum(1 for x in ratios if x >= MIN_RATIO[0]), n=len(ratios))
    rd = [r["readable"] for r in rows if isinstance(r.get("readable"), dict)]
    if rd:
        sizes = sorted(x["ratio_to_source"] for x in rd if x.get("ratio_to_source"))
        s["readable"] = dict(checked=len(rd), compiled=sum(1 for x in rd if x.get("compiled")),
                             bit_exact=sum(1 for x in rd if x.get("bit_exact")),
                             verify_pass=sum(1 for x in rd if x.get("verify") == "PASS"),
                             verify_reconciled=sum(1 for x in rd if x.get("verify") == "RECONCILED"),
                             same_ops_as_faithful=sum(1 for x in rd if x.get("same_ops_as_faithful")),
                             same_order_as_faithful=sum(1 for x in rd if x.get("same_order_as_faithful")))
        if sizes:
            s["readable"]["lines_over_source"] = dict(min=sizes[0], median=sizes[len(sizes) // 2],
                                                      max=sizes[-1], n=len(sizes))
        rratios = sorted(x["ratio"] for x in rd if x.get("ratio"))
        if rratios:
            s["readable"]["ratio"] = dict(min=rratios[0], median=rratios[len(rratios) // 2],
                                          max=rratios[-1], n=len(rratios),
                                          at_least_min_ratio=sum(1 for x in rratios if x >= MIN_RATIO[0]))
    reuses = [e for r in rows for e in r.get("reuse", [])]
    if reuses:
        s["reuse"] = dict(launches=len(reuses),
                          plain_same_binary=sum(1 for e in reuses if e.get("plain_same_binary")),
                          anchor_same_binary=sum(1 for e in reuses if e.get("anchor_same_binary")),
                          bit_exact=sum(1 for e in reuses if e.get("bit_exact")))
    blockers = {}
    for r in rows:
        for b in r.get("blocked_by", []):
            blockers[b] = blockers.get(b, 0) + 1
    s["blockers"] = dict(sorted(blockers.items(), key=lambda kv: -kv[1]))
    return s


def helper_checked_hashes(path):
    """The kernel hashes of an earlier round log whose readable anchor was
    checked by a build that writes helpers (its row says how many)."""
    text = pathlib.Path(path).read_text()
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    if isinstance(doc, dict) and "libraries" in doc:
        rows = [k for lib in doc["libraries"] for k in lib.get("kernels", [])]
    else:
        rows = []
        for line in text.splitlines():
            try:
                rows.append(json.loads(line))
            except ValueError:
                continue
    return {r.get("hash") for r in rows
            if isinstance(r, dict) and isinstance(r.get("readable"), dict) and "helpers" in r["readable"]}


def shard_of(kernel_hash, n):
    """The shard (0..n-1) a kernel's checks fall in: the same in every run."""
    return int(hashlib.sha256(kernel_hash.encode()).hexdigest()[:15], 16) % n


def checked_hashes(path):
    """The kernel hashes an earlier run checked: a round log (one JSON object
    a line) or a results file such as tests/transcribe/real/device-results.json
    (libraries[].kernels[]), whose hashes are prefixes of the full ones."""
    text = pathlib.Path(path).read_text()
    hashes = set()
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    if isinstance(doc, dict) and "libraries" in doc:
        for lib in doc["libraries"]:
            hashes.update(k["hash"] for k in lib.get("kernels", []) if k.get("hash"))
        return hashes
    for line in text.splitlines():
        try:
            h = json.loads(line).get("hash")
        except (ValueError, AttributeError):
            continue
        if h:
            hashes.add(h)
    return hashes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="transcribe-check-out", help="output folder")
    ap.add_argument("--tilexform", default=os.environ.get("TILEXFORM") or
                    str(HERE / "build" / "tools" / "tilexform" / "tilexform"))
    ap.add_argument("--compile-only", action="append", default=[], metavar="ARCH",
                    help="also compile every captured kernel and its anchor for ARCH (repeatable)")
    ap.add_argument("--label", default="", help="a name for the library in the round log")
    ap.add_argument("--rounds", type=int, default=10, help="interleaved timing rounds (0: no timing)")
    ap.add_argument("--rep", type=int, default=20, help="milliseconds per CUDA-graph benchmark")
    ap.add_argument("--min-ratio", type=float, default=0.98)
    ap.add_argument("--max-bytes", type=float, default=2e9, help="largest pre-launch state kept")
    ap.add_argument("--max-per-kernel", type=int, default=4,
                    help="launches of one kernel function whose state is kept (distinct binaries)")
    ap.add_argument("--program-seconds", type=float, default=0,
                    help="stop the program after this long (0: no limit) and check what it launched")
    ap.add_argument("--check-seconds", type=float, default=0,
                    help="check no further kernel after this long (0: no limit); the rest are "
                         "reported as not checked")
    ap.add_argument("--skip-checked", metavar="ROUND_LOG",
                    help="do not check again the kernels (by hash or hash prefix) of an earlier run's round-log.jsonl or of a results file such as tests/transcribe/real/device-results.json")
    ap.add_argument("--recheck-helpers", action="store_true",
                    help="with --skip-checked: check again, on this GPU only, a skipped kernel "
                         "whose readable anchor calls helpers (the source's inlined @jit "
                         "functions) unless its row there was checked by a build that writes "
                         "them (readable.helpers): what a transcriber change to helpers can move")
    ap.add_argument("--first-config", action="store_true",
                    help="autotuned kernels run the first of their (pruned) configs instead of "
                         "benchmarking every one: faster over a whole library")
    ap.add_argument("--no-gpu-run", action="store_true",
                    help="with --compile-only: do not run anything on this GPU, only compile")
    ap.add_argument("--timing-lock", metavar="FILE",
                    help="a lock FILE shared by several runs on one GPU (one per library or shard): "
                         "programs and checks hold it shared, timing exclusive, so no other run's "
                         "kernel is on the GPU while a pair is timed")
    ap.add_argument("--shard", metavar="I/N",
                    help="check only the kernels whose hash is I modulo N (N runs of one program "
                         "share a library's checks; by hash, not by capture order, which can differ "
                         "between runs, so that each kernel is in exactly one shard)")
    ap.add_argument("--max-reuse", type=int, default=2,
                    help="later launches of a captured binary with other scalar arguments whose state is "
                         "kept, to check that the anchor reuses its binary there too and stays bit-exact")
    ap.add_argument("--readable", action="store_true",
                    help="also check the readable anchor (--style readable): it compiles, is bit-exact, "
                         "verifies PASS and compiles to the faithful anchor's TTGIR op for op; its size "
                         "beside the source's is recorded")
    ap.add_argument("program", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    prog = opts.program[1:] if opts.program[:1] == ["--"] else opts.program
    if not prog:
        ap.error("give the program to run after --")
    if not shutil.which(opts.tilexform) and not pathlib.Path(opts.tilexform).exists():
        ap.error(f"no tilexform at {opts.tilexform} (--tilexform)")
    out = pathlib.Path(opts.out)
    out.mkdir(parents=True, exist_ok=True)

    MIN_RATIO[0] = opts.min_ratio
    shard = None
    if opts.shard:
        try:
            i, n = (int(x) for x in opts.shard.split("/"))
            if not 0 <= i < n:
                raise ValueError
            shard = (i, n)
        except ValueError:
            ap.error(f"--shard {opts.shard}: expected I/N with 0 <= I < N")
    cap = Capture(opts.max_bytes, opts.max_per_kernel, opts.max_reuse)
    cap.install(first_config=opts.first_config)
    program_error = None
    t0 = time.time()
    argv = sys.argv

    class ProgramTimeout(BaseException):
        pass

    if opts.program_seconds > 0:
        import signal

        def stop(*_):
            raise ProgramTimeout()

        signal.signal(signal.SIGALRM, stop)
        signal.setitimer(signal.ITIMER_REAL, opts.program_seconds)
    LOCK.path = opts.timing_lock
    program_lock = LOCK.shared()
    program_lock.__enter__()
    try:
        if prog[0] == "-m":
            sys.argv = prog[1:]
            runpy.run_module(prog[1], run_name="__main__", alter_sys=True)
        elif prog[0] == "-c":
            sys.argv = ["-c"] + prog[2:]
            exec(compile(prog[1], "<program>", "exec"), {"__name__": "__main__"})
        else:
            sys.argv = prog
            sys.path.insert(0, str(pathlib.Path(prog[0]).resolve().parent))
            runpy.run_path(prog[0], run_name="__main__")
    except SystemExit as e:
        if e.code not in (0, None):
            program_error = f"SystemExit({e.code})"
    except BaseException as e:  # noqa: BLE001 - keep what ran before it
        program_error = "".join(traceback.format_exception_only(type(e), e)).strip()[-1500:]
    finally:
        program_lock.__exit__(None, None, None)
        sys.argv = argv
        if opts.program_seconds > 0:
            import signal
            signal.setitimer(signal.ITIMER_REAL, 0)
    if program_error and "ProgramTimeout" in program_error:
        program_error = f"stopped after --program-seconds {opts.program_seconds:g}"
    program_s = time.time() - t0
    t1 = time.time()
    not_checked = []

    rows, compile_rows = [], {a: [] for a in opts.compile_only}
    log = open(out / "round-log.jsonl", "w")
    cap.local.busy = True
    done_before = checked_hashes(opts.skip_checked) if opts.skip_checked else set()
    helpers_done = helper_checked_hashes(opts.skip_checked) if opts.recheck_helpers else set()
    for h, rec in sorted(cap.kernels.items(), key=lambda kv: kv[1]["order"]):
        recheck = False
        if any(h.startswith(d) for d in done_before):
            if (not opts.recheck_helpers or any(h.startswith(d) for d in helpers_done if d)
                    or not has_helpers(rec, out, opts)):
                continue
            recheck = True
        if shard and shard_of(h, shard[1]) != shard[0]:
            continue
        if opts.check_seconds > 0 and time.time() - t1 > opts.check_seconds:
            not_checked.append(rec["fn"].__name__)
            continue
        if not opts.no_gpu_run and CUDA_LOST:
            r = dict(kernel=rec["fn"].__name__, hash=h,
                     not_run=f"the CUDA context was lost at {CUDA_LOST[0]}")
            rows.append(r)
            log.write(json.dumps(r, sort_keys=True, default=str) + "\n")
        elif not opts.no_gpu_run:
            try:
                r = check_kernel(rec, out, opts)
            except Exception as e:  # noqa: BLE001
                r = dict(kernel=rec["fn"].__name__, hash=h, error=repr(e)[-800:])
            rows.append(r)
            log.write(json.dumps(r, sort_keys=True, default=str) + "\n")
            log.flush()
            print(json.dumps(r, sort_keys=True, default=str)[:400], flush=True)
        for arch in ([] if recheck else opts.compile_only):
            try:
                r = check_compile_only(rec, out, opts, arch)
            except Exception as e:  # noqa: BLE001
                r = dict(kernel=rec["fn"].__name__, hash=h, arch=arch, error=repr(e)[-800:])
            compile_rows[arch].append(r)
            log.write(json.dumps(r, sort_keys=True, default=str) + "\n")
            log.flush()
            print(json.dumps(r, sort_keys=True, default=str)[:400], flush=True)
    log.close()
    summary = dict(label=opts.label, program=prog, program_seconds=round(program_s, 1),
                   program_error=program_error, launches=cap.launches,
                   gluon_kernels_not_captured=sorted(cap.skipped_gluon),
                   inductor_kernels=cap.inductor_kernels, inductor_errors=cap.inductor_errors,
                   captured=len(cap.kernels), not_checked=not_checked,
                   cuda_context_lost_at=CUDA_LOST[0] if CUDA_LOST else None)
    if rows:
        summary["gpu"] = summarize(rows)
    for arch, rs in compile_rows.items():
        summary[arch] = summarize(rs)
    (out / "summary.json").write_text(json.dumps(summary, indent=1, default=str) + "\n")
    print(json.dumps(summary, indent=1, default=str))


if __name__ == "__main__":
    main()
