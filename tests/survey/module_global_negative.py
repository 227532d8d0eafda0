import math

import triton
import triton.language as tl

LOG2E: tl.constexpr = 1.4426950408889634
BLOCK_DEFAULT = tl.constexpr(256)
HOST_ONLY = 7  # read on the host only


@triton.jit
def helper(v):
    return v * LOG2E


@triton.jit
def norm(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    HOST_ONLY = 3  # a local of the same name shadows the global
    v = helper(tl.load(x + offs)) + BLOCK_DEFAULT + HOST_ONLY
    tl.store(x + offs, v + math.pi)


def host():
    return HOST_ONLY * 2
