#!/usr/bin/env python3
"""Writes a TTGIR module whose kernel is one long dependency chain.

    gen_chain.py N [--shape left|right|shared|unsigned] [--name NAME] > chain.ttgir

The kernel loads a tensor, applies N elementwise ops, each reading the one
before, and stores the last. The shape says how the chain reads:

  left      %k+1 = arith.addf %k, %cst   each value read once, on the left:
            readable folds it into its user (`x + 2.0 + 2.0 + ...`)
  right     %k+1 = arith.subf %cst, %k   the same on the right, so every
            level is one more pair of parentheses (`2.0 - (2.0 - (...))`)
  unsigned  %k+1 = arith.maxui %k, %c    an unsigned op: each level reads
            its operand through bitcasts, inside a call whose result is
            bitcast back (three pairs of parentheses each)
  shared    %k+1 = arith.addf %k, %k     each value read twice: every op is
            a statement of its own, named
  while     the chain (of i32 scalars, each read twice) is a while loop's
            condition, which a module writes as one expression: its text
            doubles with every op

Every op of the chain carries the source name NAME (default `x`), as a
Python loop that Triton unrolled gives them all one name.

Under a sanitizer build (TILEXFORM_SANITIZED=1 in the environment, as the
lit configuration sets it), which runs about ten times slower, a chain of
more than 4,000 ops is a quarter as long, so that the tests' time bounds
hold there too.
"""
import argparse
import os
import sys

HEADER = """\
#blocked = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
#loc = loc("chain.py":1:0)
#l2 = loc("chain.py":2:16)
#l3 = loc("chain.py":3:12)
#l4 = loc("chain.py":4:4)
#n = loc("{name}"(#l3))
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @chain(%src: !tt.ptr<{elem}> {{tt.divisibility = 16 : i32}} loc("src"(#loc)), %dst: !tt.ptr<{elem}> {{tt.divisibility = 16 : i32}} loc("dst"(#loc)), %n: i32 loc("n"(#loc))) attributes {{noinline = false}} {{
    %c = arith.constant dense<{cst}> : tensor<128x{elem}, #blocked> loc(#l3)
    %i = tt.make_range {{end = 128 : i32, start = 0 : i32}} : tensor<128xi32, #blocked> loc(#l2)
    %p = tt.splat %src : !tt.ptr<{elem}> -> tensor<128x!tt.ptr<{elem}>, #blocked> loc(#l2)
    %q = tt.addptr %p, %i : tensor<128x!tt.ptr<{elem}>, #blocked>, tensor<128xi32, #blocked> loc(#l2)
    %v0 = tt.load %q : tensor<128x!tt.ptr<{elem}>, #blocked> loc(#l2)
"""

FOOTER = """\
    %d = tt.splat %dst : !tt.ptr<{elem}> -> tensor<128x!tt.ptr<{elem}>, #blocked> loc(#l4)
    %e = tt.addptr %d, %i : tensor<128x!tt.ptr<{elem}>, #blocked>, tensor<128xi32, #blocked> loc(#l4)
    tt.store %e, %v{last} : tensor<128x!tt.ptr<{elem}>, #blocked> loc(#l4)
    tt.return loc(#l4)
  }} loc(#loc)
}} loc(#loc)
"""

SHAPES = {
    # op, operands of step k (reading %v{k}), element type, constant
    "left": ("arith.addf", "%v{k}, %c", "f32", "2.000000e+00"),
    "right": ("arith.subf", "%c, %v{k}", "f32", "2.000000e+00"),
    "unsigned": ("arith.maxui", "%v{k}, %c", "i32", "3"),
    "shared": ("arith.addf", "%v{k}, %v{k}", "f32", "2.000000e+00"),
    "while": (None, None, "i32", "3"),
}


WHILE_BODY = """\
    %w = scf.while (%a0 = %n) : (i32) -> i32 {{
{chain}      %t = arith.cmpi slt, %a{last}, %n : i32 loc(#l3)
      scf.condition(%t) %a0 : i32 loc(#l3)
    }} do {{
    ^bb0(%b: i32):
      %b1 = arith.addi %b, %b : i32 loc(#l3)
      scf.yield %b1 : i32 loc(#l3)
    }} loc(#l3)
    %v{last} = tt.splat %w : i32 -> tensor<128xi32, #blocked> loc(#l3)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ops", type=int, help="how many ops the chain has")
    ap.add_argument("--shape", choices=sorted(SHAPES), default="left")
    ap.add_argument("--name", default="x", help="the source name of every op of the chain")
    args = ap.parse_args()
    if os.environ.get("TILEXFORM_SANITIZED") == "1" and args.ops > 4000:
        args.ops //= 4
    op, operands, elem, cst = SHAPES[args.shape]
    out = [HEADER.format(name=args.name, elem=elem, cst=cst)]
    if args.shape == "while":
        chain = "".join(f"      %a{k + 1} = arith.addi %a{k}, %a{k} : i32 loc(#n)\n"
                        for k in range(args.ops))
        out.append(WHILE_BODY.format(chain=chain, last=args.ops))
    else:
        for k in range(args.ops):
            out.append(f"    %v{k + 1} = {op} {operands.format(k=k)} : tensor<128x{elem}, #blocked> loc(#n)\n")
    out.append(FOOTER.format(elem=elem, last=args.ops))
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
