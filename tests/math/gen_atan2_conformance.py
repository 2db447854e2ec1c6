#!/usr/bin/env python3
"""Writes tests/conformance/streams/s10_atan2_cr.{br,out}: brook_math.h's
atan2 on Annex F's specials (signed zeros, infinities, NaN), every quadrant,
quotients near 1, 0 and infinity, subnormal results and pairs glibc's atan2f
rounds wrongly; the expected bits from mpmath at 300 bits rounded to binary32
(gen_conformance.py's rounding), NaN as 0x7fc00000 (LANGUAGE.md §10).
Run from the repository root:
  python3 tests/math/gen_atan2_conformance.py tests/math/atan2_inputs.txt
(lines "atan2 ybits xbits": pairs check_math --binary atan2 --lib glibc
--pairs 400000 --seed 7 --list 60 lists)."""
import math
import os
import sys

from mpmath import mp, mpf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_conformance import NAN, atan2_special, bits_of, f_of, round32, unique_pairs, write_binary

mp.prec = 300


def expected(yb, xb):
    y, x = f_of(yb), f_of(xb)
    v = atan2_special(y, x)
    if v is None:
        return round32(mp.atan2(mpf(y), mpf(x)))
    if isinstance(v, float):  # NaN or a signed zero
        return NAN if math.isnan(v) else bits_of(v)
    return round32(v)


def main():
    vals = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
            0x00000001, 0x80800000, 0x7f7fffff, 0x40490fdb, 0x3f7fffff]
    pairs = [(y, x) for y in vals for x in vals]
    # Quotients near 1, tiny and huge, in every quadrant; subnormal results.
    for a in (0x3f800000, 0x40a00000, 0x3dcccccd, 0x4b000001, 0x2f800000):
        for k in (-3, -1, 1, 3):
            for sy in (0, 0x80000000):
                for sx in (0, 0x80000000):
                    pairs.append((a | sy, (a + k) | sx))
    for y, x in ((0x00000010, 0x3f800000), (0x00800000, 0x41200000), (0x01000000, 0x7f000000),
                 (0x0000ffff, 0x40000000), (0x80000003, 0x3fc00000), (0x3f800000, 0x7f000000),
                 (0x7f000000, 0x00000001), (0x3a83126f, 0xc2c80000), (0x00000001, 0xbf800000),
                 (0x34000000, 0xc0400000)):
        pairs.append((y, x))
    for line in open(sys.argv[1]):
        _, yh, xh = line.split()
        pairs.append((int(yh, 16), int(xh, 16)))
    write_binary('atan2', 'y', 'x', unique_pairs(pairs),
                 ['// §10: atan2 of stdlib/brook_math.h returns the correctly rounded result,',
                  "// NaN as 0x7fc00000, with the same bits on every backend; Annex F's specials.",
                  '// The expected bits come from mpmath (tests/math/gen_atan2_conformance.py).'],
                 'a2', ['1.0f', '-2.0f', '-0.0f', '3.0f', '1e-30f', '-1e30f', '5.0f', '5.0f'], expected)

main()
