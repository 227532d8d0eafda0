@triton.jit
def rows(x, o, n):
    i = tl.arange(0, 256)
    m = i < n
    v = tl.load(x + i, mask=m, other=0.0)
    tl.store(o + i, v * 2.0 + 1.0, mask=m)
