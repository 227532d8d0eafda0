"""Compiles the ten kernels of tests/survey/real_loops.py and reads, in each
TTGIR, every scf.for / scf.while with what the software pipeliner did to it.

  python3 tests/survey/real/probe/loops.py OUT_JSONL TTGIR_DIR [--jobs N]

Run by run.sh beside it (on a machine with Triton 3.6; no GPU launch is made,
no tensor is made). For each kernel, variant (L4: ENABLE_PIPELINING, L7:
ATOMIC_ADD, each True and False), target (sm90, gfx942) and launch num_stages
(1, 3) it compiles the kernel with triton.compile; where the full compile
fails in a late stage (the HIP backend needs a linker to make a code object),
it runs the stages one by one up to the TTGIR. Each TTGIR is written to
TTGIR_DIR; OUT_JSONL gets one line per compile ("record": "compile", with
"error" where it failed) and one per loop ("record": "loop"): the source line
its location names, for/while, and in its own body (not in nested loops'
bodies) the async copies, ttg.memdesc_index into a multi-buffer, carried
!ttg.async.token iter_args, nested loops and the tt.num_stages attribute.
A loop is "pipelined" when it holds async copies or multi-buffer indexing or
carries async tokens (for an outer loop this also catches the prologue of a
pipelined inner loop, which lands in the outer loop's own body).
"""

import argparse
import ast
import concurrent.futures as cf
from concurrent.futures.process import BrokenProcessPool
import importlib.util
import inspect
import json
import multiprocessing
import os
import re
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
SOURCE = os.path.join(ROOT, "tests", "survey", "real_loops.py")

# Constexpr sizes per kernel: small (dot dims >= 16) so each compile is quick.
KERNELS = {
    "l01_gemm_launch": {"BM": 64, "BN": 64, "BK": 32},
    "l02_bwd_dq_three_dots": {"BM": 64, "BN": 32, "D": 32},
    "l03_attn_helper_dots": {"BM": 64, "BN": 32, "D": 32},
    "l04_attn_stages_switch": {"BM": 64, "BN": 32, "D": 32},
    "l05_paged_frozen": {"BT": 32, "D": 32, "BH": 16},
    "l06_householder_outer": {"BT": 32, "BK": 32, "BV": 32},
    "l07_bwd_helper_while": {"BM": 32, "BN": 32, "D": 32},
    "l08_streamk_outer": {"BM": 64, "BN": 64, "BK": 32, "NUM_SMS": 132, "EVEN_K": False},
    "l09_static_k": {"BN": 32, "BM": 32, "BK": 32, "K": 64},
    "l10_grouped_while": {"BM": 64, "BN": 64, "BK": 32, "NUM_SMS": 132},
}
# The constexpr switch each variant sets (kernels not named here: one variant).
SWITCHES = {
    "l04_attn_stages_switch": "ENABLE_PIPELINING",
    "l07_bwd_helper_while": "ATOMIC_ADD",
}
# Runtime integers; every other non-constexpr parameter is a pointer.
INTS = {"K", "n_steps", "n_ctx", "n_tiles", "NH", "n_rows", "total_tiles", "G",
        "tiles_per_group"}
# Pointers that are not fp16 (block table, lock, group sizes).
POINTER_TYPES = {"table": "*i32", "lock": "*i32", "group_sizes": "*i32"}
TARGETS = ("sm90", "gfx942")
STAGES = (1, 3)
NUM_WARPS = 4


def target_of(name):
    from triton.backends.compiler import GPUTarget
    return GPUTarget("cuda", 90, 32) if name == "sm90" else GPUTarget("hip", "gfx942", 64)


_module = None


def load_source():
    """real_loops.py, imported by path (once per process)."""
    global _module
    if _module is None:
        spec = importlib.util.spec_from_file_location("real_loops", SOURCE)
        _module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_module)
    return _module


def jobs():
    out = []
    for kernel in KERNELS:
        switch = SWITCHES.get(kernel)
        for value in ((True, False) if switch else (None,)):
            switches = {switch: value} if switch else {}
            for target in TARGETS:
                for n in STAGES:
                    out.append(dict(kernel=kernel, switches=switches, target=target,
                                    num_stages=n))
    return out


def variant_label(switches):
    return ",".join(f"{k}={v}" for k, v in switches.items())


# ---------------------------------------------------------------------------
# Compiling

def make_source(fn, kernel, switches, backend):
    """The ASTSource of a launch with 16-aligned pointers and sizes that are
    multiples of 16 (what a real launch specialises: without it the loads are
    2-byte loads the NVIDIA pipeliner will not turn into async copies)."""
    from triton.compiler import ASTSource
    constexprs = dict(KERNELS[kernel], **switches)
    signature, attrs = {}, {}
    try:
        div16 = backend.parse_attr("D")
    except Exception:  # noqa: BLE001
        div16 = [["tt.divisibility", 16]]
    params = inspect.signature(fn.fn).parameters
    for i, (name, p) in enumerate(params.items()):
        if "constexpr" in str(p.annotation):
            if name not in constexprs:
                raise KeyError(f"no value for constexpr {name}")
            signature[name] = "constexpr"
        else:
            signature[name] = "i32" if name in INTS else POINTER_TYPES.get(name, "*fp16")
            attrs[(i,)] = div16
    return ASTSource(fn, signature, constexprs, attrs), constexprs


def compile_ttgir(src, target, options):
    """(ttgir text, how, late error): triton.compile, else the stages one by
    one up to the TTGIR (the fallback of scripts/transcribe-check.py)."""
    import triton
    try:
        ck = triton.compile(src, target=target, options=options)
        return str(ck.asm["ttgir"]), "triton.compile", None
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
    for stage, f in stages.items():
        module = f(module, metadata)  # an error here is the record's error
        if stage == "ttgir":
            return str(module), "stages", late
    raise RuntimeError(f"no ttgir stage ({late})")


def run_job(job, ttgir_dir):
    """One compile: its compile record and its loop records."""
    t0 = time.time()
    kernel, switches = job["kernel"], job["switches"]
    base = dict(kernel=kernel, variant=variant_label(switches), switches=switches,
                target=job["target"], num_stages=job["num_stages"])
    name = "{}{}.{}.ns{}.ttgir".format(
        kernel, "." + variant_label(switches).replace("=", "-") if switches else "",
        job["target"], job["num_stages"])
    rec = dict(record="compile", **base)
    try:
        from triton.compiler.compiler import make_backend
        fn = getattr(load_source(), kernel)
        target = target_of(job["target"])
        src, constexprs = make_source(fn, kernel, switches, make_backend(target))
        rec["constexprs"] = constexprs
        text, how, late = compile_ttgir(src, target, {"num_stages": job["num_stages"],
                                                      "num_warps": NUM_WARPS})
    except Exception as e:  # noqa: BLE001
        rec["error"] = "".join(traceback.format_exception_only(type(e), e)).strip()[-1500:]
        rec["seconds"] = round(time.time() - t0, 2)
        return [rec]
    with open(os.path.join(ttgir_dir, name), "w") as f:
        f.write(text)
    rec.update(compiled_by=how, ttgir=name)
    if late:
        rec["late_error"] = late[-400:]
    loops = read_loops(text)
    if loops and not any(lp["line"] for lp in loops):
        lines = source_loop_lines(fn)
        if len(lines) == len(loops):
            for lp, line in zip(loops, lines):
                lp.update(line=line, line_from="order", file=os.path.basename(SOURCE))
    rec["loops"] = len(loops)
    rec["has_locs"] = "loc(" in text
    rec["seconds"] = round(time.time() - t0, 2)
    return [rec] + [dict(record="loop", **base, **lp) for lp in loops]


# ---------------------------------------------------------------------------
# Reading the TTGIR

LOC_DEF = re.compile(r"^(#loc\d*)\s*=\s*loc\((.*)\)\s*$")
LOOP_OP = re.compile(r"^\s*(?:%[^=]*=\s*)?scf\.(for|while)\b")
TRAILING_LOC = re.compile(r"loc\((.*)\)\s*$")
ASYNC_COPY = re.compile(r"\b(ttg\.async_copy_global_to_local|amdg(?:pu)?\.buffer_load_to_local|"
                        r"ttng\.async_tma_copy_global_to_local)\b")
MEMDESC_INDEX = re.compile(r"\bttg\.memdesc_(?:index|subview)\b")
MEMDESC_TYPE = re.compile(r"!ttg\.memdesc<((?:\d+x)+)")
DOT = re.compile(r"\b(tt\.dot|tt\.dot_scaled|ttng\.warp_group_dot|ttng\.tc_gen5_mma)\s")
NUM_STAGES_ATTR = re.compile(r"\btt\.num_stages\s*=\s*(\d+)")


def split_top(s, sep):
    """s split at the first `sep` outside (), [] and quotes, or None."""
    depth, quoted = 0, False
    for i, ch in enumerate(s):
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "([<":
            depth += 1
        elif not quoted and ch in ")]>":
            depth -= 1
        elif not quoted and depth == 0 and s.startswith(sep, i):
            return s[:i], s[i + len(sep):]
    return None


def resolve(expr, aliases, seen=0):
    """(file, line) a location names: for a call site, the callee's (the
    loop's own line in an inlined helper); None where it names none."""
    expr = expr.strip()
    if seen > 50:
        return None
    if expr.startswith("#loc"):
        return resolve(aliases.get(expr, "unknown"), aliases, seen + 1)
    m = re.match(r'^"([^"]*)":(\d+)(?::\d+)?', expr)
    if m:
        return os.path.basename(m.group(1)), int(m.group(2))
    if expr.startswith("callsite(") and expr.endswith(")"):
        parts = split_top(expr[len("callsite("):-1], " at ")
        return resolve(parts[0], aliases, seen + 1) if parts else None
    if expr.startswith("fused"):
        body = expr[expr.index("[") + 1:expr.rindex("]")] if "[" in expr else ""
        while body:
            parts = split_top(body, ",")
            head, body = (parts if parts else (body, ""))
            got = resolve(head, aliases, seen + 1)
            if got:
                return got
        return None
    m = re.match(r'^"[^"]*"\((.*)\)$', expr)  # a name location: "acc"(#loc3)
    if m:
        return resolve(m.group(1), aliases, seen + 1)
    return None


def memdesc_dims(line):
    """The dimensions of the first memdesc type after ' : ' (the source)."""
    tail = line.split(" : ", 1)[1] if " : " in line else line
    m = MEMDESC_TYPE.search(tail)
    return [int(d) for d in m.group(1).rstrip("x").split("x")] if m else []


def read_loops(text):
    """Every scf.for / scf.while of a TTGIR, in order of appearance."""
    lines = text.splitlines()
    aliases = {}
    for ln in lines:
        m = LOC_DEF.match(ln)
        if m:
            aliases[m.group(1)] = m.group(2)
    spans = []  # (kind, start, end)
    for i, ln in enumerate(lines):
        m = LOOP_OP.match(ln)
        if not m or not ln.rstrip().endswith("{"):
            continue
        indent = len(ln) - len(ln.lstrip())
        end = None
        for j in range(i + 1, len(lines)):
            s = lines[j]
            if len(s) - len(s.lstrip()) == indent and s.lstrip().startswith("}") \
                    and not s.rstrip().endswith("{"):
                end = j
                break
        if end is not None:
            spans.append((m.group(1), i, end))
    loops = []
    for kind, start, end in spans:
        inner = [(s, e) for _, s, e in spans if start < s and e < end]
        own = [lines[k] for k in range(start + 1, end)
               if not any(s <= k <= e for s, e in inner)]
        head, close = lines[start], lines[end]
        loc = TRAILING_LOC.search(close)
        where = resolve(loc.group(1), aliases) if loc else None
        stages = NUM_STAGES_ATTR.search(close) or NUM_STAGES_ATTR.search(head)
        copies = sum(1 for ln in own if ASYNC_COPY.search(ln))
        multibuf = single = 0
        for ln in own:
            if MEMDESC_INDEX.search(ln):
                dims = memdesc_dims(ln)
                if len(dims) >= 3 and dims[0] > 1:  # buffers x tile
                    multibuf += 1
                elif len(dims) >= 3:
                    single += 1
        tokens = "!ttg.async.token" in head
        loops.append(dict(
            file=where[0] if where else None,
            line=where[1] if where else None,
            line_from="loc" if where else None,
            kind=kind,
            ttgir_line=start + 1,
            async_copies=copies,
            multibuffer_index=multibuf,
            carries_async_tokens=tokens,
            # Not part of "pipelined", kept to read a dump by: indexing into a
            # one-deep buffer and shared-memory views carried from one
            # iteration to the next (the AMD pipeliner's single-buffer form).
            single_buffer_index=single,
            carries_memdesc="!ttg.memdesc" in head,
            nested_loop=bool(inner),
            tt_num_stages=int(stages.group(1)) if stages else None,
            dots=sum(1 for ln in own if DOT.search(ln)),
            pipelined=bool(copies or multibuf or tokens),
        ))
    return loops


def source_loop_lines(fn):
    """Lines of the kernel's own for/while loops in source order (not
    static_range, which leaves no loop): the fallback when the TTGIR has no
    locations."""
    src = inspect.getsource(fn.fn)
    first = fn.fn.__code__.co_firstlineno
    tree = ast.parse(__import__("textwrap").dedent(src))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.While):
            out.append(node.lineno)
        elif isinstance(node, ast.For):
            call = node.iter.func if isinstance(node.iter, ast.Call) else None
            name = getattr(call, "attr", None) or getattr(call, "id", None)
            if name != "static_range":
                out.append(node.lineno)
    return [first + n - 1 for n in sorted(out)]


# ---------------------------------------------------------------------------

def worker(job, ttgir_dir):
    try:
        return run_job(job, ttgir_dir)
    except Exception as e:  # noqa: BLE001
        return [dict(record="compile", kernel=job["kernel"],
                     variant=variant_label(job["switches"]), switches=job["switches"],
                     target=job["target"], num_stages=job["num_stages"],
                     error="".join(traceback.format_exception_only(type(e), e)).strip()[-1500:])]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_jsonl")
    ap.add_argument("ttgir_dir")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1))
    args = ap.parse_args()
    os.makedirs(args.ttgir_dir, exist_ok=True)
    import triton
    todo = jobs()
    t0 = time.time()
    with open(args.out_jsonl, "w") as out:
        out.write(json.dumps(dict(record="env", triton=triton.__version__,
                                  python=sys.version.split()[0],
                                  source=os.path.relpath(SOURCE, ROOT),
                                  compiles=len(todo))) + "\n")
        out.flush()
        ctx = multiprocessing.get_context("spawn")
        done = set()
        try:
            with cf.ProcessPoolExecutor(max_workers=args.jobs, mp_context=ctx) as pool:
                futures = {pool.submit(worker, j, args.ttgir_dir): i for i, j in enumerate(todo)}
                for fut in cf.as_completed(futures):
                    i = futures[fut]
                    recs = fut.result()
                    done.add(i)
                    for r in recs:
                        out.write(json.dumps(r) + "\n")
                    out.flush()
                    head = recs[0]
                    print(f"[{time.time() - t0:6.1f}s] {head['kernel']} {head['variant'] or '-'} "
                          f"{head['target']} ns{head['num_stages']}: "
                          + (f"ERROR {head['error'].splitlines()[-1][:200]}" if "error" in head
                             else f"{head['loops']} loops via {head['compiled_by']}"),
                          file=sys.stderr, flush=True)
        except BrokenProcessPool as e:
            # A worker died (a crash in the compiler): what is left is an error.
            for i, j in enumerate(todo):
                if i not in done:
                    out.write(json.dumps(dict(record="compile", kernel=j["kernel"],
                                              variant=variant_label(j["switches"]),
                                              switches=j["switches"], target=j["target"],
                                              num_stages=j["num_stages"],
                                              error=f"worker pool broke: {e}")) + "\n")
    print(f"done in {time.time() - t0:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
