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
from gen_conformance import NAN, bits_of, c_hex, f_of, round32

mp.prec = 300


def expected(yb, xb):
    y, x = f_of(yb), f_of(xb)
    if math.isnan(y) or math.isnan(x):
        return NAN
    if y == 0 or x == 0 or math.isinf(y) or math.isinf(x):
        # Annex F: a multiple k of pi/4 (k = 0 keeps y's sign).
        r = math.atan2(y, x)
        if r == 0:
            return yb & 0x80000000
        k = round(r / (math.pi / 4))
        return round32(k * mp.pi / 4)
    return round32(mp.atan2(mpf(y), mpf(x)))


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
    seen, unique = set(), []
    for p in pairs:
        if p not in seen:
            seen.add(p)
            unique.append(p)
    n = len(unique)
    br = ['// §10: atan2 of stdlib/brook_math.h returns the correctly rounded result,',
          "// NaN as 0x7fc00000, with the same bits on every backend; Annex F's specials.",
          '// The expected bits come from mpmath (tests/math/gen_atan2_conformance.py).',
          'kernel void a2(float y<>, float x<>, out float r<>) { r = atan2(y, x); }',
          'kernel void a2v(float2 p<>, out float2 r<>) { r = atan2(p, p.yx); }',
          f'unsigned int ybits[{n}] = {{']
    for i in range(0, n, 6):
        br.append('  ' + ', '.join(f'0x{p[0]:08x}u' for p in unique[i:i + 6]) + ',')
    br.append('};')
    br.append(f'unsigned int xbits[{n}] = {{')
    for i in range(0, n, 6):
        br.append('  ' + ', '.join(f'0x{p[1]:08x}u' for p in unique[i:i + 6]) + ',')
    br.append('};')
    br += [f'float y<{n}>, x<{n}>, r<{n}>;',
           f'float out[{n}];',
           'streamRead(y, (float*)ybits);',
           'streamRead(x, (float*)xbits);',
           'a2(y, x, r);',
           'streamWrite(r, out);',
           f'for (int i = 0; i < {n}; i++) {{',
           '  unsigned int* b = (unsigned int*)&out[i];',
           '  printf("atan2(0x%08x, 0x%08x) = 0x%08x %a\\n", ybits[i], xbits[i], *b, out[i]);',
           '}',
           '// The vector form: atan2(y, x) and atan2(x, y) per component.',
           'float pv[8] = {1.0f, -2.0f, -0.0f, 3.0f, 1e-30f, -1e30f, 5.0f, 5.0f};',
           'float2 p<4>, rv<4>;',
           'float2 outv[4];',
           'streamRead(p, pv);',
           'a2v(p, rv);',
           'streamWrite(rv, outv);',
           'for (int i = 0; i < 4; i++) {',
           '  unsigned int* b = (unsigned int*)&outv[i];',
           '  printf("0x%08x 0x%08x\\n", b[0], b[1]);',
           '}']
    open('tests/conformance/streams/s10_atan2_cr.br', 'w').write('\n'.join(br) + '\n')
    lines = [f'atan2(0x{y:08x}, 0x{x:08x}) = 0x{expected(y, x):08x} {c_hex(expected(y, x))}'
             for y, x in unique]
    pv = [1.0, -2.0, -0.0, 3.0, 1e-30, -1e30, 5.0, 5.0]
    for i in range(4):
        a, b = bits_of(pv[2 * i]), bits_of(pv[2 * i + 1])
        lines.append(f'0x{expected(a, b):08x} 0x{expected(b, a):08x}')
    open('tests/conformance/streams/s10_atan2_cr.out', 'w').write('\n'.join(lines) + '\n')


main()
