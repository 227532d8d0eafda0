import triton
import triton.language as tl
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@triton.jit
def attn_like(q, k, c, N, BN: tl.constexpr, CAUSAL: tl.constexpr, MODE: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    HALF = BN // 2
    for start in range(0, N, BN):
        s = tl.dot(tl.load(q), tl.load(k + start))
        if CAUSAL:
            s = s * tl.load(q + start)
        if MODE == "fast" and HALF > 8:
            s = s + tl.load(k)
        if q.dtype.element_ty == tl.float16:
            s = s - tl.load(k)
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
        if HAS_BIAS and pid > 0:  # folds away when HAS_BIAS is false
            s = s - tl.load(bias)
        acc += s
    tl.store(c, acc)


@triton.jit
def branch_without_memory(a, b, c, K, BK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
        if k > pid:  # arithmetic only: nothing for BlockPingpong to count
            acc = acc * 0.5
    tl.store(c, acc)


@triton.jit
def store_only(a, b, c, K, BK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
        if k > pid:  # a global store: BlockPingpong does not count it
            tl.store(c + k, acc)
    tl.store(c, acc)


@triton.jit
def dot_in_branch(a, b, c, K, BK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(0, K, BK):
        if k > pid:  # loads and dot in one branch block
            acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    tl.store(c, acc)


@triton.jit
def persistent_epilogue(a, b, c, K, TILES, BK: tl.constexpr, NUM_SMS: tl.constexpr):
    # The flattened persistent GEMM: an `==` guard on the epilogue, which
    # BlockPingpong assumes not taken.
    acc = tl.zeros((64, 64), tl.float32)
    ki = 0
    for it in range(0, TILES * K, BK):
        acc = tl.dot(tl.load(a + it), tl.load(b + it), acc)
        ki += 1
        if ki == K:
            tl.store(c + it, acc)
            ki = 0


@triton.jit
def three_dots(q, k, v, w, c, N, BN: tl.constexpr):
    # Three dot-like ops: BlockPingpong handles one or two only.
    pid = tl.program_id(0)
    acc = tl.zeros((64, 64), tl.float32)
    for start in range(0, N, BN):
        s = tl.dot(tl.load(q), tl.load(k + start))
        t = tl.dot(s.to(tl.float16), tl.load(v + start))
        if start > pid:
            t = t + tl.load(w + start)
        acc = tl.dot(t.to(tl.float16), tl.load(w), acc)
    tl.store(c, acc)


@triton.jit
def _k_loop(a, b, K, BK: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    return acc


@triton.jit
def outer_tiles(a, b, c, K, TILES, BK: tl.constexpr):
    # The dots are in the helper's own loop: this loop is an outer loop.
    pid = tl.program_id(0)
    for tile in range(TILES):
        acc = _k_loop(a + tile, b + tile, K, BK)
        if tile > pid:
            tl.store(c + tile, acc)


@gluon.jit
def gluon_loop(a, b, c, K, pid, BK: gl.constexpr, LAYOUT: gl.constexpr):
    # Gluon runs no software pipeliner and no ping-pong.
    acc = gl.zeros((64, 64), gl.float32, LAYOUT)
    for k in range(0, K, BK):
        acc = gl.amd.cdna3.mfma(gl.load(a + k), gl.load(b + k), acc)
        if k > pid:
            gl.store(c + k, acc)
