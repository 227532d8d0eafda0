import triton
import triton.language as tl


@triton.jit
def mm(a, b, acc):
    return tl.dot(a, b, acc)


@triton.jit
def mm_twice(a, b, acc):
    return mm(a, b, mm(a, b, acc))  # helpers calling helpers are inlined too


@triton.jit
def scale(x, s):
    return x * s  # no dot
