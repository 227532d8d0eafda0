#!/usr/bin/env python3
"""A dump whose ops sit at the end of call-site chains: `callsite_chain_dump.py
DEPTH OPS [--cold]` prints a module of OPS ops, the k-th at a location
`#lJ` that is J frames deep (`#lJ = loc(callsite(#fJ at #l(J-1)))`), J
growing with k up to DEPTH: every alias is a prefix of the next, as an
inliner's aliases are. With --cold the ops name the deepest alias first.
A resolver that copies each chain into each op takes memory OPS x DEPTH."""
import sys


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    depth, ops = int(args[0]), int(args[1])
    cold = "--cold" in sys.argv
    out = ['#l0 = loc("k.py":1:1)']
    for j in range(1, depth + 1):
        out.append(f'#f{j} = loc("k.py":{j + 1}:5)')
        out.append(f"#l{j} = loc(callsite(#f{j} at #l{j - 1}))")
    out.append('module attributes {"ttg.num-warps" = 4 : i32} {')
    out.append("  tt.func @f(%n: i32) {")
    prev = "%n"
    for k in range(ops):
        j = depth - (k * depth) // ops if cold else 1 + (k * depth) // ops
        out.append(f"    %v{k} = arith.addi {prev}, %n : i32 loc(#l{j})")
        prev = f"%v{k}"
    out.append("    tt.return")
    out.append("  }")
    out.append("}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
