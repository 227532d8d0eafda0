import triton
import triton.language as tl


@triton.jit
def attn_like(q, k, c, N, BN: tl.constexpr, CAUSAL: tl.constexpr, MODE: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    HALF = BN // 2
    for start in range(0, N, BN):
        s = tl.dot(tl.load(q), tl.load(k + start))
        if CAUSAL:
            s = s * 2
        if MODE == "fast" and HALF > 8:
            s = s + 1
        if q.dtype.element_ty == tl.float16:
            s = s - 1
        acc += s
    tl.store(c, acc)


@triton.jit
def no_dot_loop(x, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for i in range(0, n, BLOCK):
        if pid > i:
            tl.store(x + i, 0)


@triton.jit
def optional_bias(q, k, bias, c, N, BN: tl.constexpr, HAS_BIAS: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    pid = tl.program_id(0)
    for start in range(0, N, BN):
        s = tl.dot(tl.load(q), tl.load(k + start))
        if bias is not None:  # a None argument is specialised to a constant
            s = s + tl.load(bias + start)
        if None is bias:
            s = s * 2
        if HAS_BIAS and pid > 0:  # folds away when HAS_BIAS is false
            s = s - 1
        acc += s
    tl.store(c, acc)


@triton.jit
def _noop():
    pass


@tl.core._aggregate
class Config:
    HAS_BIAS: tl.constexpr
    BLOCK: tl.constexpr
    scale: tl.tensor


@triton.jit
def with_config(q, k, c, N, cfg: Config):
    acc = tl.zeros((64, 64), tl.float32)
    for start in range(0, N, 64):
        s = tl.dot(tl.load(q), tl.load(k + start))
        if cfg.HAS_BIAS:  # a constexpr field of an aggregate
            s = s + 1
        acc += s
    tl.store(c, acc)
