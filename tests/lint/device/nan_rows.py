"""nan-rows on the device: a masked cp.async (async_copy_global_to_shared with
a mask, which has no `other=`) of rows narrower than the block, reduced
across the masked dim.

Every program copies a BM x BLOCK_N tile of an N_COLS-wide matrix (N_COLS <
BLOCK_N: the last BLOCK_N - N_COLS columns of every row are masked off) into
shared memory, loads it and reduces each row. Before the copy the kernel
fills the tile with the marker 1234.0, so that the dead columns hold either
what the copy wrote for them (cp.async's zero fill) or the marker (nothing).
All values are negative: whatever stands in the dead columns shows in a
maximum (0.0 for zeros, 1234.0 for the marker) and, unless it is zero, in a
sum.

Cases (see harness.py for how they run and what they print):

  max-trip   gl.max over the row of the tile as loaded.
  max-fixed  gl.where(mask, tile, -inf) before gl.max.
  sum-fixed  gl.sum over the row of the tile as loaded: with zero-filled dead
             columns this is right, and lint does not report a sum on NVIDIA
             (only a maximum or minimum); if the dead columns held anything
             but zeros this case would show it.

The record's rows_zero and rows_marker count the rows whose result is
exactly 0.0 or 1234.0 (zero-filled or untouched dead columns in max-trip).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402

from triton.experimental import gluon  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402
from triton.experimental.gluon.language.nvidia.hopper import async_copy  # noqa: E402

BM, BLOCK_N = 32, 128
N_COLS = 100
PROGRAMS = 264
RULE = "nan-rows"

REDUCE_MAX, REDUCE_MAX_MASKED, REDUCE_SUM = 0, 1, 2


@gluon.jit
def masked_rows(x_ptr, out_ptr, n_rows, n_cols, BM: gl.constexpr, BLOCK_N: gl.constexpr, REDUCE: gl.constexpr):
    blocked: gl.constexpr = gl.BlockedLayout([1, 4], [1, 32], [4, 1], [1, 0])
    flat: gl.constexpr = gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0])
    tile = gl.allocate_shared_memory(gl.float32, [BM, BLOCK_N], flat)
    tile.store(gl.full([BM, BLOCK_N], 1234.0, gl.float32, layout=blocked))

    rows = gl.program_id(0) * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, blocked))
    cols = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, blocked))
    live = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    ptrs = x_ptr + rows[:, None] * n_cols + cols[None, :]
    async_copy.async_copy_global_to_shared(tile, ptrs, mask=live)
    async_copy.commit_group()
    async_copy.wait_group(0)
    x = tile.load(blocked)
    if REDUCE == 0:
        r = gl.max(x, axis=1)
    elif REDUCE == 1:
        r = gl.max(gl.where(live, x, -float("inf")), axis=1)
    else:
        r = gl.sum(x, axis=1)
    gl.store(out_ptr + rows, r, mask=rows < n_rows)


def _setup(reduce):

    def setup():
        import torch

        gen = torch.Generator(device="cuda").manual_seed(28)
        # Negative values that are exact in fp32 (multiples of 1/8), so sums
        # are exact too.
        x = -(torch.randint(1, 64, (PROGRAMS * BM, N_COLS), device="cuda", generator=gen).float() / 8)
        out = torch.empty(PROGRAMS * BM, device="cuda", dtype=torch.float32)
        ref = x.sum(1) if reduce == REDUCE_SUM else x.max(1).values
        return {"x": x, "out": out, "ref": ref}

    return setup


def _reset(s):
    s["out"].fill_(1.0e30)


def _check(s):
    result = harness.compare(s["out"], s["ref"], tol=0.0)
    result["rows_zero"] = int((s["out"] == 0).sum().item())
    result["rows_marker"] = int((s["out"] == 1234.0).sum().item())
    result["rows"] = s["out"].numel()
    return result


def _launch(reduce):

    def launch(s):
        return masked_rows[(PROGRAMS, )](s["x"], s["out"], PROGRAMS * BM, N_COLS, BM, BLOCK_N, reduce, num_warps=4)

    return launch


CASES = {
    "max-trip":
    harness.Case(RULE, "trip", "masked cp.async without other=, then gl.max across the masked dim",
                 _setup(REDUCE_MAX), _launch(REDUCE_MAX), _check, _reset, launches=3),
    "max-fixed":
    harness.Case(RULE, "fixed", "masked cp.async, gl.where(mask, x, -inf), then gl.max", _setup(REDUCE_MAX),
                 _launch(REDUCE_MAX_MASKED), _check, _reset, launches=3),
    "sum-fixed":
    harness.Case(RULE, "fixed", "masked cp.async without other=, then gl.sum (zeros are harmless)",
                 _setup(REDUCE_SUM), _launch(REDUCE_SUM), _check, _reset, launches=3),
}

if __name__ == "__main__":
    sys.exit(harness.main(CASES))
