# A Gluon anchor transcribed by tilexform from a plain Triton dump. Generated.
# -*- coding: utf-8 -*-
# source dump: softmax_f16_b2048_w8.ttgir
# kernel: softmax_rows
# target: hip:gfx942
# num_warps: 8
# threads_per_warp: 64
# gluon api: 3.6
# form: not pipelined
# coverage: 20/20 ops
# plain's specialisation (integers specialised to 1 and constexprs are folded in the dump):
#   x: !tt.ptr<f16>, divisible by 16
#   o: !tt.ptr<f16>, divisible by 16
#   stride: i32, divisible by 16
#   n_cols: i32, divisible by 16
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.amd import cdna3

# #blocked (blocked), role reduction
REDUCE_LAYOUT = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[64], warps_per_cta=[8], order=[0]))


@gluon.jit
def _combine_maxnumf(v_8, v_9):
    v_10 = gl.maximum(v_8, v_9)  # line 26
    return v_10


@gluon.jit
def _combine_addf(arg4, arg5):
    v5 = arg4 + arg5  # line 35
    return v5


@gluon.jit
def softmax_rows(x, o, stride, n_cols):
    # x: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # o: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # stride: i32 {tt.divisibility = 16 : i32}
    # n_cols: i32 {tt.divisibility = 16 : i32}
    v = gl.full([2048], float("-inf"), gl.float16, layout=REDUCE_LAYOUT)  # line 15
    row = gl.program_id(0)  # line 16
    cols = gl.arange(0, 2048, layout=REDUCE_LAYOUT)  # line 17
    m = gl.full([2048], n_cols, gl.int32, layout=REDUCE_LAYOUT)  # line 18
    m_0 = cols < m  # line 19
    v_1 = row * stride  # line 20
    v_2 = x + v_1  # line 21
    v_3 = cdna3.buffer_load(v_2, cols, mask=m_0, other=v)  # line 22
    v_4 = v_3.to(gl.float32)  # line 23
    v_5 = gl.reduce(v_4, 0, _combine_maxnumf)  # line 24
    v_6 = gl.full([2048], v_5, gl.float32, layout=REDUCE_LAYOUT)  # line 29
    v_7 = v_4 - v_6  # line 30
    e = gl.exp(v_7)  # line 31
    v0 = o + v_1  # line 32
    v1 = gl.reduce(e, 0, _combine_addf)  # line 33
    v2 = gl.full([2048], v1, gl.float32, layout=REDUCE_LAYOUT)  # line 38
    v3 = e / v2  # line 39
    v4 = v3.to(gl.float16)  # line 40
    cdna3.buffer_store(v4, v0, cols, mask=m_0)  # line 41


NUM_WARPS = 8


def launch(grid, x, o, stride, n_cols):
    """Runs the anchor on plain's arguments with plain's grid and num_warps.

    Plain's binary was specialised for launches with
      16-byte aligned: x, o
      multiples of 16: stride, n_cols
    and the anchor is that kernel for them.
    """
    return softmax_rows[grid](x, o, stride, n_cols, num_warps=NUM_WARPS)
