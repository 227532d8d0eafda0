# Ten dot loops in the shapes real libraries write them, small enough to
# compile in a second. Each kernel names the loop it stands for; the loop
# forms survey gives them are checked in lit/survey/forms.test, and the
# device probe compiles them to read what the pipeliner did.
import triton
import triton.language as tl


# L1: a GEMM's K loop, bare, one dot (a tutorial-style matmul).
@triton.jit
def l01_gemm_launch(a, b, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a + rm[:, None] * K + rk[None, :]
    b_ptrs = b + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        y = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(x, y, acc)
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c + rm[:, None] * BN + rn[None, :], acc.to(tl.float16))


# L2: an attention backward dq loop: tl.range without num_stages, three dots.
@triton.jit
def l02_bwd_dq_three_dots(q, k, v, do, dq, n_steps, BM: tl.constexpr, BN: tl.constexpr,
                          D: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    bq = tl.load(q + rm[:, None] * D + rd[None, :])
    bdo = tl.load(do + rm[:, None] * D + rd[None, :])
    acc = tl.zeros((BM, D), dtype=tl.float32)
    for step in tl.range(0, n_steps, 1, loop_unroll_factor=1):
        kt = tl.load(k + (step * BN + rn)[None, :] * D + rd[:, None])
        vt = tl.load(v + (step * BN + rn)[None, :] * D + rd[:, None])
        qk = tl.dot(bq, kt)
        dp = tl.dot(bdo, vt)
        ds = (qk * (dp - 1.0)).to(tl.float16)
        acc += tl.dot(ds, tl.trans(kt))
    tl.store(dq + rm[:, None] * D + rd[None, :], acc.to(tl.float16))


@triton.jit
def _attn_iteration(bq, bk, bv, m_i, l_i, acc):
    qk = tl.dot(bq, bk)
    m_new = tl.maximum(m_i, tl.max(qk, 1))
    p = tl.math.exp2(qk - m_new[:, None])
    alpha = tl.math.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), bv)
    return m_new, l_i, acc


# L3: an attention forward loop whose two dots are in an inlined helper.
@triton.jit
def l03_attn_helper_dots(q, k, v, o, n_ctx, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    bq = tl.load(q + rm[:, None] * D + rd[None, :])
    m_i = tl.zeros((BM,), dtype=tl.float32) - float("inf")
    l_i = tl.zeros((BM,), dtype=tl.float32)
    acc = tl.zeros((BM, D), dtype=tl.float32)
    for start_n in tl.range(0, n_ctx, BN):
        bk = tl.load(k + (start_n + rn)[None, :] * D + rd[:, None])
        bv = tl.load(v + (start_n + rn)[:, None] * D + rd[None, :])
        m_i, l_i, acc = _attn_iteration(bq, bk, bv, m_i, l_i, acc)
    tl.store(o + rm[:, None] * D + rd[None, :], (acc / l_i[:, None]).to(tl.float16))


# L4: num_stages from a constexpr local that is None (the launch decides)
# or 1 (frozen), chosen by a constexpr switch.
@triton.jit
def l04_attn_stages_switch(q, k, v, o, n_ctx, BM: tl.constexpr, BN: tl.constexpr,
                           D: tl.constexpr, ENABLE_PIPELINING: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    bq = tl.load(q + rm[:, None] * D + rd[None, :])
    acc = tl.zeros((BM, D), dtype=tl.float32)
    num_stages: tl.constexpr = None if ENABLE_PIPELINING else 1
    for start_n in tl.range(0, n_ctx, BN, num_stages=num_stages):
        bk = tl.load(k + (start_n + rn)[None, :] * D + rd[:, None])
        bv = tl.load(v + (start_n + rn)[:, None] * D + rd[None, :])
        p = tl.dot(bq, bk)
        acc += tl.dot(p.to(tl.float16), bv)
    tl.store(o + rm[:, None] * D + rd[None, :], acc.to(tl.float16))


# L5: a paged decode loop over a block table, frozen at num_stages=1.
@triton.jit
def l05_paged_frozen(q, kv, table, o, n_tiles, BT: tl.constexpr, D: tl.constexpr,
                     BH: tl.constexpr):
    rh = tl.arange(0, BH)
    rt = tl.arange(0, BT)
    rd = tl.arange(0, D)
    bq = tl.load(q + rh[:, None] * D + rd[None, :])
    acc = tl.zeros((BH, D), dtype=tl.float32)
    for j in tl.range(0, n_tiles, num_stages=1):
        block = tl.load(table + j).to(tl.int64)
        bkv = tl.load(kv + block * BT * D + rt[:, None] * D + rd[None, :])
        s = tl.dot(bq, tl.trans(bkv))
        acc += tl.dot(s.to(tl.float16), bkv)
    tl.store(o + rh[:, None] * D + rd[None, :], acc.to(tl.float16))


# L6: a loop over Householder factors holding a K loop, with a dot of its own.
@triton.jit
def l06_householder_outer(q, k, v, o, K, NH, BT: tl.constexpr, BK: tl.constexpr,
                          BV: tl.constexpr):
    rt = tl.arange(0, BT)
    rv = tl.arange(0, BV)
    b_o = tl.zeros((BT, BV), dtype=tl.float32)
    for i_dp in range(NH):
        b_a = tl.zeros((BT, BT), dtype=tl.float32)
        for i_k in range(tl.cdiv(K, BK)):
            rk = i_k * BK + tl.arange(0, BK)
            b_q = tl.load(q + rt[:, None] * K + rk[None, :], mask=rk[None, :] < K, other=0.0)
            b_k = tl.load(k + i_dp * K * BT + rk[:, None] + rt[None, :] * K,
                          mask=rk[:, None] < K, other=0.0)
            b_a += tl.dot(b_q, b_k)
        b_v = tl.load(v + i_dp * BT * BV + rt[:, None] * BV + rv[None, :])
        b_o += tl.dot(b_a.to(tl.float16), b_v)
    tl.store(o + rt[:, None] * BV + rv[None, :], b_o.to(tl.float16))


@triton.jit
def _bwd_one_block(start_m, q, do, dq, lock, bk, bv, dk, dv, BM: tl.constexpr,
                   D: tl.constexpr, ATOMIC_ADD: tl.constexpr):
    rm = start_m + tl.arange(0, BM)
    rd = tl.arange(0, D)
    bq = tl.load(q + rm[:, None] * D + rd[None, :])
    bdo = tl.load(do + rm[:, None] * D + rd[None, :])
    s = tl.dot(bk, tl.trans(bq))
    p = s.to(tl.float16)
    dv += tl.dot(p, bdo)
    dp = tl.dot(bv, tl.trans(bdo))
    ds = (p * dp).to(tl.float16)
    dk += tl.dot(ds, bq)
    dq_part = tl.dot(tl.trans(ds), bk)
    if ATOMIC_ADD:
        # A spin lock around the dq update: a while loop in the caller's body.
        while tl.atomic_cas(lock, 0, 1) == 1:
            pass
    dq_ptrs = dq + rm[:, None] * D + rd[None, :]
    tl.store(dq_ptrs, (tl.load(dq_ptrs) + dq_part).to(tl.float16))
    if ATOMIC_ADD:
        tl.atomic_xchg(lock, 0)
    return dk, dv


# L7: a backward column-block loop whose helper brings a spin-lock while loop
# under a constexpr switch.
@triton.jit
def l07_bwd_helper_while(q, k, v, do, dq, dk_out, dv_out, lock, n_rows, BM: tl.constexpr,
                         BN: tl.constexpr, D: tl.constexpr, ATOMIC_ADD: tl.constexpr):
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    bk = tl.load(k + rn[:, None] * D + rd[None, :])
    bv = tl.load(v + rn[:, None] * D + rd[None, :])
    dk = tl.zeros((BN, D), dtype=tl.float32)
    dv = tl.zeros((BN, D), dtype=tl.float32)
    for start_m in range(0, n_rows, BM):
        start_m = tl.multiple_of(start_m, BM)
        dk, dv = _bwd_one_block(start_m, q, do, dq, lock, bk, bv, dk, dv, BM, D, ATOMIC_ADD)
    tl.store(dk_out + rn[:, None] * D + rd[None, :], dk.to(tl.float16))
    tl.store(dv_out + rn[:, None] * D + rd[None, :], dv.to(tl.float16))


# L8: a persistent stream-K tile loop holding the K loop, with the
# remainder's dot in its own body.
@triton.jit
def l08_streamk_outer(a, b, c, K, total_tiles, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr, NUM_SMS: tl.constexpr, EVEN_K: tl.constexpr):
    pid = tl.program_id(0)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    for tile_id in range(pid, total_tiles, NUM_SMS):
        a_base = a + tile_id * BM * K + rm[:, None] * K + rk[None, :]
        b_base = b + rk[:, None] * BN + rn[None, :]
        loop_k = tl.cdiv(K, BK)
        if not EVEN_K:
            loop_k -= 1
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kk in range(0, loop_k):
            acc += tl.dot(tl.load(a_base), tl.load(b_base))
            a_base += BK
            b_base += BK * BN
        if not EVEN_K:
            kr = loop_k * BK + rk
            x = tl.load(a_base, mask=kr[None, :] < K, other=0.0)
            y = tl.load(b_base, mask=kr[:, None] < K, other=0.0)
            acc += tl.dot(x, y)
        tl.store(c + tile_id * BM * BN + rm[:, None] * BN + rn[None, :], acc.to(tl.float16))


# L9: a fused matmul-and-norm K loop over static_range (K is constexpr).
@triton.jit
def l09_static_k(x_ptr, w_ptr, out, BN: tl.constexpr, BM: tl.constexpr, BK: tl.constexpr,
                 K: tl.constexpr):
    rn = tl.arange(0, BN)
    rm = tl.arange(0, BM)
    acc = tl.zeros((BN, BM), tl.float32)
    sumsq = tl.zeros((BN,), tl.float32)
    for k0 in tl.static_range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        x = tl.load(x_ptr + rn[:, None] * K + rk[None, :])
        sumsq += tl.sum(x.to(tl.float32) * x.to(tl.float32), axis=1)
        w = tl.load(w_ptr + rk[:, None] * BM + rm[None, :])
        acc = tl.dot(x, w, acc)
    acc = acc * tl.rsqrt(sumsq / K + 1e-6)[:, None]
    tl.store(out + rn[:, None] * BM + rm[None, :], acc.to(tl.float16))


# L10: a grouped GEMM's persistent tiles: a while loop per group, one dot.
@triton.jit
def l10_grouped_while(lhs, rhs, out, group_sizes, G, tiles_per_group, BM: tl.constexpr,
                      BN: tl.constexpr, BK: tl.constexpr, NUM_SMS: tl.constexpr):
    tile = tl.program_id(0)
    last_tile = 0
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    for g in range(G):
        m = tl.load(group_sizes + g)
        while tile >= last_tile and tile < last_tile + tiles_per_group:
            x = tl.load(lhs + (g * BM + rm)[:, None] * BK + rk[None, :])
            y = tl.load(rhs + rk[:, None] * BN + rn[None, :])
            acc = tl.dot(x, y)
            tl.store(out + (tile * BM + rm)[:, None] * BN + rn[None, :], (acc * m).to(tl.float16))
            tile += NUM_SMS
        last_tile += tiles_per_group
