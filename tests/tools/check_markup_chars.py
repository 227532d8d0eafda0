#!/usr/bin/env python3
"""`check_markup_chars.py FILE...`: each HTML or SVG file tilexform wrote is
strict UTF-8, holds no character XML 1.0 or HTML forbids (controls other than
tab, LF and CR; C1 controls; noncharacters such as U+FFFE and U+FFFF;
surrogates), and parses as XML. Prints one line per file and fails on any."""
import sys
import xml.dom.minidom


def forbidden(cp):
    if cp < 0x20:
        return cp not in (0x09, 0x0A, 0x0D)
    if 0x7F <= cp <= 0x9F or 0xD800 <= cp <= 0xDFFF or 0xFDD0 <= cp <= 0xFDEF:
        return True
    return (cp & 0xFFFE) == 0xFFFE


def main():
    bad = 0
    for path in sys.argv[1:]:
        data = open(path, "rb").read()
        try:
            text = data.decode("utf-8", errors="strict")
        except UnicodeDecodeError as e:
            print(f"BAD {path}: not UTF-8 at byte {e.start}")
            bad += 1
            continue
        chars = sorted({f"U+{ord(c):04X}" for c in text if forbidden(ord(c))})
        if chars:
            print(f"BAD {path}: holds {', '.join(chars)}")
            bad += 1
            continue
        try:
            xml.dom.minidom.parseString(data)
        except Exception as e:  # the parser's own message names the place
            print(f"BAD {path}: not well-formed: {e}")
            bad += 1
            continue
        print(f"OK {path}: {text.count(chr(0xFFFD))} replacement characters")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
