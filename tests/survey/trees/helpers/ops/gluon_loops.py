from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.ampere import async_copy


@gluon.jit
def g_plain(x, n, BLOCK: gl.constexpr, L: gl.constexpr):
    for i in range(0, n, BLOCK):  # no pipeliner runs on Gluon: nothing overlaps
        offs = i + gl.arange(0, BLOCK, layout=L)
        gl.store(x + offs, gl.load(x + offs) * 2)


@gluon.jit
def g_staged(x, n, BLOCK: gl.constexpr, L: gl.constexpr, S: gl.constexpr):
    smem = gl.allocate_shared_memory(gl.float32, [2, BLOCK], S)
    for i in range(0, n, BLOCK):  # a ring of two buffers filled by async copies
        offs = i + gl.arange(0, BLOCK, layout=L)
        async_copy.async_copy_global_to_shared(smem.index(i % 2), x + offs)
        async_copy.commit_group()
        async_copy.wait_group(1)
        gl.store(x + offs, smem.index(i % 2).load(L))
