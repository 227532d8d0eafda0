# A Gluon anchor transcribed by tilexform from a plain Triton dump. Generated.
# -*- coding: utf-8 -*-
# source dump: rownorm_tlrange_s3_b512_w4.ttgir
# kernel: rownorm_tlrange
# target: hip:gfx950
# num_warps: 4
# threads_per_warp: 64
# gluon api: 3.6
# form: pipelined (plain's software pipeline, transcribed as the dump shows it)
# coverage: 84/84 ops
# plain's specialisation (integers specialised to 1 and constexprs are folded in the dump):
#   x: !tt.ptr<f16>, divisible by 16
#   o: !tt.ptr<f16>, divisible by 16
#   stride: i32, divisible by 16
#   N: i32, divisible by 16
#   eps: f32
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.language.core import builtin
from triton.experimental.gluon.language.amd import cdna4

# #blocked (blocked), role reduction
REDUCE_LAYOUT = gl.constexpr(gl.BlockedLayout(size_per_thread=[2], threads_per_warp=[64], warps_per_cta=[4], order=[0]))


@builtin
def _select(cond, x, y, _semantic=None):
    """arith.select on a scalar condition, as plain writes it: gl.where would splat the
    condition and select per element."""
    return gl.tensor(_semantic.builder.create_select(cond.handle, x.handle, y.handle), x.type)


@gluon.jit
def _combine_addf(r_34, r_35):
    r_36 = r_34 + r_35  # line 67
    return r_36


@gluon.jit
def rownorm_tlrange(x, o, stride, N, eps):
    # x: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # o: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # stride: i32 {tt.divisibility = 16 : i32}
    # N: i32 {tt.divisibility = 16 : i32}
    # eps: f32
    cst = gl.full([512], 512, gl.int32, layout=REDUCE_LAYOUT)  # line 16
    cst_0 = gl.full([512], 0.0, gl.float16, layout=REDUCE_LAYOUT)  # line 19
    acc = gl.full([512], 0.0, gl.float32, layout=REDUCE_LAYOUT)  # line 22
    row = gl.program_id(0)  # line 23
    cols = gl.arange(0, 512, layout=REDUCE_LAYOUT)  # line 24
    xv = gl.full([512], N, gl.int32, layout=REDUCE_LAYOUT)  # line 25
    xv_1 = row * stride  # line 26
    xv_2 = x + xv_1  # line 27
    xv_3 = gl.full([512], xv_2, xv_2.dtype, layout=REDUCE_LAYOUT)  # line 28
    acc_4 = N > 0  # line 29
    xv_5 = cols < xv  # line 30
    acc_6 = gl.full([512], acc_4, gl.int1, layout=REDUCE_LAYOUT)  # line 31
    acc_7 = acc_6 & xv_5  # line 32
    xv_8 = cdna4.buffer_load(xv_2, cols, mask=acc_7)  # line 33
    acc_9 = N > 512  # line 34
    cols_10 = cols + cst  # line 35
    xv_11 = cols_10 < xv  # line 36
    acc_12 = gl.full([512], acc_9, gl.int1, layout=REDUCE_LAYOUT)  # line 37
    acc_13 = acc_12 & xv_11  # line 38
    xv_14 = cdna4.buffer_load(xv_2, cols_10, mask=acc_13)  # line 39
    acc_15 = N - 1024  # line 40
    acc_35 = acc
    xv_36 = xv_8
    xv_37 = xv_14
    for acc_34 in range(0, acc_15, 512):  # line 41  # plain: tt.num_stages = 3
        acc_38 = acc_34 + 1024  # line 42
        cols_39 = gl.full([512], acc_38, gl.int32, layout=REDUCE_LAYOUT)  # line 43
        cols_40 = cols_39 + cols  # line 44
        xv_41 = cols_40 < xv  # line 45
        xv_42 = xv_3 + cols_40  # line 46
        xv_43 = gl.load(xv_42, mask=xv_41, other=cst_0)  # line 47
        xv_44 = xv_36.to(gl.float32)  # line 48
        acc_45 = xv_44 * xv_44  # line 49
        acc_46 = acc_35 + acc_45  # line 50
        acc_35, xv_36, xv_37 = acc_46, xv_37, xv_43
    acc_16_0 = acc_35
    acc_16_1 = xv_36
    acc_16_2 = xv_37
    acc_17 = N + 511  # line 53
    acc_18 = acc_17 // 512  # line 54
    acc_19 = acc_18 >= 1  # line 55
    acc_20 = acc_18 >= 2  # line 56
    xv_21 = acc_16_1.to(gl.float32)  # line 57
    acc_22 = xv_21 * xv_21  # line 58
    acc_23 = acc_16_0 + acc_22  # line 59
    acc_24 = _select(acc_19, acc_23, acc_16_0)  # line 60
    xv_25 = acc_16_2.to(gl.float32)  # line 61
    acc_26 = xv_25 * xv_25  # line 62
    acc_27 = acc_24 + acc_26  # line 63
    acc_28 = _select(acc_20, acc_27, acc_24)  # line 64
    r = gl.reduce(acc_28, 0, _combine_addf)  # line 65
    r_29 = N.to(gl.float32)  # line 70
    r_30 = r / r_29  # line 71
    r_31 = r_30 + eps  # line 72
    r_32 = gl.rsqrt(r_31)  # line 73
    v0 = o + xv_1  # line 74
    v1 = gl.full([512], v0, v0.dtype, layout=REDUCE_LAYOUT)  # line 75
    v2 = gl.full([512], r_32, gl.float32, layout=REDUCE_LAYOUT)  # line 76
    v_34 = xv_8
    v_35 = xv_14
    cols_36 = cols
    cols_37 = cols_10
    v_38 = xv_5
    v_39 = xv_11
    for arg5 in range(0, acc_15, 512):  # line 77  # plain: tt.num_stages = 3
        v14 = arg5 + 1024  # line 78
        cols_40_1 = gl.full([512], v14, gl.int32, layout=REDUCE_LAYOUT)  # line 79
        cols_41 = cols_40_1 + cols  # line 80
        v_42 = cols_41 < xv  # line 81
        v_43 = xv_3 + cols_41  # line 82
        v_44 = gl.load(v_43, mask=v_42, other=cst_0)  # line 83
        v_45 = v_34.to(gl.float32)  # line 84
        v15 = v1 + cols_36  # line 85
        v16 = v_45 * v2  # line 86
        v17 = v16.to(gl.float16)  # line 87
        gl.store(v15, v17, mask=v_38)  # line 88
        v_34, v_35, cols_36, cols_37, v_38, v_39 = v_35, v_44, cols_37, cols_41, v_39, v_42
    v3_0 = v_34
    v3_1 = v_35
    v3_2 = cols_36
    v3_3 = cols_37
    v3_4 = v_38
    v3_5 = v_39
    v = v3_0.to(gl.float32)  # line 91
    v4 = v1 + v3_2  # line 92
    v5 = v * v2  # line 93
    v6 = v5.to(gl.float16)  # line 94
    v7 = gl.full([512], acc_19, gl.int1, layout=REDUCE_LAYOUT)  # line 95
    v8 = v7 & v3_4  # line 96
    gl.store(v4, v6, mask=v8)  # line 97
    v_33 = v3_1.to(gl.float32)  # line 98
    v9 = v1 + v3_3  # line 99
    v10 = v_33 * v2  # line 100
    v11 = v10.to(gl.float16)  # line 101
    v12 = gl.full([512], acc_20, gl.int1, layout=REDUCE_LAYOUT)  # line 102
    v13 = v12 & v3_5  # line 103
    gl.store(v9, v11, mask=v13)  # line 104


NUM_WARPS = 4


def launch(grid, x, o, stride, N, eps):
    """Runs the anchor on plain's arguments with plain's grid and num_warps.

    Plain's binary was specialised for launches with
      16-byte aligned: x, o
      multiples of 16: stride, N
    and the anchor is that kernel for them.
    """
    return rownorm_tlrange[grid](x, o, stride, N, eps, num_warps=NUM_WARPS)
