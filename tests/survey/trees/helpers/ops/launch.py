import triton

from pkg import tuned as tuned_mod
from pkg.tuned import g_copy, tuned

BLOCK_M = 128


def run_tuned(x):
    M = x.shape[0]
    tuned[(triton.cdiv(M, BLOCK_M),)](x, M)  # reads the host BLOCK_M, not META


def run_tuned_meta(x):
    M = x.shape[0]
    tuned_mod.tuned[lambda META: (triton.cdiv(M, META["BLOCK_M"]),)](x, M)  # right


def run_all(tensors, layout):
    for t in tensors:
        g_copy[(4,)](t, t.numel(), 256, layout, waves_per_eu=2)
