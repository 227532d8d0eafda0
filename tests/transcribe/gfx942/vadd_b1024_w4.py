# A Gluon anchor transcribed by tilexform from a plain Triton dump. Generated.
# -*- coding: utf-8 -*-
# source dump: vadd_b1024_w4.ttgir
# kernel: vadd
# target: hip:gfx942
# num_warps: 4
# threads_per_warp: 64
# gluon api: 3.6
# form: not pipelined
# coverage: 19/19 ops
# plain's specialisation (integers specialised to 1 and constexprs are folded in the dump):
#   x: !tt.ptr<f32>, divisible by 16
#   y: !tt.ptr<f32>, divisible by 16
#   o: !tt.ptr<f32>, divisible by 16
#   n: i32, divisible by 16
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

# #blocked (blocked), role global_load
LOAD_LAYOUT = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[64], warps_per_cta=[4], order=[0]))


@gluon.jit
def vadd(x, y, o, n):
    # x: !tt.ptr<f32> {tt.divisibility = 16 : i32}
    # y: !tt.ptr<f32> {tt.divisibility = 16 : i32}
    # o: !tt.ptr<f32> {tt.divisibility = 16 : i32}
    # n: i32 {tt.divisibility = 16 : i32}
    i = gl.program_id(0)  # line 10
    i_0 = i * 1024  # line 11
    i_1 = gl.arange(0, 1024, layout=LOAD_LAYOUT)  # line 12
    i_2 = gl.full([1024], i_0, gl.int32, layout=LOAD_LAYOUT)  # line 13
    i_3 = i_2 + i_1  # line 14
    m = gl.full([1024], n, gl.int32, layout=LOAD_LAYOUT)  # line 15
    m_4 = i_3 < m  # line 16
    v0 = gl.full([1024], o, o.dtype, layout=LOAD_LAYOUT)  # line 17
    v1 = v0 + i_3  # line 18
    v2 = gl.full([1024], x, x.dtype, layout=LOAD_LAYOUT)  # line 19
    v3 = v2 + i_3  # line 20
    v4 = gl.load(v3, mask=m_4)  # line 21
    v5 = gl.full([1024], y, y.dtype, layout=LOAD_LAYOUT)  # line 22
    v6 = v5 + i_3  # line 23
    v7 = gl.load(v6, mask=m_4)  # line 24
    v8 = v4 + v7  # line 25
    gl.store(v1, v8, mask=m_4)  # line 26


NUM_WARPS = 4


def launch(grid, x, y, o, n):
    """Runs the anchor on plain's arguments with plain's grid and num_warps.

    Plain's binary was specialised for launches with
      16-byte aligned: x, y, o
      multiples of 16: n
    and the anchor is that kernel for them.
    """
    return vadd[grid](x, y, o, n, num_warps=NUM_WARPS)
