from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.amd.cdna3 import buffer_load


@gluon.jit
def producer(x):
    pass


@gluon.jit
def consumer(x):
    pass


@gluon.jit
def ws_kernel(x):
    gl.warp_specialize((x, ), consumer, (x, ), [producer], [1], [24])
