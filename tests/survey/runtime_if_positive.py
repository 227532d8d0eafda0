import triton
import triton.language as tl


@triton.jit
def gemm_tail(a, b, c, K, K_FULL, BK: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(a + k)
        y = tl.load(b + k)
        if k * BK >= K_FULL:
            x = tl.load(a + k, mask=k * BK < K, other=0.0)
        acc = tl.dot(x, y, acc)
    tl.store(c, acc)


@triton.jit
def attn_bias(q, k, v, bias, c, N, BN: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros((64, 64), tl.float32)
    for start in tl.range(0, N, BN, num_stages=3):
        s = tl.dot(tl.load(q), tl.load(k + start))
        if start > pid:
            s = s + tl.load(bias + start)
        elif start < -pid:
            s = tl.load(bias)
        acc = tl.dot(s.to(tl.float16), tl.load(v + start), acc)
    tl.store(c, acc)


@triton.jit
def _mma(a, b, acc):
    return tl.dot(a, b, acc)


@triton.jit
def helper_dot(a, b, c, K, BK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(0, K, BK):
        y = tl.load(b + k)
        if k > pid:
            y = tl.load(b + k + 1)
        acc = _mma(tl.load(a + k), y, acc)
    tl.store(c, acc)
