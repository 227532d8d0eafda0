@triton.jit
def scale(x):
    return x * 2.0


@triton.jit
def f(x, s):
    return scale(x) * s


@triton.jit
def rows2(x, o, n, sp):
    i = tl.arange(0, 256)
    scale = tl.load(sp)
    v = tl.load(x + i)
    w = hh.f(v, scale)
    tl.store(o + i, w)
