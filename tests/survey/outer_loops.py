import triton
import triton.language as tl


@triton.jit
def _k_loop(a, b, K, BK: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    return acc


@triton.jit
def _k_range(a, b, K, BK: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    for k in tl.range(0, K, BK, num_stages=4):
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    return acc


@triton.jit
def _tile_dot(a, b):
    return tl.dot(tl.load(a), tl.load(b))


@triton.jit(noinline=True)
def _not_inlined(a, b, c, K, BK: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    tl.store(c, acc)


@triton.jit
def split_k(a, b, c, K, SPLITS, BK: tl.constexpr):
    for s in range(SPLITS):
        acc = _k_loop(a + s, b + s, K, BK)
        tl.store(c + s, acc)


@triton.jit
def persistent_written(a, b, c, K, TILES, BK: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    for tile in range(pid, TILES, NUM_SMS):
        acc = tl.zeros((64, 64), tl.float32)
        for k in tl.range(0, K, BK, num_stages=3):
            acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
        tl.store(c + tile, acc)


@triton.jit
def persistent_inlined(a, b, c, K, TILES, BK: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    for tile in tl.range(pid, TILES, NUM_SMS, num_stages=2):
        acc = _k_range(a + tile, b + tile, K, BK)
        tl.store(c + tile, acc)


@triton.jit
def helper_without_loop(a, b, c, TILES):
    for tile in range(TILES):
        tl.store(c + tile, _tile_dot(a + tile, b + tile))


@triton.jit
def helper_under_branch(a, b, c, K, TILES, BK: tl.constexpr):
    pid = tl.program_id(0)
    for tile in range(TILES):
        if tile > pid:
            tl.store(c + tile, _k_loop(a, b, K, BK))


@triton.jit
def helper_under_constexpr(a, b, c, K, TILES, BK: tl.constexpr, SPLIT: tl.constexpr):
    for tile in range(TILES):
        if SPLIT:
            tl.store(c + tile, _k_loop(a, b, K, BK))


@triton.jit
def calls_noinline(a, b, c, K, TILES, BK: tl.constexpr):
    for tile in range(TILES):
        _not_inlined(a + tile, b + tile, c + tile, K, BK)


@triton.jit
def unrolled_inner(a, b, c, K, BK: tl.constexpr):
    for tile in range(4):
        for j in tl.static_range(2):
            for k in range(0, K, BK):
                tl.store(c + k, tl.dot(tl.load(a + k), tl.load(b + j)))


@triton.jit
def written_under_constexpr(a, b, c, K, TILES, BK: tl.constexpr, EVEN_K: tl.constexpr):
    for tile in range(TILES):
        acc = tl.zeros((64, 64), tl.float32)
        if not EVEN_K:
            for k in range(0, K, BK):
                acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
        tl.store(c + tile, acc)
