"""mbarrier-phase on the device: a ring of two mbarriers tracking TMA loads,
waited on with a phase that does or does not follow the ring.

Every program sums the NUM_K column tiles of its rows: the prologue issues
the TMA loads of tiles 0 and 1 on barriers 0 and 1; iteration i waits on
barrier i % 2, adds tile i, and issues the load of tile i + 2 on the same
barrier. Each tile has its own shared-memory slot, so the only thing that
orders a read after its load is the wait, and the wait's phase decides it.

Cases (see harness.py for how they run and what they print):

  ring-trip      phase = i & 1: flips every iteration, while each barrier
                 completes every second one. At i = 1 barrier 1 has completed
                 once (tile 1 landed) and the wait for parity 1 waits for the
                 next completion, the load this thread issues only after the
                 wait: a hang; if tile 1 has not landed yet, the wait passes at
                 once and reads an empty slot.
  constant-trip  phase = 0 on every iteration: right for the first round of
                 the ring; from i = 2 on the wait passes at once while the
                 tile is in flight (stale slot) or waits for a completion that
                 comes only after it (hang).
  fixed          phase = (i // 2) & 1, index i % 2.

Values are small integers: sums are exact and compared with tolerance 0.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402

from triton.experimental import gluon  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402
from triton.experimental.gluon.language.nvidia.hopper import mbarrier, tma  # noqa: E402
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor  # noqa: E402

BM, BK = 64, 32
NUM_K = 8  # tiles per row block: 8 slots of 64x32 fp32 = 64 KiB
NUM_BARRIERS = 2
PROGRAMS = 132
RULE = "mbarrier-phase"

PHASE_FIXED, PHASE_FLIP, PHASE_CONSTANT = 0, 1, 2


@gluon.jit
def ring_sum(x_desc, out_ptr, NUM_K: gl.constexpr, NUM_BARRIERS: gl.constexpr, PHASE: gl.constexpr):
    BM: gl.constexpr = x_desc.block_type.shape[0]
    BK: gl.constexpr = x_desc.block_type.shape[1]
    blocked: gl.constexpr = gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    slots = gl.allocate_shared_memory(x_desc.dtype, [NUM_K, BM, BK], x_desc.layout)
    bars = gl.allocate_shared_memory(gl.int64, [NUM_BARRIERS, 1], mbarrier.MBarrierLayout())
    for j in gl.static_range(NUM_BARRIERS):
        mbarrier.init(bars.index(j), count=1)

    row0 = gl.program_id(0) * BM
    for j in gl.static_range(NUM_BARRIERS):
        mbarrier.expect(bars.index(j), x_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(x_desc, [row0, j * BK], bars.index(j), slots.index(j))

    acc = gl.zeros([BM, BK], dtype=gl.float32, layout=blocked)
    for i in range(NUM_K):
        bar = bars.index(i % NUM_BARRIERS)
        if PHASE == 0:
            phase = (i // NUM_BARRIERS) & 1
        elif PHASE == 1:
            phase = i & 1
        else:
            phase = 0
        mbarrier.wait(bar, phase)
        acc += slots.index(i).load(blocked)
        if i + NUM_BARRIERS < NUM_K:
            mbarrier.expect(bar, x_desc.block_type.nbytes)
            tma.async_copy_global_to_shared(x_desc, [row0, (i + NUM_BARRIERS) * BK], bar,
                                            slots.index(i + NUM_BARRIERS))

    for j in gl.static_range(NUM_BARRIERS):
        mbarrier.invalidate(bars.index(j))
    rows = row0 + gl.arange(0, BM, layout=gl.SliceLayout(1, blocked))
    cols = gl.arange(0, BK, layout=gl.SliceLayout(0, blocked))
    gl.store(out_ptr + rows[:, None] * BK + cols[None, :], acc)


def _setup():
    import torch

    gen = torch.Generator(device="cuda").manual_seed(28)
    x = torch.randint(-8, 9, (PROGRAMS * BM, NUM_K * BK), device="cuda", generator=gen).float()
    out = torch.empty(PROGRAMS * BM, BK, device="cuda", dtype=torch.float32)
    layout = gl.NVMMASharedLayout.get_default_for([BM, BK], gl.float32)
    desc = TensorDescriptor.from_tensor(x, [BM, BK], layout)
    ref = x.view(PROGRAMS * BM, NUM_K, BK).sum(1)
    return {"x": x, "out": out, "desc": desc, "ref": ref}


def _reset(s):
    s["out"].fill_(1.0e30)


def _check(s):
    return harness.compare(s["out"], s["ref"], tol=0.0)


def _launch(phase):

    def launch(s):
        return ring_sum[(PROGRAMS, )](s["desc"], s["out"], NUM_K, NUM_BARRIERS, phase, num_warps=4)

    return launch


CASES = {
    "ring-trip":
    harness.Case(RULE, "trip", "ring of 2 barriers waited with phase = i & 1", _setup, _launch(PHASE_FLIP), _check,
                 _reset, launches=10),
    "constant-trip":
    harness.Case(RULE, "trip", "ring of 2 barriers waited with phase = 0", _setup, _launch(PHASE_CONSTANT), _check,
                 _reset, launches=10),
    "fixed":
    harness.Case(RULE, "fixed", "ring of 2 barriers waited with phase = (i // 2) & 1", _setup, _launch(PHASE_FIXED),
                 _check, _reset, launches=10),
}

if __name__ == "__main__":
    sys.exit(harness.main(CASES))
