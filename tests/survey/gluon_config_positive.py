import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, num_warps=4, waves_per_eu=2),
                          triton.Config({"BLOCK": 1024}, num_warps=8)],
                 key=["n"])
@gluon.jit
def g_scale(x, n, BLOCK: gl.constexpr, LAYOUT: gl.constexpr):
    offs = gl.arange(0, BLOCK, layout=LAYOUT)
    gl.store(x + offs, gl.load(x + offs) * 2)


@gluon.jit
def g_copy(x, y, BLOCK: gl.constexpr, LAYOUT: gl.constexpr):
    offs = gl.arange(0, BLOCK, layout=LAYOUT)
    gl.store(y + offs, gl.load(x + offs))


def sweep(x, y, layout):
    for nw in [2, 4, 8]:
        g_copy[(1,)](x, y, 1024, layout, num_warps=nw, waves_per_eu=1)
