"""Forward and backward passes of mamba's Triton kernels (the Mamba-2 SSD
chunk scan, chunk state, state passing and BMM kernels; the gated RMS norm;
the fused layer/RMS norm; the decoding step's selective state update): a
program for scripts/transcribe-check.py.

  PYTHONPATH=<mamba checkout>:<einops checkout> \
    scripts/transcribe-check.py --label mamba -- tests/transcribe/real/drivers/mamba_ops.py

The package's own __init__ loads its CUDA extensions; the Triton ops are
imported without it. Each op runs on its own.
"""
import importlib.util
import pathlib
import sys
import traceback
import types

import torch

from driver_select import selected


def package_without_init(name):
    spec = importlib.util.find_spec(name)
    if spec is None:
        raise SystemExit(f"{name} is not on PYTHONPATH")
    pkg = types.ModuleType(name)
    pkg.__path__ = [str(pathlib.Path(spec.origin).parent)]
    sys.modules[name] = pkg


dev = "cuda"
torch.manual_seed(0)


def run(name, f, *tensors):
    if not selected(name):
        return
    leaves = [t.detach().clone().requires_grad_(t.is_floating_point()) for t in tensors]
    try:
        out = f(*leaves)
        outs = out if isinstance(out, tuple) else (out,)
        loss = sum((o.float() * torch.randn_like(o, dtype=torch.float32)).sum()
                   for o in outs if torch.is_tensor(o) and o.is_floating_point() and o.requires_grad)
        if torch.is_tensor(loss):
            loss.backward()
        torch.cuda.synchronize()
        print(f"{name}: ok", flush=True)
    except Exception as e:  # noqa: BLE001
        print(f"{name}: {type(e).__name__}: {str(e)[:300]}", flush=True)
        traceback.print_exc(limit=2)


def main():
    package_without_init("mamba_ssm")
    from mamba_ssm.ops.triton.layer_norm import layer_norm_fn, rms_norm_fn
    from mamba_ssm.ops.triton.layernorm_gated import rmsnorm_fn
    from mamba_ssm.ops.triton.selective_state_update import selective_state_update
    from mamba_ssm.ops.triton.ssd_combined import mamba_chunk_scan_combined
    bf, f32 = torch.bfloat16, torch.float32
    b, L, h, p, g, n = 2, 1024, 16, 64, 1, 128
    x = torch.randn(b, L, h, p, device=dev, dtype=bf)
    dt = torch.randn(b, L, h, device=dev, dtype=f32)
    A = -torch.rand(h, device=dev, dtype=f32) - 0.5
    B = torch.randn(b, L, g, n, device=dev, dtype=bf)
    C = torch.randn(b, L, g, n, device=dev, dtype=bf)
    D = torch.randn(h, device=dev, dtype=f32)
    z = torch.randn(b, L, h, p, device=dev, dtype=bf)
    dt_bias = torch.randn(h, device=dev, dtype=f32)
    run("mamba_chunk_scan_combined",
        lambda x, dt, A, B, C, D, z, db: mamba_chunk_scan_combined(x, dt, A, B, C, 256, D=D, z=z, dt_bias=db,
                                                                    dt_softplus=True),
        x, dt, A, B, C, D, z, dt_bias)
    xs = torch.randn(4096, 2048, device=dev, dtype=bf)
    w = torch.randn(2048, device=dev, dtype=bf)
    bias = torch.randn(2048, device=dev, dtype=bf)
    run("rmsnorm_gated", lambda x, w, zz: rmsnorm_fn(x, w, None, z=zz, group_size=512), xs, w, torch.randn_like(xs))
    run("layer_norm_residual", lambda x, w, bb, r: layer_norm_fn(x, w, bb, residual=r, prenorm=True), xs, w, bias,
        torch.randn_like(xs))
    run("rms_norm", lambda x, w: rms_norm_fn(x, w, None), xs, w)
    state = torch.randn(8, h, p, n, device=dev, dtype=f32)
    try:
        with torch.no_grad():
            selective_state_update(state, torch.randn(8, h, p, device=dev, dtype=bf),
                                   torch.randn(8, h, p, device=dev, dtype=bf),
                                   A[:, None, None].expand(h, p, n).contiguous(),
                                   torch.randn(8, g, n, device=dev, dtype=bf),
                                   torch.randn(8, g, n, device=dev, dtype=bf),
                                   D=D[:, None].expand(h, p).contiguous(),
                                   dt_bias=dt_bias[:, None].expand(h, p).contiguous(),
                                   dt_softplus=True)
        torch.cuda.synchronize()
        print("selective_state_update: ok", flush=True)
    except Exception as e:  # noqa: BLE001
        print(f"selective_state_update: {type(e).__name__}: {str(e)[:300]}", flush=True)


if __name__ == "__main__":
    main()
