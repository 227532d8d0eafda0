# A Gluon anchor transcribed by tilexform from a plain Triton dump. Generated.
# -*- coding: utf-8 -*-
# source dump: attn_fwd_d64_128x64_w4_s2.ttgir
# kernel: attn_fwd
# target: cuda:100
# num_warps: 4
# threads_per_warp: 32
# gluon api: 3.6
# form: pipelined (plain's software pipeline, transcribed as the dump shows it)
# coverage: 241/241 ops
# plain's specialisation (integers specialised to 1 and constexprs are folded in the dump):
#   Q: !tt.ptr<f16>, divisible by 16
#   K: !tt.ptr<f16>, divisible by 16
#   V: !tt.ptr<f16>, divisible by 16
#   O: !tt.ptr<f16>, divisible by 16
#   sm_scale: f32
#   N_CTX: i32, divisible by 16
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import fence_async_shared, warpgroup_mma, warpgroup_mma_wait
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.blackwell import allocate_tensor_memory, tcgen05_commit, tcgen05_mma
from triton.experimental.gluon.language.nvidia.hopper import mbarrier

# #blocked (blocked), role load_a
A_LOAD_LAYOUT = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

# #blocked1 (blocked), role load_b
B_LOAD_LAYOUT = gl.constexpr(gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1]))

# #linear (linear), role reduction
REDUCE_LAYOUT = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane_bases=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp_bases=[[32, 0], [64, 0]], block_bases=[], shape=[128, 64]))

# #shared (nvmma_shared), role shared_a
NVMMA_SHARED_128B = gl.constexpr(gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16))

# #shared1 (swizzled_shared), role shared_staging
SWIZZLED_SHARED_V1_P1_M1 = gl.constexpr(gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0]))

# #shared2 (nvmma_shared), role shared_b
NVMMA_SHARED_128B_T = gl.constexpr(gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, transposed=True))

# #tmem (tensor_memory_encoding), role accumulator
ACC_LAYOUT = gl.constexpr(gl.nvidia.blackwell.TensorMemoryLayout(block=[128, 64], col_stride=1))

# slice1_linear (slice), role reduction
REDUCE_SLICE1_LAYOUT = gl.constexpr(gl.SliceLayout(dim=1, parent=REDUCE_LAYOUT))

# slice0_blocked1 (slice), role elementwise
B_LOAD_SLICE0_LAYOUT = gl.constexpr(gl.SliceLayout(dim=0, parent=B_LOAD_LAYOUT))

# slice1_blocked (slice), role elementwise
A_LOAD_SLICE1_LAYOUT = gl.constexpr(gl.SliceLayout(dim=1, parent=A_LOAD_LAYOUT))

# slice0_blocked (slice), role elementwise
A_LOAD_SLICE0_LAYOUT = gl.constexpr(gl.SliceLayout(dim=0, parent=A_LOAD_LAYOUT))

# slice1_blocked1 (slice), role elementwise
B_LOAD_SLICE1_LAYOUT = gl.constexpr(gl.SliceLayout(dim=1, parent=B_LOAD_LAYOUT))


@gluon.jit
def _combine_maxnumf(m_ij_116, m_ij_117):
    m_ij_118 = gl.maximum(m_ij_116, m_ij_117)  # line 130
    return m_ij_118


@gluon.jit
def _combine_addf(l_i_187, l_i_188):
    l_i_189 = l_i_187 + l_i_188  # line 182
    return l_i_189


@gluon.jit
def _combine_maxnumf_1(m_ij_187, m_ij_188):
    m_ij_189 = gl.maximum(m_ij_187, m_ij_188)  # line 190
    return m_ij_189


@gluon.jit
def _combine_addf_1(l_i_118, l_i_119):
    l_i_120 = l_i_118 + l_i_119  # line 257
    return l_i_120


@gluon.jit
def attn_fwd(Q, K, V, O, sm_scale, N_CTX):
    # Q: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # K: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # V: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # O: !tt.ptr<f16> {tt.divisibility = 16 : i32}
    # sm_scale: f32
    # N_CTX: i32 {tt.divisibility = 16 : i32}
    cst = gl.full([64, 1], 64, gl.int32, layout=A_LOAD_LAYOUT)  # line 26
    cst_0 = gl.full([1, 64], 64, gl.int32, layout=B_LOAD_LAYOUT)  # line 27
    cst_1 = gl.full([128, 1], 64, gl.int32, layout=A_LOAD_LAYOUT)  # line 28
    cst_3 = gl.full([128], float("-inf"), gl.float32, layout=REDUCE_SLICE1_LAYOUT)  # line 34
    cst_4 = gl.full([128, 64], 0.0, gl.float32, layout=REDUCE_LAYOUT)  # line 35
    cst_5 = gl.full([128], 0.0, gl.float32, layout=REDUCE_SLICE1_LAYOUT)  # line 36
    cst_6 = gl.full([64], 64, gl.int32, layout=B_LOAD_SLICE0_LAYOUT)  # line 39
    cst_7 = gl.full([64], 64, gl.int32, layout=A_LOAD_SLICE1_LAYOUT)  # line 40
    cst_8 = gl.full([64], 128, gl.int32, layout=B_LOAD_SLICE0_LAYOUT)  # line 41
    start_m = gl.program_id(0)  # line 43
    off = gl.program_id(1)  # line 44
    off_9 = off * N_CTX  # line 45
    off_10 = off_9 * 64  # line 46
    offs_m = start_m * 128  # line 47
    offs_m_11 = gl.arange(0, 128, layout=A_LOAD_SLICE1_LAYOUT)  # line 48
    offs_m_12 = gl.full([128], offs_m, gl.int32, layout=A_LOAD_SLICE1_LAYOUT)  # line 49
    offs_m_13 = offs_m_12 + offs_m_11  # line 50
    offs_n = gl.arange(0, 64, layout=B_LOAD_SLICE0_LAYOUT)  # line 51
    offs_n_14 = gl.arange(0, 64, layout=A_LOAD_SLICE1_LAYOUT)  # line 52
    q = Q + off_10  # line 53
    q_15 = gl.expand_dims(offs_m_13, 1)  # line 54
    q_16 = q_15 * cst_1  # line 55
    q_17 = gl.full([128, 1], q, q.dtype, layout=A_LOAD_LAYOUT)  # line 56
    q_18 = q_17 + q_16  # line 57
    q_19 = gl.arange(0, 64, layout=A_LOAD_SLICE0_LAYOUT)  # line 58
    q_20 = gl.expand_dims(q_19, 0)  # line 59
    q_21 = q_18.broadcast_to([128, 64])  # line 60
    q_22 = q_20.broadcast_to([128, 64])  # line 61
    q_23 = q_21 + q_22  # line 62
    q_24 = gl.load(q_23)  # line 63
    q_25 = gl.allocate_shared_memory(gl.float16, [128, 64], NVMMA_SHARED_128B, q_24)  # line 64
    qk_scale = sm_scale * 1.442695  # line 65
    k = K + off_10  # line 66
    k_26 = gl.full([1, 64], k, k.dtype, layout=B_LOAD_LAYOUT)  # line 67
    k_27 = gl.arange(0, 64, layout=B_LOAD_SLICE1_LAYOUT)  # line 68
    k_28 = gl.expand_dims(k_27, 1)  # line 69
    k_29 = k_28.broadcast_to([64, 64])  # line 70
    m_ij = gl.full([128], qk_scale, gl.float32, layout=REDUCE_SLICE1_LAYOUT)  # line 71
    p = gl.full([128, 64], qk_scale, gl.float32, layout=REDUCE_LAYOUT)  # line 72
    v = V + off_10  # line 73
    v_30 = gl.full([64, 1], v, v.dtype, layout=A_LOAD_LAYOUT)  # line 74
    v_31 = q_20.broadcast_to([64, 64])  # line 75
    acc = allocate_tensor_memory(gl.float32, [128, 64], ACC_LAYOUT)  # line 76
    acc.store(cst_4, pred=True)  # line 77
    acc_32 = gl.allocate_shared_memory(gl.int64, [2, 1], SWIZZLED_SHARED_V1_P1_M1)  # line 78
    acc_33 = acc_32.index(0)  # line 79
    mbarrier.init(acc_33, count=1)  # line 80
    acc_34 = acc_32.index(1)  # line 81
    mbarrier.init(acc_34, count=1)  # line 82
    acc_35 = gl.allocate_shared_memory(gl.int64, [2, 1], SWIZZLED_SHARED_V1_P1_M1)  # line 83
    acc_36 = acc_35.index(0)  # line 84
    mbarrier.init(acc_36, count=1)  # line 85
    acc_37 = acc_35.index(1)  # line 86
    mbarrier.init(acc_37, count=1)  # line 87
    k_38 = gl.allocate_shared_memory(gl.float16, [2, 64, 64], NVMMA_SHARED_128B_T)  # line 88
    v_39 = gl.allocate_shared_memory(gl.float16, [2, 64, 64], NVMMA_SHARED_128B)  # line 89
    acc_40 = N_CTX > 0  # line 90
    k_41 = gl.expand_dims(offs_n, 0)  # line 91
    k_42 = k_41 * cst_0  # line 92
    k_43 = k_26 + k_42  # line 93
    k_44 = k_43.broadcast_to([64, 64])  # line 94
    k_45 = k_44 + k_29  # line 95
    k_46 = k_38.index(0)  # line 96
    acc_47 = gl.full([64, 64], acc_40, gl.int1, layout=B_LOAD_LAYOUT)  # line 97
    async_copy.async_copy_global_to_shared(k_46, k_45, mask=acc_47)  # line 98
    qk = allocate_tensor_memory(gl.float32, [128, 64], ACC_LAYOUT)  # line 99
    acc_49 = allocate_tensor_memory(gl.float16, [128, 64], ACC_LAYOUT)  # line 100
    async_copy.commit_group()  # line 101
    acc_51 = N_CTX > 64  # line 102
    async_copy.wait_group(0)  # line 103
    fence_async_shared()  # line 104
    tcgen05_mma(q_25, k_46, qk, use_acc=False, pred=acc_40, mbarriers=[acc_33], mbarrier_preds=[True])  # line 105
    v_53 = gl.expand_dims(offs_n_14, 1)  # line 106
    v_54 = v_53 * cst  # line 107
    v_55 = v_30 + v_54  # line 108
    v_56 = v_55.broadcast_to([64, 64])  # line 109
    v_57 = v_56 + v_31  # line 110
    v_58 = v_39.index(0)  # line 111
    acc_59 = gl.full([64, 64], acc_40, gl.int1, layout=A_LOAD_LAYOUT)  # line 112
    async_copy.async_copy_global_to_shared(v_58, v_57, mask=acc_59)  # line 113
    async_copy.commit_group()  # line 114
    k_62 = offs_n + cst_6  # line 115
    k_63 = gl.expand_dims(k_62, 0)  # line 116
    k_64 = k_63 * cst_0  # line 117
    k_65 = k_26 + k_64  # line 118
    k_66 = k_65.broadcast_to([64, 64])  # line 119
    k_67 = k_66 + k_29  # line 120
    k_68 = k_38.index(1)  # line 121
    acc_69 = gl.full([64, 64], acc_51, gl.int1, layout=B_LOAD_LAYOUT)  # line 122
    async_copy.async_copy_global_to_shared(k_68, k_67, mask=acc_69)  # line 123
    async_copy.commit_group()  # line 124
    acc_72 = N_CTX > 128  # line 125
    mbarrier.wait(acc_33, 0, pred=acc_40, deps=[q_25, k_46])  # line 126
    qk_73 = qk.load(REDUCE_LAYOUT)  # line 127
    m_ij_74 = gl.reduce(qk_73, 1, _combine_maxnumf)  # line 128
    m_ij_75 = m_ij_74 * m_ij  # line 133
    m_ij_76 = gl.maximum(m_ij_75, cst_3)  # line 134
    p_77 = qk_73 * p  # line 135
    p_78 = gl.expand_dims(m_ij_76, 1)  # line 136
    p_79 = p_78.broadcast_to([128, 64])  # line 137
    p_80 = p_77 - p_79  # line 138
    p_81 = gl.exp2(p_80)  # line 139
    alpha = cst_3 - m_ij_76  # line 140
    alpha_82 = gl.exp2(alpha)  # line 141
    acc_83 = gl.expand_dims(alpha_82, 1)  # line 142
    acc_84 = acc_83.broadcast_to([128, 64])  # line 143
    acc_85 = acc.load(REDUCE_LAYOUT)  # line 144
    acc_86 = acc_85 * acc_84  # line 145
    async_copy.wait_group(0)  # line 146
    acc_88 = p_81.to(gl.float16)  # line 147
    acc_49.store(acc_88, pred=acc_40)  # line 148
    acc.store(acc_86, pred=acc_40)  # line 149
    tcgen05_mma(acc_49, v_58, acc, use_acc=True, pred=acc_40, mbarriers=[acc_36], mbarrier_preds=[True])  # line 150
    k_89 = offs_n_14 + cst_7  # line 151
    fence_async_shared()  # line 152
    tcgen05_mma(q_25, k_68, qk, use_acc=False, pred=acc_51, mbarriers=[acc_34], mbarrier_preds=[True])  # line 153
    v_90 = gl.expand_dims(k_89, 1)  # line 154
    v_91 = v_90 * cst  # line 155
    v_92 = v_30 + v_91  # line 156
    v_93 = v_92.broadcast_to([64, 64])  # line 157
    v_94 = v_93 + v_31  # line 158
    v_95 = v_39.index(1)  # line 159
    acc_96 = gl.full([64, 64], acc_51, gl.int1, layout=A_LOAD_LAYOUT)  # line 160
    async_copy.async_copy_global_to_shared(v_95, v_94, mask=acc_96)  # line 161
    async_copy.commit_group()  # line 162
    k_99 = offs_n + cst_8  # line 163
    k_100 = gl.expand_dims(k_99, 0)  # line 164
    k_101 = k_100 * cst_0  # line 165
    k_102 = k_26 + k_101  # line 166
    k_103 = k_102.broadcast_to([64, 64])  # line 167
    k_104 = k_103 + k_29  # line 168
    acc_105 = gl.full([64, 64], acc_72, gl.int1, layout=B_LOAD_LAYOUT)  # line 169
    async_copy.async_copy_global_to_shared(k_46, k_104, mask=acc_105)  # line 170
    async_copy.commit_group()  # line 171
    acc_108 = N_CTX - 64  # line 172
    fence_async_shared()  # line 173
    m_ij_117 = m_ij_76
    arg8 = cst_5
    arg9 = 1
    arg10 = 0
    arg11 = 0
    arg12 = 1
    alpha_118 = alpha_82
    p_119 = p_81
    acc_120 = acc_34
    arg16 = 0
    k_121 = k_68
    acc_122 = acc_36
    arg19 = 0
    v_123 = v_58
    for acc_116 in range(0, acc_108, 64):  # line 174
        acc_126 = N_CTX - 192  # line 175
        acc_127 = acc_116 < acc_126  # line 176
        acc_128 = N_CTX - 128  # line 177
        acc_129 = acc_116 < acc_128  # line 178
        l_i = arg8 * alpha_118  # line 179
        l_i_130 = gl.reduce(p_119, 1, _combine_addf)  # line 180
        l_i_131 = l_i + l_i_130  # line 185
        mbarrier.wait(acc_120, arg16, pred=True, deps=[q_25, k_121])  # line 186
        qk_132 = qk.load(REDUCE_LAYOUT)  # line 187
        m_ij_133 = gl.reduce(qk_132, 1, _combine_maxnumf_1)  # line 188
        m_ij_134 = m_ij_133 * m_ij  # line 193
        m_ij_135 = gl.maximum(m_ij_117, m_ij_134)  # line 194
        p_136 = qk_132 * p  # line 195
        p_137 = gl.expand_dims(m_ij_135, 1)  # line 196
        p_138 = p_137.broadcast_to([128, 64])  # line 197
        p_139 = p_136 - p_138  # line 198
        p_140 = gl.exp2(p_139)  # line 199
        alpha_141 = m_ij_117 - m_ij_135  # line 200
        alpha_142 = gl.exp2(alpha_141)  # line 201
        acc_143 = gl.expand_dims(alpha_142, 1)  # line 202
        acc_144 = acc_143.broadcast_to([128, 64])  # line 203
        mbarrier.wait(acc_122, arg19, deps=[acc_49, v_123])  # line 204
        acc_145 = acc.load(REDUCE_LAYOUT)  # line 205
        acc_146 = acc_145 * acc_144  # line 206
        async_copy.wait_group(0)  # line 207
        v_148 = v_39.index(arg12)  # line 208
        acc_149 = p_140.to(gl.float16)  # line 209
        acc_49.store(acc_149, pred=True)  # line 210
        acc.store(acc_146, pred=True)  # line 211
        acc_150 = acc_35.index(arg12)  # line 212
        tcgen05_mma(acc_49, v_148, acc, use_acc=True, pred=True, mbarriers=[acc_150], mbarrier_preds=[True])  # line 213
        acc_151 = arg11 ^ 1  # line 214
        acc_152 = arg12 + 1  # line 215
        acc_153 = acc_152 >= 2  # line 216
        acc_154 = gl.where(acc_153, 0, acc_152)  # line 217
        acc_155 = gl.where(acc_153, acc_151, arg11)  # line 218
        acc_156 = acc_116 + 128  # line 219
        k_157 = gl.full([64], acc_156, gl.int32, layout=A_LOAD_SLICE1_LAYOUT)  # line 220
        k_158 = k_157 + offs_n_14  # line 221
        k_159 = k_38.index(acc_154)  # line 222
        acc_160 = acc_32.index(arg10)  # line 223
        tcgen05_mma(q_25, k_159, qk, use_acc=False, pred=acc_129, mbarriers=[acc_160], mbarrier_preds=[True])  # line 224
        v_161 = gl.expand_dims(k_158, 1)  # line 225
        v_162 = v_161 * cst  # line 226
        v_163 = v_30 + v_162  # line 227
        v_164 = v_163.broadcast_to([64, 64])  # line 228
        v_165 = v_164 + v_31  # line 229
        v_166 = v_39.index(arg10)  # line 230
        acc_167 = gl.full([64, 64], acc_129, gl.int1, layout=A_LOAD_LAYOUT)  # line 231
        async_copy.async_copy_global_to_shared(v_166, v_165, mask=acc_167)  # line 232
        async_copy.commit_group()  # line 233
        qk_170 = arg9 ^ 1  # line 234
        qk_171 = arg10 + 1  # line 235
        qk_172 = qk_171 >= 2  # line 236
        qk_173 = gl.where(qk_172, 0, qk_171)  # line 237
        qk_174 = gl.where(qk_172, qk_170, arg9)  # line 238
        acc_175 = acc_116 + 192  # line 239
        k_176 = gl.full([64], acc_175, gl.int32, layout=B_LOAD_SLICE0_LAYOUT)  # line 240
        k_177 = k_176 + offs_n  # line 241
        k_178 = gl.expand_dims(k_177, 0)  # line 242
        k_179 = k_178 * cst_0  # line 243
        k_180 = k_26 + k_179  # line 244
        k_181 = k_180.broadcast_to([64, 64])  # line 245
        k_182 = k_181 + k_29  # line 246
        k_183 = k_38.index(qk_173)  # line 247
        acc_184 = gl.full([64, 64], acc_127, gl.int1, layout=B_LOAD_LAYOUT)  # line 248
        async_copy.async_copy_global_to_shared(k_183, k_182, mask=acc_184)  # line 249
        async_copy.commit_group()  # line 250
        m_ij_117, arg8, arg9, arg10, arg11, arg12, alpha_118, p_119, acc_120, arg16, k_121, acc_122, arg19, v_123 = m_ij_135, l_i_131, qk_174, qk_173, acc_155, acc_154, alpha_142, p_140, acc_160, arg9, k_159, acc_150, arg11, v_148
    acc_109_0 = m_ij_117
    acc_109_1 = arg8
    acc_109_2 = arg9
    acc_109_3 = arg10
    acc_109_4 = arg11
    acc_109_5 = arg12
    acc_109_6 = alpha_118
    acc_109_7 = p_119
    acc_109_8 = acc_120
    acc_109_9 = arg16
    acc_109_10 = k_121
    acc_109_11 = acc_122
    acc_109_12 = arg19
    acc_109_13 = v_123
    if acc_40:  # line 253
        l_i_1 = acc_109_1 * acc_109_6  # line 254
        l_i_116 = gl.reduce(acc_109_7, 1, _combine_addf_1)  # line 255
        l_i_117 = l_i_1 + l_i_116  # line 260
        mbarrier.wait(acc_109_11, acc_109_12, deps=[acc_49, acc_109_13])  # line 261
        acc_110 = l_i_117
    else:
        acc_110 = acc_109_1
    async_copy.wait_group(0)  # line 266
    v_39._keep_alive()  # line 267
    k_38._keep_alive()  # line 268
    mbarrier.invalidate(acc_36)  # line 269
    mbarrier.invalidate(acc_37)  # line 270
    acc_35._keep_alive()  # line 271
    mbarrier.invalidate(acc_33)  # line 272
    mbarrier.invalidate(acc_34)  # line 273
    acc_32._keep_alive()  # line 274
    acc_112 = gl.expand_dims(acc_110, 1)  # line 275
    acc_113 = acc_112.broadcast_to([128, 64])  # line 276
    v0 = O + off_10  # line 277
    v1 = gl.full([128, 1], v0, v0.dtype, layout=A_LOAD_LAYOUT)  # line 278
    v2 = v1 + q_16  # line 279
    v3 = v2.broadcast_to([128, 64])  # line 280
    v4 = v3 + q_22  # line 281
    acc_114 = acc.load(REDUCE_LAYOUT)  # line 282
    acc_115 = acc_114 / acc_113  # line 283
    v5 = acc_115.to(gl.float16)  # line 284
    v6 = gl.convert_layout(v5, A_LOAD_LAYOUT)  # line 285
    gl.store(v4, v6)  # line 286


NUM_WARPS = 4


def launch(grid, Q, K, V, O, sm_scale, N_CTX):
    """Runs the anchor on plain's arguments with plain's grid and num_warps.

    Plain's binary was specialised for launches with
      16-byte aligned: Q, K, V, O
      multiples of 16: N_CTX
    and the anchor is that kernel for them.
    """
    return attn_fwd[grid](Q, K, V, O, sm_scale, N_CTX, num_warps=NUM_WARPS)
