import math
import os

import torch
import triton
import triton.language as tl

SCALE = 0.5
EPS, CLAMP = 1e-6, 4.0
LOG2E: tl.constexpr = 1.4426950408889634  # the annotation form: not a constexpr object
BLOCK_ENV = int(os.environ.get("BLOCK", "128"))
HALF = torch.float16  # a torch dtype, not a triton.language one
PI = math.pi
NAMES = ["a", "b"]


@triton.jit
def norm(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs) * SCALE
    v = tl.minimum(v + EPS, CLAMP)
    v = v * LOG2E + BLOCK_ENV + PI
    tl.store(x + offs, (v * SCALE).to(HALF))
    tl.static_print(NAMES)


# A plain value on every path: the environment's, or the default.
ROWS = os.environ.get("ROWS") or 8


@triton.jit
def rows(x, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs) * ROWS)
