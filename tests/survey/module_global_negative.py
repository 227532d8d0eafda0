# Everything Triton's global lookup allows a kernel to read
# (code_generator.py, global_lookup): constexpr objects, modules, JIT
# functions, triton.language objects (however reached), dtypes, namedtuples,
# classes, and names only the host reads.
import collections
import math

import triton
import triton.language as tl
from triton.language.extra import libdevice

BLOCK_DEFAULT = tl.constexpr(256)
ALIAS = BLOCK_DEFAULT               # an alias of a constexpr
HOST_ONLY = 7                       # read on the host only
erf = libdevice.erf                 # a triton.language function under another name
fast_exp = tl.extra.cuda.libdevice.fast_expf
F16 = tl.float16                    # a dtype
Pair = collections.namedtuple("Pair", ["a", "b"])
mathmod = math                      # a module


@triton.jit
def helper(v):
    return v * 2


twice = helper                      # a JIT function under another name


@triton.jit
def norm(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    HOST_ONLY = 3  # a local of the same name shadows the global
    v = twice(tl.load(x + offs)) + BLOCK_DEFAULT + ALIAS + HOST_ONLY
    v = erf(v) + fast_exp(v) + mathmod.pi + math.pi
    p = Pair(v, v)
    tl.store(x + offs, (p.a + p.b).to(F16))


def host():
    return HOST_ONLY * 2


# A language function either way: the newer name where it exists, else the older.
barrier = getattr(tl, "barrier", None) or tl.debug_barrier
cdiv = getattr(tl, "cdiv")
# The attribute where this Triton has it, else None: which one is unknown.
maybe_fence = getattr(tl, "fence", None)


@triton.jit
def synced(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    barrier()
    maybe_fence()
    tl.store(x + offs, v + cdiv(n, BLOCK))
