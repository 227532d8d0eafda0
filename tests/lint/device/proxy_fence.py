"""proxy-fence on the device: shared memory written through the generic proxy
(`smem.store`, st.shared) and then read by wgmma through the async proxy.

Cases (see harness.py for how they run and what they print):

  wgmma-trip   one partition stores the A and B tiles of every K step and
               hands them to warpgroup_mma with no fence_async_shared.
  wgmma-fixed  the same kernel with fence_async_shared() between the stores
               and the MMA.
  ws-trip      a worker partition (4 warps) loads the tiles from global
               memory, stores them to shared memory and arrives on the `ready`
               mbarrier; the default partition waits on it and runs wgmma. No
               fence between the producer's stores and its arrive.
  ws-fixed     the same with fence_async_shared() before the arrive.

Triton's own proxy-fence insertion (run while lowering to LLVM, after the
TTGIR is written) fences a store followed by an async read in the same
partition, so wgmma-trip's PTX may hold a fence its TTGIR lacks: the record's
ptx_fence_proxy_async says. Across partitions it has no store and read in one
region to pair, which is what the ws cases probe.

All values are small integers, so every product and sum is exact in fp32 and
the reference is compared with tolerance 0.
"""

import inspect
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402

from triton.experimental import gluon  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402
from triton.experimental.gluon.language.nvidia.hopper import (  # noqa: E402
    fence_async_shared, mbarrier, warpgroup_mma, warpgroup_mma_wait,
)

BM, BN, BK = 64, 64, 64
K = 1024  # 16 K steps
PROGRAMS = 132  # one tile of C per program
RULE = "proxy-fence"

# gl.warp_specialize took (default_args, default_partition, worker_args,
# worker_partitions, worker_num_warps, worker_num_regs) before it took a list
# of (function, args) pairs; the kernel is written for either.
_WS_PARAMS = inspect.signature(gl.warp_specialize).parameters
OLD_WS_API = "default_partition" in _WS_PARAMS


@gluon.jit
def wgmma_from_stores(a_ptr, b_ptr, c_ptr, K, BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr,
                      FENCE: gl.constexpr):
    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    mma: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                  instr_shape=[16, BN, 16])
    tile: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)
    a_smem = gl.allocate_shared_memory(gl.float16, [BM, BK], tile)
    b_smem = gl.allocate_shared_memory(gl.float16, [BK, BN], tile)

    pid = gl.program_id(0)
    rm = pid * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, blocked))
    rk = gl.arange(0, BK, layout=gl.SliceLayout(0, blocked))
    rkb = gl.arange(0, BK, layout=gl.SliceLayout(1, blocked))
    rn = gl.arange(0, BN, layout=gl.SliceLayout(0, blocked))
    acc = gl.zeros([BM, BN], dtype=gl.float32, layout=mma)
    for k in range(0, K, BK):
        a = gl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = gl.load(b_ptr + (k + rkb)[:, None] * BN + rn[None, :])
        a_smem.store(a)
        b_smem.store(b)
        if FENCE:
            fence_async_shared()
        acc = warpgroup_mma(a_smem, b_smem, acc, is_async=True)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc, ))

    om = pid * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, mma))
    on = gl.arange(0, BN, layout=gl.SliceLayout(0, mma))
    gl.store(c_ptr + om[:, None] * BN + on[None, :], acc)


@gluon.jit
def _ws_consumer(c_ptr, a_smem, b_smem, ready, empty, K, pid, BM: gl.constexpr, BN: gl.constexpr,
                 BK: gl.constexpr):
    mma: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                  instr_shape=[16, BN, 16])
    acc = gl.zeros([BM, BN], dtype=gl.float32, layout=mma)
    for k in range(0, K // BK):
        mbarrier.wait(ready, k & 1)
        acc = warpgroup_mma(a_smem, b_smem, acc, is_async=True)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc, ))
        mbarrier.arrive(empty, count=1)
    om = pid * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, mma))
    on = gl.arange(0, BN, layout=gl.SliceLayout(0, mma))
    gl.store(c_ptr + om[:, None] * BN + on[None, :], acc)


@gluon.jit
def _ws_producer(a_ptr, b_ptr, a_smem, b_smem, ready, empty, K, pid, BM: gl.constexpr,
                 BN: gl.constexpr, BK: gl.constexpr, FENCE: gl.constexpr):
    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    rm = pid * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, blocked))
    rk = gl.arange(0, BK, layout=gl.SliceLayout(0, blocked))
    rkb = gl.arange(0, BK, layout=gl.SliceLayout(1, blocked))
    rn = gl.arange(0, BN, layout=gl.SliceLayout(0, blocked))
    for k in range(0, K // BK):
        # The first wait on `empty` passes: a fresh barrier's phase 1 counts
        # as complete.
        mbarrier.wait(empty, (k & 1) ^ 1)
        a = gl.load(a_ptr + rm[:, None] * K + (k * BK + rk)[None, :])
        b = gl.load(b_ptr + (k * BK + rkb)[:, None] * BN + rn[None, :])
        a_smem.store(a)
        b_smem.store(b)
        if FENCE:
            fence_async_shared()
        mbarrier.arrive(ready, count=1)


@gluon.jit
def ws_wgmma(a_ptr, b_ptr, c_ptr, K, BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr,
             FENCE: gl.constexpr, OLD_WS_API: gl.constexpr):
    tile: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)
    a_smem = gl.allocate_shared_memory(gl.float16, [BM, BK], tile)
    b_smem = gl.allocate_shared_memory(gl.float16, [BK, BN], tile)
    ready = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(ready, count=1)
    mbarrier.init(empty, count=1)
    pid = gl.program_id(0)
    if OLD_WS_API:
        gl.warp_specialize((c_ptr, a_smem, b_smem, ready, empty, K, pid, BM, BN, BK), _ws_consumer,
                           (a_ptr, b_ptr, a_smem, b_smem, ready, empty, K, pid, BM, BN, BK, FENCE),
                           [_ws_producer], [4], [96])
    else:
        gl.warp_specialize([
            (_ws_consumer, (c_ptr, a_smem, b_smem, ready, empty, K, pid, BM, BN, BK)),
            (_ws_producer, (a_ptr, b_ptr, a_smem, b_smem, ready, empty, K, pid, BM, BN, BK, FENCE)),
        ], [4], [96])
    mbarrier.invalidate(ready)
    mbarrier.invalidate(empty)


def _setup():
    import torch

    gen = torch.Generator(device="cuda").manual_seed(28)
    a = torch.randint(-2, 3, (PROGRAMS * BM, K), device="cuda", generator=gen).to(torch.float16)
    b = torch.randint(-2, 3, (K, BN), device="cuda", generator=gen).to(torch.float16)
    c = torch.empty(PROGRAMS * BM, BN, device="cuda", dtype=torch.float32)
    return {"a": a, "b": b, "c": c, "ref": a.float() @ b.float()}


def _reset(s):
    s["c"].fill_(1.0e30)


def _check(s):
    return harness.compare(s["c"], s["ref"], tol=0.0)


def _single(fence):

    def launch(s):
        return wgmma_from_stores[(PROGRAMS, )](s["a"], s["b"], s["c"], K, BM, BN, BK, fence, num_warps=4)

    return launch


def _ws(fence):

    def launch(s):
        return ws_wgmma[(PROGRAMS, )](s["a"], s["b"], s["c"], K, BM, BN, BK, fence, OLD_WS_API,
                                      num_warps=4, maxnreg=128)

    return launch


CASES = {
    "wgmma-trip":
    harness.Case(RULE, "trip", "smem.store then warpgroup_mma, no fence_async_shared", _setup, _single(False),
                 _check, _reset, launches=20),
    "wgmma-fixed":
    harness.Case(RULE, "fixed", "smem.store, fence_async_shared, warpgroup_mma", _setup, _single(True), _check,
                 _reset, launches=20),
    "ws-trip":
    harness.Case(RULE, "trip", "worker partition stores the tiles and arrives with no fence; default runs wgmma",
                 _setup, _ws(False), _check, _reset, launches=50),
    "ws-fixed":
    harness.Case(RULE, "fixed", "worker partition stores, fence_async_shared, arrives; default runs wgmma", _setup,
                 _ws(True), _check, _reset, launches=50),
}

if __name__ == "__main__":
    sys.exit(harness.main(CASES))
