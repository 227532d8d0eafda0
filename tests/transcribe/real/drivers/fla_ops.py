"""Forward and backward passes of flash-linear-attention's chunk kernels at
its usual shapes (B=2, T=1024, H=4, K=V=128, bf16) and on a ragged
cu_seqlens batch: a program for scripts/transcribe-check.py.

  PYTHONPATH=<flash-linear-attention checkout> \
    scripts/transcribe-check.py --label flash-linear-attention -- \
    tests/transcribe/real/drivers/fla_ops.py

Each entry point runs on its own; one that raises is reported and the rest
still run (a library may refuse a pass on some GPUs).
"""
import sys
import traceback
import types

import torch
import torch.nn.functional as F

from driver_select import selected

try:
    import einops  # noqa: F401
except ImportError:  # only the libraries' reference implementations use it
    stub = types.ModuleType("einops")

    def _missing(*_a, **_k):
        raise RuntimeError("einops is not installed")

    stub.rearrange = stub.repeat = stub.reduce = stub.einsum = _missing
    sys.modules["einops"] = stub

from fla.ops.delta_rule import chunk_delta_rule  # noqa: E402
from fla.ops.gated_delta_rule import chunk_gated_delta_rule, fused_recurrent_gated_delta_rule  # noqa: E402
from fla.ops.gla import chunk_gla  # noqa: E402
from fla.ops.kda import chunk_kda  # noqa: E402
from fla.ops.simple_gla import chunk_simple_gla  # noqa: E402

dev = "cuda"
dt = torch.bfloat16
torch.manual_seed(0)


def inputs(B, T, H, K, V):
    q = torch.randn(B, T, H, K, device=dev, dtype=dt)
    k = F.normalize(torch.randn(B, T, H, K, device=dev, dtype=torch.float32), p=2, dim=-1).to(dt)
    v = torch.randn(B, T, H, V, device=dev, dtype=dt)
    gk = F.logsigmoid(torch.randn(B, T, H, K, device=dev, dtype=torch.float32)) / 16
    g = F.logsigmoid(torch.randn(B, T, H, device=dev, dtype=torch.float32)) / 16
    beta = torch.rand(B, T, H, device=dev, dtype=torch.float32).sigmoid().to(dt)
    h0 = torch.randn(B, H, K, V, device=dev, dtype=torch.float32)
    return q, k, v, gk, g, beta, h0


def run(name, f, *tensors):
    if not selected(name):
        return
    leaves = [t.detach().clone().requires_grad_(t.is_floating_point()) for t in tensors]
    try:
        out = f(*leaves)
        o = out[0] if isinstance(out, tuple) else out
        ht = out[1] if isinstance(out, tuple) and len(out) > 1 and out[1] is not None else None
        loss = (o.float() * torch.randn_like(o, dtype=torch.float32)).sum()
        if ht is not None:
            loss = loss + (ht.float() * torch.randn_like(ht, dtype=torch.float32)).sum()
        loss.backward()
        torch.cuda.synchronize()
        print(f"{name}: ok", flush=True)
    except Exception as e:  # noqa: BLE001 - the next entry point still runs
        print(f"{name}: {type(e).__name__}: {str(e)[:300]}", flush=True)
        traceback.print_exc(limit=2)


def main():
    for ragged in (False, True):
        B, T, H, K, V = (1, 1024, 4, 128, 128) if ragged else (2, 1024, 4, 128, 128)
        q, k, v, gk, g, beta, h0 = inputs(B, T, H, K, V)
        cu = torch.tensor([0, 200, 519, 1024], device=dev, dtype=torch.long) if ragged else None
        n = 3 if ragged else B
        h0 = h0[:1].expand(n, -1, -1, -1).contiguous()
        kw = dict(initial_state=h0, output_final_state=True, cu_seqlens=cu)
        tag = "ragged" if ragged else "dense"
        run(f"chunk_gla/{tag}", lambda q, k, v, gk, h: chunk_gla(q, k, v, gk, **{**kw, "initial_state": h}),
            q, k, v, gk, h0)
        run(f"chunk_simple_gla/{tag}",
            lambda q, k, v, g, h: chunk_simple_gla(q, k, v, g, **{**kw, "initial_state": h}), q, k, v, g, h0)
        run(f"chunk_gated_delta_rule/{tag}",
            lambda q, k, v, g, b, h: chunk_gated_delta_rule(q, k, v, g, b, **{**kw, "initial_state": h}),
            q, k, v, g, beta, h0)
        run(f"chunk_kda/{tag}",
            lambda q, k, v, gk, b, h: chunk_kda(q, k, v, gk, b, **{**kw, "initial_state": h}),
            q, k, v, gk, beta, h0)
        run(f"chunk_delta_rule/{tag}",
            lambda q, k, v, b, h: chunk_delta_rule(q, k, v, b, **{**kw, "initial_state": h}),
            q, k, v, beta, h0)
        run(f"fused_recurrent_gated_delta_rule/{tag}",
            # beta by name: the fourth and fifth parameters are g and gk
            lambda q, k, v, g, b, h: fused_recurrent_gated_delta_rule(q, k, v, g, beta=b,
                                                                      **{**kw, "initial_state": h}),
            q, k, v, g, beta, h0)


if __name__ == "__main__":
    main()
