import triton
import triton.language as tl

BLOCK_M = 128


@triton.autotune(configs=[triton.Config({"BLOCK_M": 64}, num_warps=4),
                          triton.Config({"BLOCK_M": 128}, num_warps=8)],
                 key=["M"])
@triton.jit
def scale(x, y, M, BLOCK_M: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(y + offs, tl.load(x + offs) * 2)


@triton.jit
def plain(x, y, M, BLOCK_M: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(y + offs, tl.load(x + offs))


def grid_fn(meta):
    return (triton.cdiv(meta["M_TOTAL"], meta["BLOCK_M"]),)


def launch(x, y):
    M = x.numel()
    scale[lambda META: (triton.cdiv(M, META["BLOCK_M"]),)](x, y, M)
    scale[grid_fn](x, y, M)
    # Not autotuned: a host block size is right here.
    plain[(triton.cdiv(M, BLOCK_M),)](x, y, M, BLOCK_M=BLOCK_M)
