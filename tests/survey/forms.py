import triton
import triton.language as tl
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

STAGES = tl.constexpr(3)


@triton.jit
def every_form(a, b, c, K, n, BK: tl.constexpr, NS: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    for k in tl.range(0, K, BK, num_stages=NS):  # annotated by a parameter
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    for k in tl.range(0, K, BK, num_stages=STAGES + 1):  # annotated by an expression
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    for k in tl.range(0, K, BK, num_stages=None):  # None inherits the launch
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    for k in tl.range(0, K, BK, num_stages=0):  # frozen
        acc += 1
    for k in range(0, K, BK):  # launch: the dots of its static inner loop are its own
        for j in tl.static_range(2):
            acc = tl.dot(tl.load(a + j), tl.load(b + k), acc)
    for k in range(0, K, BK):  # outer: the dot belongs to the inner loop
        for j in range(0, 4):
            acc = tl.dot(tl.load(a + j), tl.load(b + k), acc)
    i = 0
    while i < n:  # never pipelined
        acc = tl.dot(tl.load(a + i), tl.load(b + i), acc)
        i += 1
    tl.store(c, acc)


@gluon.jit
def gluon_forms(x, n, BLOCK: gl.constexpr, LAYOUT: gl.constexpr):
    for i in gl.static_range(4):
        gl.store(x + i, 0)
    for i in range(0, n, BLOCK):
        gl.store(x + i + gl.arange(0, BLOCK, layout=LAYOUT), 1)
