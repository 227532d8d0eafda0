import triton
import triton.language as tl


@triton.jit
def add_one(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs, mask=offs < n) + 1, mask=offs < n)


def add_all(tensors):
    for t in tensors:
        add_one[(triton.cdiv(t.numel(), 1024),)](t, t.numel(), BLOCK=1024)


def add_indexed(tensors):
    for i in range(len(tensors)):
        add_one[(4,)](tensors[i], tensors[i].numel(), BLOCK=1024)
