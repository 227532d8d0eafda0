#!/usr/bin/env python3
"""A dump of many large layouts: `many_layouts_dump.py N [SHAPE]` prints a
module whose N distinct blocked layouts are each used by one constant of
SHAPE (default 256x256, the largest a picture draws), so a page that draws
every layout would hold N large pictures."""
import sys


def main():
    n = int(sys.argv[1])
    shape = sys.argv[2] if len(sys.argv) > 2 else "256x256"
    out = []
    for i in range(n):
        # Distinct layouts of one kind: 4 warps placed differently, and
        # sizePerThread/threadsPerWarp varied over powers of two.
        spt = [1 << (i % 3), 1 << ((i // 3) % 3)]
        tpw = [[1, 32], [2, 16], [4, 8], [8, 4], [16, 2], [32, 1]][(i // 9) % 6]
        wpc = [[4, 1], [2, 2], [1, 4]][(i // 54) % 3]
        order = "[1, 0]" if (i // 162) % 2 == 0 else "[0, 1]"
        out.append(f"#b{i} = #ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {tpw}, "
                   f"warpsPerCTA = {wpc}, order = {order}}}>")
    out.append('module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, '
               'ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {')
    out.append("  tt.func public @k() {")
    for i in range(n):
        out.append(f"    %c{i} = arith.constant dense<0> : tensor<{shape}xi32, #b{i}>")
    out.append("    tt.return")
    out.append("  }")
    out.append("}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
