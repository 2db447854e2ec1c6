#!/usr/bin/env python3
"""Writes tests/conformance/streams/s10_pow_cr.{br,out}: brook_math.h's pow
on C99 Annex F's specials (signed zeros, infinities, NaN, x = +-1, y = +-0,
negative x with integer and non-integer y), exact results and exact ties
(x^y a midpoint between two floats, such as 17^6, 257^1.5 and 2^-150),
results near overflow, subnormal results, x near 1 with huge y, ordinary
pairs and pairs glibc's powf rounds wrongly. The expected bits: exact
rational arithmetic (Python's fractions) where x^y is rational, else mpmath
at 300 bits rounded to binary32 (gen_conformance.py's rounding), NaN as
0x7fc00000 (LANGUAGE.md §10). Run from the repository root:
  python3 tests/math/gen_pow_conformance.py tests/math/pow_inputs.txt
(lines "pow xbits ybits": pairs check_math --binary pow --lib glibc lists)."""
import math
import os
import random
import sys
from fractions import Fraction

from mpmath import mp, mpf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_conformance import NAN, bits_of, f_of, pow_special, round32, unique_pairs, write_binary

mp.prec = 300


def round_fraction(q):
    """The binary32 nearest the positive rational q (ties to even), as bits."""
    e = q.numerator.bit_length() - q.denominator.bit_length()
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    step = Fraction(2) ** (max(e, -126) - 23)
    n = q / step
    fl = n.numerator // n.denominator
    frac = n - fl
    if frac > Fraction(1, 2) or (frac == Fraction(1, 2) and fl % 2 == 1):
        fl += 1
    val = fl * step
    if val >= Fraction(2) ** 128:
        return 0x7f800000
    return bits_of(float(val))


def iroot(a, k):
    """The integer k-th root of a when a is a perfect k-th power, else None."""
    r = round(a ** (1.0 / k)) if a < 2 ** 1000 else int(mpf(a) ** (mpf(1) / k))
    for c in (r - 1, r, r + 1):
        if c >= 0 and c ** k == a:
            return c
    return None


def exact_value(x, y):
    """x^y as a Fraction when it is rational and small enough to compute, else None."""
    X, Y = Fraction(x), Fraction(y)
    p, q = Y.numerator, Y.denominator
    if q == 1 and abs(p) <= 64:
        return X ** p
    if q in (2, 4, 8) and abs(p) <= 512:
        ra, rb = iroot(X.numerator, q), iroot(X.denominator, q)
        if ra is not None and rb is not None:
            return Fraction(ra, rb) ** p
    # x = 2^F: x^y = 2^(F y), rational when F y is an integer.
    a, b = X.numerator, X.denominator
    if (a == 1 or b == 1) and (a & (a - 1)) == 0 and (b & (b - 1)) == 0:
        g = (a.bit_length() - b.bit_length()) * Y
        if g.denominator == 1 and abs(g) < 400:
            return Fraction(2) ** int(g)
    return None


def expected(xb, yb):
    x, y = f_of(xb), f_of(yb)
    v = pow_special(x, y)
    if v is not None:
        return NAN if math.isnan(v) else bits_of(v)
    yodd = y == math.floor(y) and int(y) % 2 == 1
    xneg = (xb >> 31) == 1
    sign = 0x80000000 if xneg and yodd else 0
    ax = abs(x)
    q = exact_value(ax, y)
    if q is not None:
        return sign | round_fraction(q)
    return sign | round32(mp.power(mpf(ax), mpf(y)))


def fb(v):
    return bits_of(v)


def main():
    vals = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x40000000,
            0xc0000000, 0x40400000, 0xc0400000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001,
            0x00000001, 0x80000001, 0x7f7fffff, 0x40200000, 0xc0200000, 0x4b800000, 0x3f800001,
            0x3f7fffff]
    pairs = [(x, y) for x in vals for y in vals]
    # Exact results and ties: c^k with c^k of 25 significant bits (a
    # midpoint) or fewer, negative and scaled bases; roots of perfect powers
    # raised to odd numerators (257^1.5 = 257^3, 29^1.25 ...); powers of two
    # at the bottom of the range (2^-149 exact, 2^-150 a tie, rounds to 0).
    for c in (3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 4095, 4097):
        for k in range(2, 17):
            if c ** k < 2 ** 26:
                pairs.append((fb(c), fb(k)))
                pairs.append((fb(-c), fb(k)))
                pairs.append((fb(c * 2.0 ** -60), fb(k)))
    for c, num, den in ((257, 3, 2), (255, 3, 2), (4095, 1, 2), (4095, 3, 2),
                        (29, 5, 4), (31, 5, 4), (27, 5, 4), (3, 15, 8), (5, 9, 8), (7, 9, 8),
                        (17, 6, 2), (289, 1, 2), (255, 5, 4)):
        x = float(c) ** den
        if x < 2 ** 24:
            pairs.append((fb(x), fb(num / den)))
            pairs.append((fb(x * 2.0 ** -64), fb(num / den)))
            pairs.append((fb(x), fb(-num / den)))
    for x, y in ((2.0, -150.0), (0.5, 150.0), (4.0, -75.0), (2.0 ** -100, 1.5), (8.0, -50.0),
                 (2.0, -149.0), (-2.0, -149.0), (-2.0, -150.0), (2.0, 127.0), (2.0, 128.0),
                 (2.0 ** -149, 1.0), (2.0 ** -149, 0.5), (2.0 ** -148, 0.5), (2.0 ** -126, 1.0078125),
                 (0.5, 149.5), (0.5, 150.5), (4.0, 63.75), (2.0 ** 127, 1.0078125)):
        pairs.append((fb(x), fb(y)))
    # Results near 2^128 and in the subnormal range, x near 1 with huge y.
    rng = random.Random(16)
    for _ in range(24):
        x = f_of(rng.randrange(0x00000001, 0x7f800000))
        if x == 1.0:
            continue
        lx = math.log2(x)
        for target in (127.9 + rng.random() * 0.2, -150.5 + rng.random() * 25):
            if abs(target / lx) < 3e38:
                pairs.append((fb(x), fb(target / lx)))
    for d in (1, -1, 2, -3, 100, -1000):
        x = f_of(0x3f800000 + d)
        for y in (1e6, -1e6, 3.3e7, -8.9e7, 1e9, 2.0 ** 40):
            pairs.append((fb(x), fb(y)))
    for _ in range(40):
        pairs.append((fb(rng.uniform(0.0, 8.0)), fb(rng.uniform(-40.0, 40.0))))
    # Pairs whose result lies so near a rounding boundary (within 2^-47,
    # not exactly on it) that brook_powf's fast path hands them to its
    # double-double path: the 16 such among 200 million random pairs of
    # check_math's two kinds (a one-off count, 2026-12-04).
    pairs += [
        (0x403e5c4e, 0x41834680), (0x4059dcef, 0x420f9390), (0x3f1d19a6, 0xc11fce8e), (0x40a79499, 0xc1d714ee),
        (0x3f6d47b8, 0x421877a0), (0x4095c8bb, 0xc04f2a80), (0x40ef87c3, 0x420e6252), (0x407c3125, 0xc20f3a9f),
        (0x3fd4e48a, 0x417d3160), (0x40dd8813, 0x41eed078), (0x4088cef7, 0xc0ad4b18), (0x790ef9a0, 0x38f5cfb9),
        (0x400c69ce, 0x41a5bd4a), (0x408463e9, 0x41e91cd0), (0x3fdd034b, 0xbfe14380), (0x409f73ee, 0x40407150)]
    for _ in range(20):
        pairs.append((rng.randrange(0, 2 ** 32), rng.randrange(0, 2 ** 32)))
    for line in open(sys.argv[1]):
        _, xh, yh = line.split()
        pairs.append((int(xh, 16), int(yh, 16)))
    write_binary('pow', 'x', 'y', unique_pairs(pairs),
                 ['// §10: pow of stdlib/brook_math.h returns the correctly rounded result',
                  "// (ties to even), NaN as 0x7fc00000, with the same bits on every backend;",
                  "// Annex F's specials. The expected bits come from exact rational arithmetic",
                  '// and mpmath (tests/math/gen_pow_conformance.py).'],
                 'pw', ['17.0f', '6.0f', '-3.0f', '3.0f', '0.5f', '149.5f', '1.5f', '-2.0f'], expected)

main()
