# A Gluon anchor transcribed by tilexform from a plain Triton dump. Generated.
# -*- coding: utf-8 -*-
# source dump: matmul_f16_128x128x64_w4_s3.ttgir
# kernel: matmul
# target: cuda:100
# num_warps: 4
# threads_per_warp: 32
# gluon api: 3.6
# form: pipelined (plain's software pipeline, transcribed as the dump shows it)
# coverage: 207/207 ops
# plain's specialisation (integers specialised to 1 and constexprs are folded in the dump):
#   a: !tt.ptr<f16>, divisible by 16
#   b: !tt.ptr<f16>, divisible by 16
#   c: !tt.ptr<f16>, divisible by 16
#   M: i32, divisible by 16
#   N: i32, divisible by 16
#   K: i32, divisible by 16
#   sam: i32, divisible by 16
#   sbk: i32, divisible by 16
#   scm: i32, divisible by 16
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.blackwell import allocate_tensor_memory, tcgen05_commit, tcgen05_mma
from triton.experimental.gluon.language.nvidia.hopper import mbarrier

# #blocked (blocked), role load_a
A_LOAD_LAYOUT = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

# #blocked1 (blocked), role load_b
B_LOAD_LAYOUT = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

# #linear (linear), role elementwise
LAYOUT = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane_bases=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp_bases=[[32, 0], [64, 0]], block_bases=[], shape=[128, 128]))

# #shared (swizzled_shared), role shared_staging
SWIZZLED_SHARED_V1_P1_M1 = gl.constexpr(gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0]))

# #shared1 (nvmma_shared), role shared_a
NVMMA_SHARED_128B = gl.constexpr(gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16))

# #tmem (tensor_memory_encoding), role accumulator
ACC_LAYOUT = gl.constexpr(gl.nvidia.blackwell.TensorMemoryLayout(block=[128, 128], col_stride=1))

# slice1_blocked (slice), role elementwise
A_LOAD_SLICE1_LAYOUT = gl.constexpr(gl.SliceLayout(dim=1, parent=A_LOAD_LAYOUT))

# slice1_blocked1 (slice), role elementwise
B_LOAD_SLICE1_LAYOUT = gl.constexpr(gl.SliceLayout(dim=1, parent=B_LOAD_LAYOUT))

# slice0_blocked1 (slice), role elementwise
B_LOAD_SLICE0_LAYOUT = gl.constexpr(gl.SliceLayout(dim=0, parent=B_LOAD_LAYOUT))

# slice0_blocked (slice), role elementwise
A_LOAD_SLICE0_LAYOUT = gl.constexpr(gl.SliceLayout(dim=0, parent=A_LOAD_LAYOUT))


@gluon.jit
def matmul(a, b, c, M, N, K, sam, sbk, scm):
    # a: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # b: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # c: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # M: i32 {tt.divisibility = 16 : i32}
    # N: i32 {tt.divisibility = 16 : i32}
    # K: i32 {tt.divisibility = 16 : i32}
    # sam: i32 {tt.divisibility = 16 : i32}
    # sbk: i32 {tt.divisibility = 16 : i32}
    # scm: i32 {tt.divisibility = 16 : i32}
    cst = gl.full([128, 64], 64, gl.int32, layout=A_LOAD_LAYOUT)  # line 21
    cst_0 = gl.full([128, 64], 0.0, gl.float16, layout=A_LOAD_LAYOUT)  # line 25
    cst_1 = gl.full([64, 128], 0.0, gl.float16, layout=B_LOAD_LAYOUT)  # line 26
    cst_2 = gl.full([128, 128], 0.0, gl.float32, layout=LAYOUT)  # line 32
    pid = gl.program_id(0)  # line 35
    npm = M + 127  # line 36
    npm_3 = npm // 128  # line 37
    npn = N + 127  # line 38
    npn_4 = npn // 128  # line 39
    width = npn_4 * 8  # line 40
    gid = pid // width  # line 41
    first = gid * 8  # line 42
    gsz = npm_3 - first  # line 43
    gsz_5 = gl.minimum(gsz, 8)  # line 44
    pid_m = pid % width  # line 45
    pid_m_6 = pid_m % gsz_5  # line 46
    pid_m_7 = first + pid_m_6  # line 47
    pid_n = pid_m // gsz_5  # line 48
    offs_m = pid_m_7 * 128  # line 49
    offs_m_8 = gl.arange(0, 128, layout=A_LOAD_SLICE1_LAYOUT)  # line 50
    offs_m_9 = gl.arange(0, 128, layout=B_LOAD_SLICE1_LAYOUT)  # line 51
    offs_m_10 = gl.arange(0, 128, layout=B_LOAD_SLICE0_LAYOUT)  # line 52
    offs_m_11 = gl.full([128], offs_m, gl.int32, layout=A_LOAD_SLICE1_LAYOUT)  # line 53
    offs_m_12 = gl.full([128], offs_m, gl.int32, layout=B_LOAD_SLICE1_LAYOUT)  # line 54
    offs_m_13 = offs_m_11 + offs_m_8  # line 55
    offs_m_14 = offs_m_12 + offs_m_9  # line 56
    offs_m_15 = gl.full([128], M, gl.int32, layout=A_LOAD_SLICE1_LAYOUT)  # line 57
    offs_m_16 = offs_m_13 % offs_m_15  # line 58
    offs_n = pid_n * 128  # line 59
    offs_n_17 = gl.full([128], offs_n, gl.int32, layout=B_LOAD_SLICE0_LAYOUT)  # line 60
    offs_n_18 = offs_n_17 + offs_m_10  # line 61
    offs_n_19 = gl.full([128], N, gl.int32, layout=B_LOAD_SLICE0_LAYOUT)  # line 62
    offs_n_20 = offs_n_18 % offs_n_19  # line 63
    ap = gl.expand_dims(offs_m_16, 1)  # line 64
    ap_21 = gl.full([128, 1], sam, gl.int32, layout=A_LOAD_LAYOUT)  # line 65
    ap_22 = ap * ap_21  # line 66
    ap_23 = gl.full([128, 1], a, a.dtype, layout=A_LOAD_LAYOUT)  # line 67
    ap_24 = ap_23 + ap_22  # line 68
    ap_25 = gl.arange(0, 64, layout=A_LOAD_SLICE0_LAYOUT)  # line 69
    ap_26 = gl.expand_dims(ap_25, 0)  # line 70
    ap_27 = ap_24.broadcast_to([128, 64])  # line 71
    ap_28 = ap_26.broadcast_to([128, 64])  # line 72
    ap_29 = ap_27 + ap_28  # line 73
    bp = gl.arange(0, 64, layout=B_LOAD_SLICE1_LAYOUT)  # line 74
    bp_30 = gl.expand_dims(bp, 1)  # line 75
    bp_31 = gl.full([64, 1], sbk, gl.int32, layout=B_LOAD_LAYOUT)  # line 76
    bp_32 = bp_30 * bp_31  # line 77
    bp_33 = gl.full([64, 1], b, b.dtype, layout=B_LOAD_LAYOUT)  # line 78
    bp_34 = bp_33 + bp_32  # line 79
    bp_35 = gl.expand_dims(offs_n_20, 0)  # line 80
    bp_36 = bp_34.broadcast_to([64, 128])  # line 81
    bp_37 = bp_35.broadcast_to([64, 128])  # line 82
    bp_38 = bp_36 + bp_37  # line 83
    v0 = K + 63  # line 84
    v1 = v0 // 64  # line 85
    bp_39 = sbk * 64  # line 86
    bp_40 = gl.full([64, 128], bp_39, gl.int32, layout=B_LOAD_LAYOUT)  # line 87
    acc = allocate_tensor_memory(gl.float32, [128, 128], ACC_LAYOUT)  # line 88
    acc.store(cst_2, pred=True)  # line 89
    acc_41 = gl.allocate_shared_memory(gl.int64, [2, 1], SWIZZLED_SHARED_V1_P1_M1)  # line 90
    acc_42 = acc_41.index(0)  # line 91
    mbarrier.init(acc_42, count=1)  # line 92
    acc_43 = acc_41.index(1)  # line 93
    mbarrier.init(acc_43, count=1)  # line 94
    av = gl.allocate_shared_memory(gl.float16, [3, 128, 64], NVMMA_SHARED_128B)  # line 95
    bv = gl.allocate_shared_memory(gl.float16, [3, 64, 128], NVMMA_SHARED_128B)  # line 96
    acc_44 = v1 > 0  # line 97
    av_45 = gl.full([1, 64], K, gl.int32, layout=A_LOAD_LAYOUT)  # line 98
    av_46 = ap_26 < av_45  # line 99
    av_47 = av_46.broadcast_to([128, 64])  # line 100
    av_48 = av.index(0)  # line 101
    acc_49 = gl.full([128, 64], acc_44, gl.int1, layout=A_LOAD_LAYOUT)  # line 102
    acc_50 = acc_49 & av_47  # line 103
    async_copy.async_copy_global_to_shared(av_48, ap_29, mask=acc_50)  # line 104
    async_copy.commit_group()  # line 105
    bv_53 = gl.full([64, 1], K, gl.int32, layout=B_LOAD_LAYOUT)  # line 106
    bv_54 = bp_30 < bv_53  # line 107
    bv_55 = bv_54.broadcast_to([64, 128])  # line 108
    bv_56 = bv.index(0)  # line 109
    acc_57 = gl.full([64, 128], acc_44, gl.int1, layout=B_LOAD_LAYOUT)  # line 110
    acc_58 = acc_57 & bv_55  # line 111
    async_copy.async_copy_global_to_shared(bv_56, bp_38, mask=acc_58)  # line 112
    async_copy.commit_group()  # line 113
    acc_61 = v1 > 1  # line 114
    ap_62 = ap_29 + cst  # line 115
    bp_63 = bp_38 + bp_40  # line 116
    av_64 = K - 64  # line 117
    av_65 = gl.full([1, 64], av_64, gl.int32, layout=A_LOAD_LAYOUT)  # line 118
    av_66 = ap_26 < av_65  # line 119
    av_67 = av_66.broadcast_to([128, 64])  # line 120
    av_68 = av.index(1)  # line 121
    acc_69 = gl.full([128, 64], acc_61, gl.int1, layout=A_LOAD_LAYOUT)  # line 122
    acc_70 = acc_69 & av_67  # line 123
    async_copy.async_copy_global_to_shared(av_68, ap_62, mask=acc_70)  # line 124
    async_copy.commit_group()  # line 125
    bv_73 = gl.full([64, 1], av_64, gl.int32, layout=B_LOAD_LAYOUT)  # line 126
    bv_74 = bp_30 < bv_73  # line 127
    bv_75 = bv_74.broadcast_to([64, 128])  # line 128
    bv_76 = bv.index(1)  # line 129
    acc_77 = gl.full([64, 128], acc_61, gl.int1, layout=B_LOAD_LAYOUT)  # line 130
    acc_78 = acc_77 & bv_75  # line 131
    async_copy.async_copy_global_to_shared(bv_76, bp_63, mask=acc_78)  # line 132
    async_copy.commit_group()  # line 133
    acc_81 = v1 > 2  # line 134
    async_copy.wait_group(2)  # line 135
    tcgen05_mma(av_48, bv_56, acc, use_acc=False, pred=acc_44, mbarriers=[acc_42], mbarrier_preds=[True])  # line 136
    ap_83 = ap_62 + cst  # line 137
    bp_84 = bp_63 + bp_40  # line 138
    av_85 = K - 128  # line 139
    av_86 = gl.full([1, 64], av_85, gl.int32, layout=A_LOAD_LAYOUT)  # line 140
    av_87 = ap_26 < av_86  # line 141
    av_88 = av_87.broadcast_to([128, 64])  # line 142
    av_89 = av.index(2)  # line 143
    acc_90 = gl.full([128, 64], acc_81, gl.int1, layout=A_LOAD_LAYOUT)  # line 144
    acc_91 = acc_90 & av_88  # line 145
    async_copy.async_copy_global_to_shared(av_89, ap_83, mask=acc_91)  # line 146
    async_copy.commit_group()  # line 147
    bv_94 = gl.full([64, 1], av_85, gl.int32, layout=B_LOAD_LAYOUT)  # line 148
    bv_95 = bp_30 < bv_94  # line 149
    bv_96 = bv_95.broadcast_to([64, 128])  # line 150
    bv_97 = bv.index(2)  # line 151
    acc_98 = gl.full([64, 128], acc_81, gl.int1, layout=B_LOAD_LAYOUT)  # line 152
    acc_99 = acc_98 & bv_96  # line 153
    async_copy.async_copy_global_to_shared(bv_97, bp_84, mask=acc_99)  # line 154
    async_copy.commit_group()  # line 155
    acc_102 = v1 - 1  # line 156
    ap_107 = ap_83
    bp_108 = bp_84
    arg12 = 0
    arg13 = 1
    arg14 = 2
    arg15 = 0
    acc_113 = acc_42
    arg21 = 0
    av_114 = av_48
    bv_115 = bv_56
    for acc_106 in range(0, acc_102, 1):  # line 157
        acc_116 = v1 - 3  # line 158
        acc_117 = acc_106 < acc_116  # line 159
        acc_118 = arg15 + 1  # line 160
        acc_119 = acc_118 >= 3  # line 161
        acc_120 = gl.where(acc_119, 0, acc_118)  # line 162
        async_copy.wait_group(2)  # line 163
        av_122 = av.index(acc_120)  # line 164
        bv_123 = bv.index(acc_120)  # line 165
        acc_124 = acc_41.index(arg13)  # line 166
        tcgen05_mma(av_122, bv_123, acc, use_acc=True, pred=True, mbarriers=[acc_124], mbarrier_preds=[True])  # line 167
        mbarrier.wait(acc_113, arg21, deps=[av_114, bv_115])  # line 168
        acc_125 = arg12 ^ 1  # line 169
        acc_126 = arg13 + 1  # line 170
        acc_127 = acc_126 >= 2  # line 171
        acc_128 = gl.where(acc_127, 0, acc_126)  # line 172
        acc_129 = gl.where(acc_127, acc_125, arg12)  # line 173
        ap_130 = ap_107 + cst  # line 174
        bp_131 = bp_108 + bp_40  # line 175
        acc_132 = arg14 + 1  # line 176
        acc_133 = acc_132 >= 3  # line 177
        acc_134 = gl.where(acc_133, 0, acc_132)  # line 178
        acc_135 = acc_106 + 3  # line 179
        av_136 = acc_135 * 64  # line 180
        av_137 = K - av_136  # line 181
        av_138 = gl.full([1, 64], av_137, gl.int32, layout=A_LOAD_LAYOUT)  # line 182
        av_139 = ap_26 < av_138  # line 183
        av_140 = av_139.broadcast_to([128, 64])  # line 184
        av_141 = av.index(acc_134)  # line 185
        acc_142 = gl.full([128, 64], acc_117, gl.int1, layout=A_LOAD_LAYOUT)  # line 186
        acc_143 = acc_142 & av_140  # line 187
        async_copy.async_copy_global_to_shared(av_141, ap_130, mask=acc_143)  # line 188
        async_copy.commit_group()  # line 189
        bv_146 = gl.full([64, 1], av_137, gl.int32, layout=B_LOAD_LAYOUT)  # line 190
        bv_147 = bp_30 < bv_146  # line 191
        bv_148 = bv_147.broadcast_to([64, 128])  # line 192
        bv_149 = bv.index(acc_134)  # line 193
        acc_150 = gl.full([64, 128], acc_117, gl.int1, layout=B_LOAD_LAYOUT)  # line 194
        acc_151 = acc_150 & bv_148  # line 195
        async_copy.async_copy_global_to_shared(bv_149, bp_131, mask=acc_151)  # line 196
        async_copy.commit_group()  # line 197
        ap_107, bp_108, arg12, arg13, arg14, arg15, acc_113, arg21, av_114, bv_115 = ap_130, bp_131, acc_129, acc_128, acc_134, acc_120, acc_124, arg12, av_122, bv_123
    acc_103_0 = ap_107
    acc_103_1 = bp_108
    acc_103_2 = arg12
    acc_103_3 = arg13
    acc_103_4 = arg14
    acc_103_5 = arg15
    acc_103_10 = acc_113
    acc_103_11 = arg21
    acc_103_12 = av_114
    acc_103_13 = bv_115
    if acc_44:  # line 200
        mbarrier.wait(acc_103_10, acc_103_11, deps=[acc_103_12, acc_103_13])  # line 201
    async_copy.wait_group(0)  # line 203
    bv._keep_alive()  # line 204
    av._keep_alive()  # line 205
    mbarrier.invalidate(acc_42)  # line 206
    mbarrier.invalidate(acc_43)  # line 207
    acc_41._keep_alive()  # line 208
    v2 = gl.expand_dims(offs_m_14, 1)  # line 209
    v3 = gl.full([128, 1], M, gl.int32, layout=B_LOAD_LAYOUT)  # line 210
    v4 = v2 < v3  # line 211
    v5 = gl.expand_dims(offs_n_18, 0)  # line 212
    v6 = gl.full([1, 128], N, gl.int32, layout=B_LOAD_LAYOUT)  # line 213
    v7 = v5 < v6  # line 214
    v8 = v4.broadcast_to([128, 128])  # line 215
    v9 = v7.broadcast_to([128, 128])  # line 216
    v10 = v8 & v9  # line 217
    v11 = gl.full([128, 1], scm, gl.int32, layout=B_LOAD_LAYOUT)  # line 218
    v12 = v2 * v11  # line 219
    v13 = gl.full([128, 1], c, c.dtype, layout=B_LOAD_LAYOUT)  # line 220
    v14 = v13 + v12  # line 221
    v15 = v14.broadcast_to([128, 128])  # line 222
    v16 = v5.broadcast_to([128, 128])  # line 223
    v17 = v15 + v16  # line 224
    acc_105 = acc.load(LAYOUT)  # line 225
    v18 = acc_105.to(gl.float16)  # line 226
    v19 = gl.convert_layout(v18, B_LOAD_LAYOUT)  # line 227
    gl.store(v17, v19, mask=v10)  # line 228


NUM_WARPS = 4


def launch(grid, a, b, c, M, N, K, sam, sbk, scm):
    """Runs the anchor on plain's arguments with plain's grid and num_warps.

    Plain's binary was specialised for launches with
      16-byte aligned: a, b, c
      multiples of 16: M, N, K, sam, sbk, scm
    and the anchor is that kernel for them.
    """
    return matmul[grid](a, b, c, M, N, K, sam, sbk, scm, num_warps=NUM_WARPS)
