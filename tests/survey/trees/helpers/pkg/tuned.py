import triton
import triton.language as tl
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@triton.autotune(configs=[triton.Config({"BLOCK_M": 64}, num_warps=4),
                          triton.Config({"BLOCK_M": 128}, num_warps=8)],
                 key=["M"])
@triton.jit
def tuned(x, M, BLOCK_M: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(x + offs, tl.load(x + offs) * 2)


@gluon.jit
def g_copy(x, n, BLOCK: gl.constexpr, L: gl.constexpr):
    offs = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=L)
    gl.store(x + offs, gl.load(x + offs))
