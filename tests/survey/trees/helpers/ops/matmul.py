import triton
import triton.language as tl

from pkg.mma import mm, scale
from pkg import mma as mma_mod


@triton.jit
def local_dot(a, b, acc):
    return tl.dot(a, b, acc)


@triton.jit
def k_local(a_ptr, b_ptr, c_ptr, K, BK: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(0, K, BK):  # a helper in this file holds the dot
        acc = local_dot(tl.load(a_ptr + k), tl.load(b_ptr + k), acc)
    tl.store(c_ptr, acc)


@triton.jit
def k_imported(a_ptr, b_ptr, c_ptr, K, BK: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(0, K, BK):  # a helper imported from another module holds the dot
        acc = mm(tl.load(a_ptr + k), tl.load(b_ptr + k), acc)
    tl.store(c_ptr, acc)


@triton.jit
def k_module_attr(a_ptr, b_ptr, c_ptr, K, BK: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(0, K, BK):  # through the module: mma_mod.mm_twice
        acc = mma_mod.mm_twice(tl.load(a_ptr + k), tl.load(b_ptr + k), acc)
    tl.store(c_ptr, acc)


@triton.jit
def k_no_dot(x_ptr, K, BK: tl.constexpr):
    for k in range(0, K, BK):  # the imported helper holds no dot
        tl.store(x_ptr + k, scale(tl.load(x_ptr + k), 2.0))


@triton.jit
def k_tl_range(a_ptr, b_ptr, c_ptr, K, BK: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    for k in tl.range(0, K, BK, 3):  # num_stages given positionally
        acc = tl.dot(tl.load(a_ptr + k), tl.load(b_ptr + k), acc)
    for k in tl.range(0, K, BK, flatten=True, warp_specialize=True):
        acc = tl.dot(tl.load(a_ptr + k), tl.load(b_ptr + k), acc)
    tl.store(c_ptr, acc)
