import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BM": 64}, num_warps=4, num_stages=2),
                          triton.Config({"BM": 128}, num_warps=8, num_stages=4),
                          triton.Config({"BM": 128}, num_warps=8)],
                 key=["K"])
@triton.jit
def mm(a, b, c, K, BM: tl.constexpr):
    acc = tl.zeros((BM, BM), tl.float32)
    for k in range(0, K, 64):
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    tl.store(c, acc)
