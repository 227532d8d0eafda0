import triton
import triton.language as tl

from mylib.tuning import libtuner, cache_autotune
from mylib import runtime


def cfggen():
    return [
        triton.Config({"BLOCK_M": m, "BLOCK_N": 64}, num_stages=s, num_warps=4)
        for m in [64, 128]
        for s in [2, 3]
    ]


@libtuner(configs=cfggen(), key=["M", "N"])
@triton.jit
def wrapped_builder(x, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    tl.store(x + pid, tl.load(x + pid))


@cache_autotune(configs=[triton.Config({"BLOCK_M": 128}, num_stages=4)], key=["M"])
@triton.jit
def wrapped_list(x, M, BLOCK_M: tl.constexpr):
    pid = tl.program_id(0)
    tl.store(x + pid, tl.load(x + pid))


@triton.autotune(configs=runtime.get_tuned_config("mm"), key=["M"])
@triton.jit
def from_registry(x, M, BLOCK_M: tl.constexpr):
    pid = tl.program_id(0)
    tl.store(x + pid, tl.load(x + pid))


def run(x, M, N):
    BLOCK_M = 64
    wrapped_builder[(triton.cdiv(M, BLOCK_M),)](x, M, N)
    wrapped_list[lambda META: (triton.cdiv(M, META["BLOCK_M"]),)](x, M)
