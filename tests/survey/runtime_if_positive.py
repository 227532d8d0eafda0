import triton
import triton.language as tl


@triton.jit
def gemm_tail(a, b, c, K, BK: tl.constexpr, EVEN_K: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(a + k)
        y = tl.load(b + k)
        if k == tl.cdiv(K, BK) - 1:
            x = x * 0
        acc = tl.dot(x, y, acc)
    tl.store(c, acc)


@triton.jit
def gemm_pid_branch(a, b, c, K, BK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros((64, 64), tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        if pid > 0:
            acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
        elif pid < -1:
            acc += 1
    tl.store(c, acc)


@tl.core._aggregate
class Config:
    HAS_BIAS: tl.constexpr
    scale: tl.tensor


@triton.jit
def with_config(q, k, c, N, cfg: Config):
    acc = tl.zeros((64, 64), tl.float32)
    for start in range(0, N, 64):
        s = tl.dot(tl.load(q), tl.load(k + start))
        if cfg.scale > 0:  # a runtime field
            s = s + 1
        acc += s
    tl.store(c, acc)
