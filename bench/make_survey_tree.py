#!/usr/bin/env python3
"""make_survey_tree.py DIR N: writes N generated kernel modules under DIR
(nested packages of 100 files), each with four kernels (a launch-form matmul,
an annotated and a bare row loop, a frozen loop, a static_range loop) plus a
host launcher, and prints the expected survey totals as JSON."""
import json
import pathlib
import sys

TEMPLATE = '''import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({{"BM": 128, "BN": 128}}, num_warps=4),
                          triton.Config({{"BM": 64, "BN": 128}}, num_warps=8)],
                 key=["M", "N", "K"])
@triton.jit
def matmul_{i}(a, b, c, M, N, K, sam, sak, sbk, sbn, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr):
    pid = tl.program_id(0)
    offs_m = (pid * BM + tl.arange(0, BM)) % M
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        av = tl.load(a + offs_m[:, None] * sam + (k * BK + offs_k)[None, :] * sak)
        bv = tl.load(b + (k * BK + offs_k)[:, None] * sbk + offs_n[None, :] * sbn)
        acc = tl.dot(av, bv, acc)
    tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16))


@triton.jit
def rownorm_{i}(x, o, stride, N, eps, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], tl.float32)
    for off in tl.range(0, N, BLOCK, num_stages=STAGES):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
    total = tl.sum(acc, 0)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        v = tl.load(x + row * stride + cols, mask=cols < N, other=0.0)
        tl.store(o + row * stride + cols, v / (total + eps), mask=cols < N)


@triton.jit
def pinned_{i}(a, b, c, K, BK: tl.constexpr):
    acc = tl.zeros((64, 64), tl.float32)
    for k in tl.range(0, K, BK, num_stages=1):
        acc = tl.dot(tl.load(a + k), tl.load(b + k), acc)
    tl.store(c, acc)


@triton.jit
def unrolled_{i}(x, BLOCK: tl.constexpr):
    for j in tl.static_range(4):
        tl.store(x + j * BLOCK + tl.arange(0, BLOCK), j)


def launch_{i}(a, b, c):
    M, K = a.shape
    N = b.shape[1]
    grid = lambda META: (triton.cdiv(M, META["BM"]) * triton.cdiv(N, META["BN"]),)
    matmul_{i}[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), BK=64)
    return c
'''


def main():
    root = pathlib.Path(sys.argv[1])
    n = int(sys.argv[2])
    for i in range(n):
        d = root / f"pkg{i // 100:03d}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"kernels_{i:05d}.py").write_text(TEMPLATE.format(i=i))
    print(json.dumps({"files": n, "kernels": 4 * n,
                      "loops": {"annotated": n, "launch": n, "none": n, "frozen": n, "static": n},
                      "findings": 0}))


main()
