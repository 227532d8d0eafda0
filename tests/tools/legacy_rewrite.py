#!/usr/bin/env python3
"""Rewrite a Triton 3.6 dump into the older spellings tilexform must accept.

Used by the tests: the rewritten dump must give the same layouts as the
original. Rewrites: ttg./ttng./amdg. prefixes to triton_gpu./triton_nvidia_gpu./
amdgpu.; amd_mfma `version = N` to `versionMajor = N, versionMinor = 0` with a
2-element instrShape; explicit default CTAsPerCGA/CTASplitNum/CTAOrder fields
on blocked layouts; swizzled_shared to `#triton_gpu.shared<{..., hasLeadingOffset
= false}>`; nvmma_shared to the `hasLeadingOffset = true` form.
"""
import re
import sys


def cta_fields(rank):
    ones = ", ".join(["1"] * rank)
    order = ", ".join(str(i) for i in reversed(range(rank)))
    return f"CTAsPerCGA = [{ones}], CTASplitNum = [{ones}], CTAOrder = [{order}]"


def rewrite(text):
    def mfma(m):
        body = m.group(1)
        body = re.sub(r"version = (\d+)", r"versionMajor = \1, versionMinor = 0", body)
        body = re.sub(r"instrShape = \[(\d+), (\d+), \d+\]", r"instrShape = [\1, \2]", body)
        return "#ttg.amd_mfma<{" + body + "}>"

    text = re.sub(r"#ttg\.amd_mfma<\{(.*?)\}>", mfma, text)

    def blocked(m):
        body = m.group(1)
        rank = body.split("order = [")[1].split("]")[0].count(",") + 1
        return "#ttg.blocked<{" + body + ", " + cta_fields(rank) + "}>"

    text = re.sub(r"#ttg\.blocked<\{([^{}]*?)\}>", blocked, text)
    text = re.sub(r"#ttg\.swizzled_shared<\{([^{}]*?)\}>",
                  r"#ttg.shared<{\1, hasLeadingOffset = false}>", text)

    def nvmma(m):
        body = m.group(1)
        if "fp4Padded" in body or "rank" in body or "CGALayout" in body:
            return m.group(0)
        swz = int(re.search(r"swizzlingByteWidth = (\d+)", body).group(1))
        bits = int(re.search(r"elementBitWidth = (\d+)", body).group(1))
        transposed = "transposed = true" in body
        if swz == 0:
            return m.group(0)
        vec, per_phase, max_phase = 128 // bits, 128 // swz, swz // 16
        order = "[0, 1]" if transposed else "[1, 0]"
        return (f"#ttg.shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, "
                f"order = {order}, hasLeadingOffset = true}}>")

    text = re.sub(r"#ttg\.nvmma_shared<\{([^{}]*?)\}>", nvmma, text)
    text = re.sub(r"\bttg\.", "triton_gpu.", text)
    text = re.sub(r"\bttng\.", "triton_nvidia_gpu.", text)
    text = re.sub(r"\bamdg\.", "amdgpu.", text)
    return text


if __name__ == "__main__":
    sys.stdout.write(rewrite(open(sys.argv[1]).read()))
