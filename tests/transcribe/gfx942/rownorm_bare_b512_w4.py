# A Gluon anchor transcribed by tilexform from a plain Triton dump. Generated.
# -*- coding: utf-8 -*-
# source dump: rownorm_bare_b512_w4.ttgir
# kernel: rownorm_bare
# target: hip:gfx942
# num_warps: 4
# threads_per_warp: 64
# gluon api: 3.6
# form: not pipelined
# coverage: 39/39 ops
# plain's specialisation (integers specialised to 1 and constexprs are folded in the dump):
#   x: !tt.ptr<f16>, divisible by 16
#   o: !tt.ptr<f16>, divisible by 16
#   stride: i32, divisible by 16
#   N: i32, divisible by 16
#   eps: f32
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

# #blocked (blocked), role reduction
REDUCE_LAYOUT = gl.constexpr(gl.BlockedLayout(size_per_thread=[2], threads_per_warp=[64], warps_per_cta=[4], order=[0]))


@gluon.jit
def _combine_addf(r_8, r_9):
    r_10 = r_8 + r_9  # line 37
    return r_10


@gluon.jit
def rownorm_bare(x, o, stride, N, eps):
    # x: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # o: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # stride: i32 {tt.divisibility = 16 : i32}
    # N: i32 {tt.divisibility = 16 : i32}
    # eps: f32
    cst = gl.full([512], 0.0, gl.float16, layout=REDUCE_LAYOUT)  # line 14
    acc = gl.full([512], 0.0, gl.float32, layout=REDUCE_LAYOUT)  # line 17
    row = gl.program_id(0)  # line 18
    cols = gl.arange(0, 512, layout=REDUCE_LAYOUT)  # line 19
    xv = gl.full([512], N, gl.int32, layout=REDUCE_LAYOUT)  # line 20
    xv_0 = row * stride  # line 21
    xv_1 = x + xv_0  # line 22
    xv_2 = gl.full([512], xv_1, xv_1.dtype, layout=REDUCE_LAYOUT)  # line 23
    acc_9 = acc
    for acc_8 in range(0, N, 512):  # line 24
        cols_10 = gl.full([512], acc_8, gl.int32, layout=REDUCE_LAYOUT)  # line 25
        cols_11 = cols_10 + cols  # line 26
        xv_12 = cols_11 < xv  # line 27
        xv_13 = xv_2 + cols_11  # line 28
        xv_14 = gl.load(xv_13, mask=xv_12, other=cst)  # line 29
        xv_15 = xv_14.to(gl.float32)  # line 30
        acc_16 = xv_15 * xv_15  # line 31
        acc_17 = acc_9 + acc_16  # line 32
        acc_9 = acc_17
    acc_3 = acc_9
    r = gl.reduce(acc_3, 0, _combine_addf)  # line 35
    r_4 = N.to(gl.float32)  # line 40
    r_5 = r / r_4  # line 41
    r_6 = r_5 + eps  # line 42
    r_7 = gl.rsqrt(r_6)  # line 43
    v0 = o + xv_0  # line 44
    v1 = gl.full([512], v0, v0.dtype, layout=REDUCE_LAYOUT)  # line 45
    v2 = gl.full([512], r_7, gl.float32, layout=REDUCE_LAYOUT)  # line 46
    for off in range(0, N, 512):  # line 47
        cols_8 = gl.full([512], off, gl.int32, layout=REDUCE_LAYOUT)  # line 48
        cols_9 = cols_8 + cols  # line 49
        v = cols_9 < xv  # line 50
        v_10 = xv_2 + cols_9  # line 51
        v_11 = gl.load(v_10, mask=v, other=cst)  # line 52
        v_12 = v_11.to(gl.float32)  # line 53
        v3 = v1 + cols_9  # line 54
        v4 = v_12 * v2  # line 55
        v5 = v4.to(gl.float16)  # line 56
        gl.store(v3, v5, mask=v)  # line 57


NUM_WARPS = 4


def launch(grid, x, o, stride, N, eps):
    """Runs the anchor on plain's arguments with plain's grid and num_warps.

    Plain's binary was specialised for launches with
      16-byte aligned: x, o
      multiples of 16: stride, N
    and the anchor is that kernel for them.
    """
    return rownorm_bare[grid](x, o, stride, N, eps, num_warps=NUM_WARPS)
