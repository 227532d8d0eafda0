import triton
import triton.language as tl


@triton.jit
def add_one(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs, mask=offs < n) + 1, mask=offs < n)


def sweep_blocks(x):
    for block in [256, 512, 1024]:
        add_one[(triton.cdiv(x.numel(), block),)](x, x.numel(), BLOCK=block)


def repeat(x, times):
    for _ in range(times):
        add_one[(4,)](x, x.numel(), BLOCK=1024)
