#!/usr/bin/env python3
"""Checks transcribed anchors on a GPU with Triton: each anchor module
(tests/transcribe/<target>/<case>.py, written by `tilexform transcribe` from
plain's dump of the same case) is compiled, run on plain's own arguments and
random inputs beside plain (tests/survey/corpus_src/kernels.py at the case's
configuration), compared bit for bit, and timed; its own TTGIR is written
for `tilexform verify` to compare with plain's.

  scripts/transcribe-check.py ANCHOR_DIR OUT_DIR [CASE...]
  scripts/transcribe-check.py --compile-only ARCH ANCHOR_DIR PLAIN_DIR OUT_DIR

--compile-only compiles each anchor for another target (gfx942, gfx950,
gfx1100, gfx1201, sm100, sm120) with plain's signature, read from
PLAIN_DIR/<case>.ttgir, and writes its TTGIR; no GPU of that kind is needed.

Writes OUT_DIR/<case>.anchor.ttgir, OUT_DIR/<case>.plain.ttgir and
OUT_DIR/results.json ({case: {compiled, equal, max_abs_diff, plain_ms,
anchor_ms, error}}).
"""
import importlib.util
import inspect
import json
import pathlib
import sys
import traceback

import torch
import triton
import triton.testing

here = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(here / "tests" / "survey" / "corpus_src"))
import kernels as K  # noqa: E402

torch.manual_seed(0)
dev = "cuda"


def vadd(_):
    n = 1 << 20
    a = dict(x=torch.randn(n, device=dev), y=torch.randn(n, device=dev),
             o=torch.empty(n, device=dev), n=n)
    return K.vadd, a, dict(BLOCK=1024), (triton.cdiv(n, 1024),), dict(num_warps=4), ["o"]


def softmax(_):
    rows, cols = 4096, 2048
    a = dict(x=torch.randn(rows, cols, device=dev, dtype=torch.float16),
             o=torch.empty(rows, cols, device=dev, dtype=torch.float16), stride=cols, n_cols=cols)
    return K.softmax_rows, a, dict(BLOCK=2048), (rows,), dict(num_warps=8), ["o"]


def rownorm(stages):
    def make(_):
        rows, n = 4096, 4096
        a = dict(x=torch.randn(rows, n, device=dev, dtype=torch.float16),
                 o=torch.empty(rows, n, device=dev, dtype=torch.float16), stride=n, N=n, eps=1e-6)
        if stages is None:
            return K.rownorm_bare, a, dict(BLOCK=512), (rows,), dict(num_warps=4), ["o"]
        return (K.rownorm_tlrange, a, dict(BLOCK=512, STAGES=stages), (rows,),
                dict(num_warps=4, num_stages=stages), ["o"])
    return make


def matmul(stages):
    def make(_):
        m = n = k = 2048
        a = torch.randn(m, k, device=dev, dtype=torch.float16)
        b = torch.randn(k, n, device=dev, dtype=torch.float16)
        c = torch.empty(m, n, device=dev, dtype=torch.float16)
        args = dict(a=a, b=b, c=c, M=m, N=n, K=k, sam=k, sak=1, sbk=n, sbn=1, scm=n, scn=1)
        grid = (triton.cdiv(m, 128) * triton.cdiv(n, 128),)
        return (K.matmul, args, dict(BM=128, BN=128, BK=64, GROUP=8), grid,
                dict(num_warps=4, num_stages=stages), ["c"])
    return make


def matmul_tma(stages):
    def make(_):
        from triton.tools.tensor_descriptor import TensorDescriptor
        m = n = k = 2048
        a = torch.randn(m, k, device=dev, dtype=torch.float16)
        b = torch.randn(k, n, device=dev, dtype=torch.float16)
        c = torch.empty(m, n, device=dev, dtype=torch.float16)
        args = dict(a_desc=TensorDescriptor.from_tensor(a, [128, 64]),
                    b_desc=TensorDescriptor.from_tensor(b, [64, 128]),
                    c_desc=TensorDescriptor.from_tensor(c, [128, 128]), M=m, N=n, K=k, c=c)
        return (K.matmul_tma, args, dict(BM=128, BN=128, BK=64), (m // 128, n // 128),
                dict(num_warps=4, num_stages=stages), ["c"])
    return make


def attention(stages):
    def make(_):
        zh, n_ctx, head = 16, 1024, 64
        t = lambda: torch.randn(zh, n_ctx, head, device=dev, dtype=torch.float16)
        args = dict(Q=t(), K=t(), V=t(), O=torch.empty(zh, n_ctx, head, device=dev,
                                                       dtype=torch.float16),
                    sm_scale=0.125, N_CTX=n_ctx)
        return (K.attn_fwd, args, dict(HEAD=head, BM=128, BN=64, CAUSAL=False),
                (n_ctx // 128, zh), dict(num_warps=4, num_stages=stages), ["O"])
    return make


CASES = {
    "vadd_b1024_w4": vadd,
    "softmax_f16_b2048_w8": softmax,
    "rownorm_bare_b512_w4": rownorm(None),
    "rownorm_tlrange_s1_b512_w4": rownorm(1),
    "rownorm_tlrange_s3_b512_w4": rownorm(3),
    "matmul_f16_128x128x64_w4_s1": matmul(1),
    "matmul_f16_128x128x64_w4_s3": matmul(3),
    "matmul_tma_f16_128x128x64_w4_s3": matmul_tma(3),
    "attn_fwd_d64_128x64_w4_s1": attention(1),
    "attn_fwd_d64_128x64_w4_s2": attention(2),
}


def load_module(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def clone_args(args):
    """Fresh copies of the tensors (and of the descriptors over them), so that
    plain and the anchor write their own outputs."""
    out = {k: (v.clone() if torch.is_tensor(v) else v) for k, v in args.items()}
    for k, v in args.items():
        if hasattr(v, "block_shape") and hasattr(v, "base"):
            base = next((out[n] for n, t in args.items() if t is v.base), None)
            if base is None:
                base = v.base.clone()
                for n, t in args.items():
                    if torch.is_tensor(t) and t.data_ptr() == v.base.data_ptr():
                        base = out[n]
            out[k] = type(v).from_tensor(base, list(v.block_shape))
    return out


def gluon_kernel(mod):
    kernels = [v for v in vars(mod).values()
               if hasattr(v, "fn") and hasattr(v, "warmup") and not v.__name__.startswith("_")]
    return kernels[0]


def plain_signature(dump):
    """Argument types and divisibility of plain's tt.func, for compiling the anchor."""
    import re
    text = dump.read_text()
    head = text[text.index("tt.func public"):]
    head = head[:head.index(") attributes")]
    types = {"f32": "fp32", "f16": "fp16", "bf16": "bf16", "i32": "i32", "i64": "i64", "i1": "i1"}
    sig, attrs = {}, {}
    args = re.finditer(r"%(\w+): (!tt\.tensordesc<tensor<([0-9x]+)x(\w+), #(\w+)>>|!tt\.ptr<(\w+)>|\w+)"
                       r"( \{tt\.divisibility = 16)?", head)
    names = [m.group(1) for m in re.finditer(r"%(\w+): ", head)]
    desc = None
    i = 0
    for m in args:
        name = m.group(1)
        if desc and name.startswith(desc + "_"):
            continue  # a host descriptor's shape and strides
        desc = None
        if m.group(3):
            desc = name
            block = [int(d) for d in m.group(3).split("x")]
            sig[name] = f"tensordesc<{types[m.group(4)]}{block}>"
        elif m.group(6):
            sig[name] = "*" + types[m.group(6)]
        else:
            sig[name] = types[m.group(2)]
        if m.group(7):
            attrs[(i,)] = [["tt.divisibility", 16]]
        i += 1
    del names
    warps = int(re.search(r'"ttg.num-warps" = (\d+)', text).group(1))
    return sig, attrs, warps


def compile_only(arch, anchor_dir, plain_dir, out):
    from triton.backends.compiler import GPUTarget
    try:
        from triton.experimental.gluon._runtime import GluonASTSource as Source
    except ImportError:
        from triton.compiler import ASTSource as Source
    out.mkdir(parents=True, exist_ok=True)
    results = {}
    for path in sorted(anchor_dir.glob("*.py")):
        case = path.stem
        r = results.setdefault(case, {})
        try:
            mod = load_module(path)
            sig, attrs, warps = plain_signature(plain_dir / f"{case}.ttgir")
            if any(t.startswith("tensordesc") for t in sig.values()):
                # A Gluon host descriptor's type carries its layout: compile
                # such a kernel on its GPU, not from a signature.
                r["skipped"] = "host tensor descriptors: run on the GPU instead"
                print(arch, case, json.dumps(r), flush=True)
                continue
            src = Source(fn=gluon_kernel(mod), signature=sig, constexprs={}, attrs=attrs)
            target = (GPUTarget("cuda", int(arch[2:]), 32) if arch.startswith("sm")
                      else GPUTarget("hip", arch, 64))
            try:
                ck = triton.compile(src, target=target, options={"num_warps": warps})
                ttgir = ck.asm["ttgir"]
            except Exception as e:  # noqa: BLE001 - a missing linker still leaves the IR
                r["late_error"] = str(e)[-500:]
                from triton.compiler.compiler import make_backend
                from triton._C.libtriton import ir
                backend = make_backend(target)
                options = backend.parse_options({"num_warps": warps})
                context = ir.context()
                ir.load_dialects(context)
                backend.load_dialects(context)
                codegen_fns = backend.get_codegen_implementation(options)
                module_map = backend.get_module_map()
                module = src.make_ir(target, options, codegen_fns, module_map, context)
                stages = {}
                backend.add_stages(stages, options, src.language)
                metadata = {}
                for stage in ("ttir", "ttgir"):
                    if stage in stages:
                        module = stages[stage](module, metadata)
                ttgir = str(module)
            (out / f"{case}.anchor.ttgir").write_text(ttgir)
            r["compiled"] = True
        except Exception as e:  # noqa: BLE001
            r["compiled"] = False
            r["error"] = "".join(traceback.format_exception_only(type(e), e)).strip()[-2000:]
        print(arch, case, json.dumps(r)[:300], flush=True)
    (out / "results.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


def main():
    if sys.argv[1] == "--compile-only":
        return compile_only(sys.argv[2], pathlib.Path(sys.argv[3]), pathlib.Path(sys.argv[4]),
                            pathlib.Path(sys.argv[5]))
    anchor_dir, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    wanted = sys.argv[3:] or list(CASES)
    results = {}
    for case in wanted:
        r = results.setdefault(case, {})
        try:
            kernel, args, consts, grid, launch, outputs = CASES[case](case)
            plain_args = clone_args(args)
            params = [p for p in inspect.signature(kernel.fn).parameters if p not in consts]
            call = lambda a: kernel[grid](**{p: a[p] for p in params}, **consts, **launch)
            ck = call(plain_args)
            (out / f"{case}.plain.ttgir").write_text(ck.asm["ttgir"])
            mod = load_module(anchor_dir / f"{case}.py")
            names = list(inspect.signature(mod.launch).parameters)[1:]
            anchor_args = clone_args(args)
            ca = mod.launch(grid, *[anchor_args[n] for n in names])
            r["compiled"] = True
            (out / f"{case}.anchor.ttgir").write_text(ca.asm["ttgir"])
            torch.cuda.synchronize()
            equal, diff = True, 0.0
            for o in outputs:
                x, y = plain_args[o], anchor_args[o]
                equal = equal and torch.equal(x, y)
                diff = max(diff, (x.float() - y.float()).abs().max().item())
            r["equal"] = equal
            r["max_abs_diff"] = diff
            # Interleaved rounds, the median of each arm, each timed from a
            # CUDA graph so that Python's launch cost (larger for Gluon's
            # launcher) does not stand in for the kernel's time.
            plain_t, anchor_t = [], []
            for _ in range(7):
                plain_t.append(triton.testing.do_bench_cudagraph(lambda: call(plain_args), rep=50))
                anchor_t.append(triton.testing.do_bench_cudagraph(
                    lambda: mod.launch(grid, *[anchor_args[n] for n in names]), rep=50))
            r["plain_ms"] = sorted(plain_t)[3]
            r["anchor_ms"] = sorted(anchor_t)[3]
            r["timing"] = "CUDA graph, median of 7 interleaved rounds"
        except Exception as e:  # noqa: BLE001 - every failure is a result
            r.setdefault("compiled", False)
            r["error"] = "".join(traceback.format_exception_only(type(e), e)).strip()[-2000:]
        print(case, json.dumps(r), flush=True)
    (out / "results.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
