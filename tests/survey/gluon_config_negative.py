import triton
import triton.language as tl
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, num_warps=4, waves_per_eu=2),
                          triton.Config({"BLOCK": 2048}, num_warps=8, waves_per_eu=1)],
                 key=["n"])
@triton.jit
def plain_scale(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs) * 2)


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, num_warps=4),
                          triton.Config({"BLOCK": 2048}, num_warps=4)],
                 key=["n"])
@gluon.jit
def g_scale(x, n, BLOCK: gl.constexpr, LAYOUT: gl.constexpr):
    offs = gl.arange(0, BLOCK, layout=LAYOUT)
    gl.store(x + offs, gl.load(x + offs) * 2)


def run(x, layout):
    g_scale[(1,)](x, x.numel(), LAYOUT=layout, num_warps=4)
