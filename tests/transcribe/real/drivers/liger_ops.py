"""Forward and backward passes of Liger-Kernel's Triton ops (norms, gated
activations, rotary embeddings, losses, softmax, sparsemax, attention-style
ops) at LLM shapes: a program for scripts/transcribe-check.py.

  PYTHONPATH=<Liger-Kernel checkout>/src \
    scripts/transcribe-check.py --label Liger-Kernel -- tests/transcribe/real/drivers/liger_ops.py

Each op runs on its own; one that raises is reported and the rest still run.
"""
import traceback

import torch

from driver_select import selected

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
    except Exception as e:  # noqa: BLE001 - the next op still runs
        print(f"{name}: {type(e).__name__}: {str(e)[:300]}", flush=True)
        traceback.print_exc(limit=2)


def main():
    from liger_kernel.ops import cross_entropy, dyt, fused_add_rms_norm, geglu, group_norm, jsd, kl_div
    from liger_kernel.ops import layer_norm, poly_norm, qwen2vl_mrope, rms_norm, rope, softmax, sparsemax
    from liger_kernel.ops import swiglu, tvd
    bf, f32 = torch.bfloat16, torch.float32
    T, Hd, V = 2048, 4096, 32000
    x = torch.randn(T, Hd, device=dev, dtype=bf)
    w = torch.randn(Hd, device=dev, dtype=bf)
    b = torch.randn(Hd, device=dev, dtype=bf)
    run("rms_norm", lambda x, w: rms_norm.LigerRMSNormFunction.apply(x, w, 1e-6), x, w)
    run("rms_norm_gemma", lambda x, w: rms_norm.LigerRMSNormFunction.apply(x, w, 1e-6, 1.0, "gemma"), x, w)
    run("fused_add_rms_norm", lambda x, r, w: fused_add_rms_norm.LigerFusedAddRMSNormFunction.apply(x, r, w, 1e-6),
        x, torch.randn_like(x), w)
    run("layer_norm", lambda x, w, b: layer_norm.LigerLayerNormFunction.apply(x, w, b, 1e-5), x, w, b)
    run("poly_norm", lambda x, w, b: poly_norm.LigerPolyNormFunction.apply(x, w, b, 1e-6, False),
        x, torch.randn(3, device=dev, dtype=bf), torch.randn(1, device=dev, dtype=bf))
    run("dyt", lambda x, a, g, bb: dyt.LigerDyTFunction.apply(x, a, g, bb), x, torch.ones(1, device=dev, dtype=bf),
        w, b)
    a = torch.randn(T, 11008, device=dev, dtype=bf)
    run("swiglu", lambda a, b: swiglu.LigerSiLUMulFunction.apply(a, b), a, torch.randn_like(a))
    run("geglu", lambda a, b: geglu.LigerGELUMulFunction.apply(a, b), a, torch.randn_like(a))
    q = torch.randn(2, 32, 1024, 128, device=dev, dtype=bf)
    k = torch.randn(2, 8, 1024, 128, device=dev, dtype=bf)
    cos = torch.randn(1, 1024, 128, device=dev, dtype=bf)
    sin = torch.randn(1, 1024, 128, device=dev, dtype=bf)
    run("rope", lambda q, k, c, s: rope.LigerRopeFunction.apply(q, k, c, s), q, k, cos, sin)
    cos3 = torch.randn(3, 2, 1024, 128, device=dev, dtype=bf)
    sin3 = torch.randn(3, 2, 1024, 128, device=dev, dtype=bf)
    run("qwen2vl_mrope", lambda q, k, c, s: qwen2vl_mrope.LigerQwen2VLMRopeFunction.apply(q, k, c, s, [16, 24, 24]),
        q, k, cos3, sin3)
    logits = torch.randn(4096, V, device=dev, dtype=bf)
    target = torch.randint(0, V, (4096,), device=dev)
    run("cross_entropy", lambda l: cross_entropy.LigerCrossEntropyFunction.apply(l, target, None), logits)
    run("cross_entropy_smooth_zloss",
        lambda l: cross_entropy.LigerCrossEntropyFunction.apply(l, target, None, -100, 1e-4, 0.1, "mean", 30.0,
                                                                 True), logits)
    lp = torch.log_softmax(torch.randn(1024, V, device=dev, dtype=f32), -1)
    lq = torch.log_softmax(torch.randn(1024, V, device=dev, dtype=f32), -1)
    run("jsd", lambda p, q: jsd.LigerJSDFunction.apply(p, q), lp, lq)
    run("kl_div", lambda p, q: kl_div.LigerKLDivLossFunction.apply(p, q), lp, lq)
    run("tvd", lambda p, q: tvd.LigerTVDLossFunction.apply(p, q), lp.exp(), lq.exp())
    run("softmax", lambda s: softmax.LigerSoftmaxFunction.apply(s), torch.randn(4096, 1024, device=dev, dtype=bf))
    run("sparsemax", lambda s: sparsemax.LigerSparsemaxFunction.apply(s, -1),
        torch.randn(1024, 512, device=dev, dtype=f32))
    g = torch.randn(8, 64, 4096, device=dev, dtype=f32)
    run("group_norm", lambda x, w, b: group_norm.LigerGroupNormFunction.apply(x, w, b, 64, 8, 1e-6), g,
        torch.randn(64, device=dev, dtype=f32), torch.randn(64, device=dev, dtype=f32))


if __name__ == "__main__":
    main()
