# A Gluon anchor transcribed by tilexform from a plain Triton dump. Generated.
# -*- coding: utf-8 -*-
# source dump: rownorm_tlrange_s3_b512_w4.ttgir
# kernel: rownorm_tlrange
# target: cuda:100
# num_warps: 4
# threads_per_warp: 32
# gluon api: 3.6
# form: pipelined (plain's software pipeline, transcribed as the dump shows it)
# coverage: 105/105 ops
# plain's specialisation (integers specialised to 1 and constexprs are folded in the dump):
#   x: !tt.ptr<f16>, divisible by 16
#   o: !tt.ptr<f16>, divisible by 16
#   stride: i32, divisible by 16
#   N: i32, divisible by 16
#   eps: f32
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.ampere import async_copy

# #blocked (blocked), role reduction
REDUCE_LAYOUT = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

# #shared (swizzled_shared), role shared_staging
SWIZZLED_SHARED_V1_P1_M1 = gl.constexpr(gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0]))


@gluon.jit
def _combine_addf(r_34, r_35):
    r_36 = r_34 + r_35  # line 80
    return r_36


@gluon.jit
def rownorm_tlrange(x, o, stride, N, eps):
    # x: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # o: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # stride: i32 {tt.divisibility = 16 : i32}
    # N: i32 {tt.divisibility = 16 : i32}
    # eps: f32
    cst = gl.full([512], 0.0, gl.float16, layout=REDUCE_LAYOUT)  # line 16
    cst_0 = gl.full([512], 0.0, gl.float32, layout=REDUCE_LAYOUT)  # line 19
    cst_1 = gl.full([512], 512, gl.int32, layout=REDUCE_LAYOUT)  # line 23
    row = gl.program_id(0)  # line 25
    cols = gl.arange(0, 512, layout=REDUCE_LAYOUT)  # line 26
    xv = gl.full([512], N, gl.int32, layout=REDUCE_LAYOUT)  # line 27
    xv_2 = row * stride  # line 28
    xv_3 = x + xv_2  # line 29
    xv_4 = gl.full([512], xv_3, xv_3.dtype, layout=REDUCE_LAYOUT)  # line 30
    xv_5 = gl.allocate_shared_memory(gl.float16, [2, 512], SWIZZLED_SHARED_V1_P1_M1)  # line 31
    acc = N > 0  # line 32
    xv_6 = cols < xv  # line 33
    xv_7 = xv_4 + cols  # line 34
    xv_8 = xv_5.index(0)  # line 35
    acc_9 = gl.full([512], acc, gl.int1, layout=REDUCE_LAYOUT)  # line 36
    acc_10 = acc_9 & xv_6  # line 37
    async_copy.async_copy_global_to_shared(xv_8, xv_7, mask=acc_10)  # line 38
    async_copy.commit_group()  # line 39
    acc_13 = N > 512  # line 40
    cols_14 = cols + cst_1  # line 41
    xv_15 = cols_14 < xv  # line 42
    xv_16 = xv_4 + cols_14  # line 43
    xv_17 = xv_5.index(1)  # line 44
    acc_18 = gl.full([512], acc_13, gl.int1, layout=REDUCE_LAYOUT)  # line 45
    acc_19 = acc_18 & xv_15  # line 46
    async_copy.async_copy_global_to_shared(xv_17, xv_16, mask=acc_19)  # line 47
    async_copy.commit_group()  # line 48
    arg6 = cst_0
    arg7 = 1
    arg8 = -1
    for acc_34 in range(0, N, 512):  # line 49  # plain: tt.num_stages = 3
        acc_37 = N - 1024  # line 50
        acc_38 = acc_34 < acc_37  # line 51
        acc_39 = arg8 + 1  # line 52
        acc_40 = acc_39 >= 2  # line 53
        acc_41 = gl.where(acc_40, 0, acc_39)  # line 54
        async_copy.wait_group(1)  # line 55
        xv_43 = xv_5.index(acc_41)  # line 56
        xv_44 = xv_43.load(REDUCE_LAYOUT)  # line 57
        xv_45 = xv_44.to(gl.float32)  # line 58
        acc_46 = xv_45 * xv_45  # line 59
        acc_47 = arg6 + acc_46  # line 60
        acc_48 = arg7 + 1  # line 61
        acc_49 = acc_48 >= 2  # line 62
        acc_50 = gl.where(acc_49, 0, acc_48)  # line 63
        acc_51 = acc_34 + 1024  # line 64
        cols_52 = gl.full([512], acc_51, gl.int32, layout=REDUCE_LAYOUT)  # line 65
        cols_53 = cols_52 + cols  # line 66
        xv_54 = cols_53 < xv  # line 67
        xv_55 = xv_4 + cols_53  # line 68
        xv_56 = xv_5.index(acc_50)  # line 69
        acc_57 = gl.full([512], acc_38, gl.int1, layout=REDUCE_LAYOUT)  # line 70
        acc_58 = acc_57 & xv_54  # line 71
        async_copy.async_copy_global_to_shared(xv_56, xv_55, mask=acc_58)  # line 72
        async_copy.commit_group()  # line 73
        arg6, arg7, arg8 = acc_47, acc_50, acc_41
    acc_22_0 = arg6
    acc_22_1 = arg7
    acc_22_2 = arg8
    async_copy.wait_group(0)  # line 76
    xv_5._keep_alive()  # line 77
    r = gl.reduce(acc_22_0, 0, _combine_addf)  # line 78
    r_24 = N.to(gl.float32)  # line 83
    r_25 = r / r_24  # line 84
    r_26 = r_25 + eps  # line 85
    r_27 = gl.rsqrt(r_26)  # line 86
    v0 = o + xv_2  # line 87
    v1 = gl.full([512], v0, v0.dtype, layout=REDUCE_LAYOUT)  # line 88
    v2 = gl.full([512], r_27, gl.float32, layout=REDUCE_LAYOUT)  # line 89
    v = gl.allocate_shared_memory(gl.float16, [2, 512], SWIZZLED_SHARED_V1_P1_M1)  # line 90
    v_28 = v.index(0)  # line 91
    async_copy.async_copy_global_to_shared(v_28, xv_7, mask=acc_10)  # line 92
    async_copy.commit_group()  # line 93
    v_31 = v.index(1)  # line 94
    async_copy.async_copy_global_to_shared(v_31, xv_16, mask=acc_19)  # line 95
    async_copy.commit_group()  # line 96
    arg6_1 = 1
    arg7_1 = -1
    cols_36 = cols
    cols_37 = cols_14
    v_38 = xv_6
    v_39 = xv_15
    for arg5 in range(0, N, 512):  # line 97  # plain: tt.num_stages = 3
        v5 = N - 1024  # line 98
        v6 = arg5 < v5  # line 99
        v7 = arg7_1 + 1  # line 100
        v8 = v7 >= 2  # line 101
        v9 = gl.where(v8, 0, v7)  # line 102
        async_copy.wait_group(1)  # line 103
        v_41 = v.index(v9)  # line 104
        v_42 = v_41.load(REDUCE_LAYOUT)  # line 105
        v_43 = v_42.to(gl.float32)  # line 106
        v10 = v1 + cols_36  # line 107
        v11 = v_43 * v2  # line 108
        v12 = v11.to(gl.float16)  # line 109
        gl.store(v10, v12, mask=v_38)  # line 110
        v13 = arg6_1 + 1  # line 111
        v14 = v13 >= 2  # line 112
        v15 = gl.where(v14, 0, v13)  # line 113
        v16 = arg5 + 1024  # line 114
        cols_44 = gl.full([512], v16, gl.int32, layout=REDUCE_LAYOUT)  # line 115
        cols_45 = cols_44 + cols  # line 116
        v_46 = cols_45 < xv  # line 117
        v_47 = xv_4 + cols_45  # line 118
        v_48 = v.index(v15)  # line 119
        v17 = gl.full([512], v6, gl.int1, layout=REDUCE_LAYOUT)  # line 120
        v18 = v17 & v_46  # line 121
        async_copy.async_copy_global_to_shared(v_48, v_47, mask=v18)  # line 122
        async_copy.commit_group()  # line 123
        arg6_1, arg7_1, cols_36, cols_37, v_38, v_39 = v15, v9, cols_37, cols_45, v_39, v_46
    v3_0 = arg6_1
    v3_1 = arg7_1
    v3_4 = cols_36
    v3_5 = cols_37
    v3_6 = v_38
    v3_7 = v_39
    async_copy.wait_group(0)  # line 126
    v._keep_alive()  # line 127


NUM_WARPS = 4


def launch(grid, x, o, stride, N, eps):
    """Runs the anchor on plain's arguments with plain's grid and num_warps.

    Plain's binary was specialised for launches with
      16-byte aligned: x, o
      multiples of 16: stride, N
    and the anchor is that kernel for them.
    """
    return rownorm_tlrange[grid](x, o, stride, N, eps, num_warps=NUM_WARPS)
