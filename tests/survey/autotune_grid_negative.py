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


@triton.autotune(configs=[triton.Config({"BLOCK_SIZE_M": 64}, num_warps=4),
                          triton.Config({"BLOCK_SIZE_M": 128}, num_warps=8)],
                 key=["M"])
@triton.jit
def scale_local(x, y, M, BLOCK_SIZE_M: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    tl.store(y + offs, tl.load(x + offs) * 2)


def launch_meta_local(x, y):
    M = x.shape[0]

    def grid(META):
        BLOCK_SIZE_M = META["BLOCK_SIZE_M"]  # read from the config into a local first
        return (triton.cdiv(M, BLOCK_SIZE_M),)

    scale_local[grid](x, y, M)


@triton.autotune(configs=[triton.Config({}, num_warps=4), triton.Config({}, num_warps=8)],
                 key=["M"])
@triton.jit
def scale_warps(x, y, M, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs) * 2)


def launch_untuned_block(x, y):
    M = x.shape[0]
    BLOCK = 256  # the configs tune no block size: the host's is the one the kernel gets
    scale_warps[(triton.cdiv(M, BLOCK),)](x, y, M, BLOCK=BLOCK)
