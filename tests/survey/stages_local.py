import triton
import triton.language as tl


@triton.jit
def stages_from_locals(a, b, c, K, BK: tl.constexpr, PIPELINE: tl.constexpr,
                       NS: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    switched: tl.constexpr = None if PIPELINE else 1
    for k in tl.range(0, K, BK, num_stages=switched):  # None or 1, by the switch
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    inherit: tl.constexpr = None
    for k in tl.range(0, K, BK, num_stages=inherit):  # None: the launch decides
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    single: tl.constexpr = 1
    for k in tl.range(0, K, BK, num_stages=single):  # frozen
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    deep: tl.constexpr = 4 if PIPELINE else 3
    for k in tl.range(0, K, BK, num_stages=deep):  # annotated
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    depth = NS + 1
    for k in tl.range(0, K, BK, num_stages=depth):  # not literals: annotated
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    tl.store(c, acc)
