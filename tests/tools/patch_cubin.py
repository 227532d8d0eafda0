#!/usr/bin/env python3
"""A cubin with an out-of-range field: `patch_cubin.py IN OUT reqntid|shared`.
reqntid: every extent of each kernel's EIATTR_REQNTID record set to 2^32 - 1
(the block's thread count passes 2^64); shared: each .nv.shared.<kernel>
(NOBITS) section's size set to 2^63."""
import struct
import sys

EIFMT_SVAL, EIATTR_REQNTID, SHT_NOBITS = 4, 0x10, 8


def main():
    src, dst, what = sys.argv[1:4]
    data = bytearray(open(src, "rb").read())
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = []
    for i in range(shnum):
        base = shoff + i * shentsize
        name, stype = struct.unpack_from("<II", data, base)
        offset, size = struct.unpack_from("<QQ", data, base + 0x18)
        sections.append((base, name, stype, offset, size))
    strtab = sections[shstrndx][3]

    def name_of(n):
        end = data.index(b"\0", strtab + n)
        return data[strtab + n:end].decode()

    patched = 0
    for base, name, stype, offset, size in sections:
        sname = name_of(name)
        if what == "shared" and sname.startswith(".nv.shared.") and stype == SHT_NOBITS \
                and not sname.startswith(".nv.shared.reserved"):
            struct.pack_into("<Q", data, base + 0x20, 1 << 63)
            patched += 1
        if what == "reqntid" and sname.startswith(".nv.info."):
            i = offset
            while i + 4 <= offset + size:
                fmt, attr, value = struct.unpack_from("<BBH", data, i)
                if fmt == EIFMT_SVAL:
                    if attr == EIATTR_REQNTID and value >= 12:
                        struct.pack_into("<III", data, i + 4, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF)
                        patched += 1
                    i += 4 + value
                else:
                    i += 4
    if not patched:
        sys.exit(f"{src}: nothing to patch for {what}")
    open(dst, "wb").write(bytes(data))


if __name__ == "__main__":
    main()
