import functools

import triton
import triton.language as tl


def timed(fn):
    return fn


@functools.lru_cache(maxsize=None)
def table():
    return {}


@timed
@triton.jit
def not_tuned(x, M, BLOCK_M: tl.constexpr):
    pid = tl.program_id(0)
    tl.store(x + pid, tl.load(x + pid))


def run(x, M):
    not_tuned[(triton.cdiv(M, 64),)](x, M, BLOCK_M=64)
