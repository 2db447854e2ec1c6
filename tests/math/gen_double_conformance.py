#!/usr/bin/env python3
"""Writes tests/conformance/streams/s10_{exp,exp2,log,log2,log10}_double.{br,out}:
brook_math.h's exp, exp2, log, log2 and log10 of a double (LANGUAGE.md §10: within one ulp, the
same bits on every backend) on their specials, exp's overflow and underflow
thresholds and subnormal results, log's subnormal arguments and arguments
near 1, and ordinary ones; the expected bits from mpmath at 400 bits rounded
to double (subnormals too), NaN as 0x7ff8000000000000. These inputs' results
are the correctly rounded ones (check_math --double F: none of millions of
random inputs is off). Run from the repository root:
  python3 tests/math/gen_double_conformance.py"""
import math
import os
import random
import struct
import sys

from mpmath import mp, mpf, exp, log, log10, sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_conformance import atan2_special, pow_special, printf_a  # noqa: E402

mp.prec = 400


def bits(d):
    return struct.unpack('<Q', struct.pack('<d', d))[0]


ODD = ('sin', 'tan', 'asin', 'atan', 'sinh', 'tanh')  # f(-0) = -0


def expected(fn, x, y=None):
    if fn == 'pow':
        v = pow_special(x, y)
        if v is None:
            v = float(mpf(x) ** mpf(y))
        return 0x7ff8000000000000 if math.isnan(v) else bits(v)
    if fn == 'atan2':
        v = atan2_special(x, y)  # x, y: C's atan2(y, x) arguments in order
        if v is None:
            v = atan2(mpf(x), mpf(y))
        return 0x7ff8000000000000 if math.isnan(v) else bits(float(v))
    if math.isnan(x) or (fn.startswith('log') and x < 0):
        return 0x7ff8000000000000
    if fn in ODD and x == 0:
        return bits(x)
    if fn.startswith('exp'):
        if x == math.inf:
            return bits(math.inf)
        if x == -math.inf:
            return 0
        return bits(float(exp(mpf(x)) if fn == 'exp' else mpf(2) ** mpf(x)))
    if fn in ('sin', 'cos', 'tan'):
        if math.isinf(x):
            return 0x7ff8000000000000
        with mp.workprec(2400):  # room for the reduction of arguments up to 2^1024
            return bits(float({'sin': sin, 'cos': cos, 'tan': tan}[fn](mpf(x))))
    if fn in ('asin', 'acos'):
        if abs(x) > 1:
            return 0x7ff8000000000000
        return bits(float((asin if fn == 'asin' else acos)(mpf(x))))
    if fn == 'atan':
        return bits(float(atan(mpf(x))))
    if fn in ('sinh', 'cosh', 'tanh'):
        if math.isinf(x):
            return bits({'sinh': x, 'cosh': math.inf, 'tanh': math.copysign(1.0, x)}[fn])
        v = {'sinh': sinh, 'cosh': cosh, 'tanh': tanh}[fn](mpf(x))
        return bits(to_double(v))
    if x == 0:
        return bits(-math.inf)
    if x == math.inf:
        return bits(math.inf)
    v = {'log': log(mpf(x)), 'log2': log(mpf(x), 2), 'log10': log10(mpf(x))}[fn]
    return bits(float(v))


def to_double(v):
    """The double nearest v, infinity beyond the largest double's rounding range."""
    limit = mpf(2) ** 1024 - mpf(2) ** 970  # DBL_MAX plus half an ulp
    if abs(v) >= limit:
        return math.copysign(math.inf, float(v / abs(v)))
    return float(v)


def c_hex(b):
    """glibc's printf("%a") of the double with bits b."""
    return printf_a(struct.unpack('<d', struct.pack('<Q', b))[0], b >> 63)


def words_of(name, xs):
    """A C array of the doubles xs as (low, high) 32-bit word pairs."""
    out = [f'unsigned int {name}[{2 * len(xs)}] = {{']
    for i in range(0, len(xs), 3):
        out.append('  ' + ', '.join(f'0x{bits(x) & 0xffffffff:08x}u, 0x{bits(x) >> 32:08x}u'
                                    for x in xs[i:i + 3]) + ',')
    return out + ['};']


def write(fn, xs, ys=None):
    """tests/conformance/streams/s10_<fn>_double.{br,out}: fn on every x (and
    y, for a two-argument fn), every result's bits and %a; then the double2
    form on the first eight (for two arguments: fn(p, p.yx))."""
    n = len(xs)
    binary = ys is not None
    br = [f"// §10: {fn} of a double is stdlib/brook_math_double.h's (within one ulp; these are",
          '// correctly rounded), NaN as 0x7ff8000000000000, with the same bits on every backend.',
          '// The expected bits come from mpmath (tests/math/gen_double_conformance.py).']
    if binary:
        br += [f'kernel void f(double x<>, double y<>, out double r<>) {{ r = {fn}(x, y); }}',
               f'kernel void f2(double2 x<>, out double2 r<>) {{ r = {fn}(x, x.yx); }}']
        br += words_of('words', xs) + words_of('ywords', ys)
        br += [f'double x<{n}>, y<{n}>, r<{n}>;',
               f'double out[{n}];',
               'streamRead(x, (double*)words);',
               'streamRead(y, (double*)ywords);',
               'f(x, y, r);',
               'streamWrite(r, out);',
               f'for (int i = 0; i < {n}; i++) {{',
               '  unsigned int* b = (unsigned int*)&out[i];',
               f'  printf("{fn}(0x%08x%08x, 0x%08x%08x) = 0x%08x%08x %a\\n", words[2 * i + 1], words[2 * i],',
               '         ywords[2 * i + 1], ywords[2 * i], b[1], b[0], out[i]);',
               '}']
    else:
        br += [f'kernel void f(double x<>, out double r<>) {{ r = {fn}(x); }}',
               f'kernel void f2(double2 x<>, out double2 r<>) {{ r = {fn}(x); }}']
        br += words_of('words', xs)
        br += [f'double x<{n}>, r<{n}>;',
               f'double out[{n}];',
               'streamRead(x, (double*)words);',
               'f(x, r);',
               'streamWrite(r, out);',
               f'for (int i = 0; i < {n}; i++) {{',
               '  unsigned int* b = (unsigned int*)&out[i];',
               f'  printf("{fn}(0x%08x%08x) = 0x%08x%08x %a\\n", words[2 * i + 1], words[2 * i], b[1], b[0], out[i]);',
               '}']
    br += ['// The vector form, on the first eight arguments.',
           'double2 x2<4>, r2<4>;',
           'double out2[8];',
           'streamRead(x2, (double*)words);',
           'f2(x2, r2);',
           'streamWrite(r2, out2);',
           'for (int i = 0; i < 8; i++) printf("%a\\n", out2[i]);']
    stem = f'tests/conformance/streams/s10_{fn}_double'
    open(stem + '.br', 'w').write('\n'.join(br) + '\n')
    if binary:
        lines = [f'{fn}(0x{bits(x):016x}, 0x{bits(y):016x}) = 0x{expected(fn, x, y):016x} '
                 f'{c_hex(expected(fn, x, y))}' for x, y in zip(xs, ys)]
        # f2 on (a, b) pairs of the first eight: fn(a, b) and fn(b, a).
        v = []
        for i in range(0, 8, 2):
            v += [expected(fn, xs[i], xs[i + 1]), expected(fn, xs[i + 1], xs[i])]
        lines += [c_hex(e) for e in v]
    else:
        lines = [f'{fn}(0x{bits(x):016x}) = 0x{expected(fn, x):016x} {c_hex(expected(fn, x))}' for x in xs]
        lines += [c_hex(expected(fn, x)) for x in xs[:8]]
    open(stem + '.out', 'w').write('\n'.join(lines) + '\n')


def from_bits(b):
    return struct.unpack('<d', struct.pack('<Q', b))[0]


def main_more(rng):
    """The double forms of sin ... pow (after exp and log, whose inputs are drawn first)."""
    h = float.fromhex
    inf, nan = math.inf, math.nan
    rand_bits = [from_bits(rng.getrandbits(64) & 0xffefffffffffffff) for _ in range(6)]
    trig = [0.0, -0.0, 1.0, -1.0, 0.5, h('0x1.921fb54442d18p-1'), h('0x1.921fb54442d19p-1'),
            h('0x1.921fb54442d18p+0'), h('0x1.921fb54442d18p+1'), h('0x1.2d97c7f3321d2p+2'), 10.0, -10.0,
            100.5, 1e6 + 0.5, 1e22, 2.0 ** -30, 5e-324, 1e300, h('0x1.6ac5b262ca1ffp+849'),
            h('0x1.fffffffffffffp+1023'), inf, -inf, nan]
    trig += [rng.uniform(-20.0, 20.0) for _ in range(8)] + rand_bits
    for fn in ('sin', 'cos', 'tan'):
        write(fn, trig)
    inv = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0 ** -30, 1 - 2.0 ** -53, -(1 - 2.0 ** -53), 0.9999, 1.5,
           -2.0, inf, nan, 5e-324, 2.0 ** -61]
    inv += [rng.uniform(-1.0, 1.0) for _ in range(12)]
    write('asin', inv)
    write('acos', inv)
    at = [0.0, -0.0, 1.0, -1.0, 2.0 ** -30, 2.0 ** 61, 1e300, inf, -inf, nan, 0.015625, 1.0 / 128, 5e-324]
    at += [rng.uniform(-8.0, 8.0) for _ in range(10)] + rand_bits
    write('atan', at)
    hyp = [0.0, -0.0, 1.0, -1.0, 2.0 ** -26, 2.0 ** -30, 0.5, 40.0, 40.5, 700.0, 710.4, 710.5, -710.5,
           711.0, 1000.0, inf, -inf, nan, 5e-324]
    hyp += [rng.uniform(-30.0, 30.0) for _ in range(8)] + [rng.uniform(-1.0, 1.0) for _ in range(6)]
    write('sinh', hyp)
    write('cosh', hyp)
    th = [0.0, -0.0, 1.0, -1.0, 2.0 ** -27, 2.0 ** -30, 19.0, 22.0, 22.5, 100.0, inf, -inf, nan, 5e-324]
    th += [rng.uniform(-10.0, 10.0) for _ in range(8)] + [rng.uniform(-1.0, 1.0) for _ in range(6)]
    write('tanh', th)
    # atan2: every pair of its specials, then ordinary and extreme ratios.
    sp = [0.0, -0.0, 1.0, -1.0, inf, -inf, nan, 2.5]
    ys = [a for a in sp for _ in sp]
    xs = [b for _ in sp for b in sp]
    for _ in range(12):
        ys.append(rng.uniform(-10.0, 10.0))
        xs.append(rng.uniform(-10.0, 10.0))
    for y, x in ((1.0, 2.0 ** 61), (-1.0, -(2.0 ** 61)), (2.0 ** 61, 1.0), (1e-300, 1e300), (5e-324, 1.0),
                 (3e-310, 7e-310), (1e300, 3e299), (1e-310, -1.0)):
        ys.append(y)
        xs.append(x)
    write('atan2', ys, xs)
    # pow: every pair of its specials, exact results and ties, ordinary
    # pairs, overflow and underflow.
    sp = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, inf, -inf, nan, 2.5]
    bs = [a for a in sp for _ in sp]
    es = [b for _ in sp for b in sp]
    for b, e in ((7.0, 19.0), (134217727.0, 2.0), (4.0, 0.5), (10.0, 22.0), (10.0, 23.0), (2.0, -1074.0),
                 (2.0, -1075.0), (2.0, 1023.0), (2.0, 1024.0), (-2.0, 1023.0), (-0.5, 2001.0), (0.1, 300.0),
                 (1.0 + 2.0 ** -52, 1e17), (1e-5, 0.5), (-8.0, 1.0 / 3)):
        bs.append(b)
        es.append(e)
    for _ in range(12):
        bs.append(rng.uniform(0.0, 10.0))
        es.append(rng.uniform(-40.0, 40.0))
    write('pow', bs, es)


def main():
    xs = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0 ** -54, -(2.0 ** -54), 1e-300, 5e-324, 3.7, -3.7, 10.25, 100.5,
          -100.5, 700.0, -700.0, 709.0, -708.0, -708.5, -720.0, -740.0, -745.0,
          float.fromhex('0x1.62e42fefa39efp+9'), float.fromhex('-0x1.74910d52d3051p+9'),
          float.fromhex('-0x1.74910d52d3052p+9'), math.inf, -math.inf, math.nan]
    rng = random.Random(11)
    xs += [rng.uniform(-745.0, 709.0) for _ in range(12)] + [rng.uniform(-1.0, 1.0) for _ in range(8)]
    write('exp', xs)
    ys = [1.0, 2.0, 0.5, 0.0, -0.0, -1.0, math.inf, math.nan, math.e, 10.0, 1e300, 1e-300, 5e-324,
          2.0 ** -1022, float.fromhex('0x1.fffffffffffffp+1023'), float.fromhex('0x1.0000000000001p+0'),
          float.fromhex('0x1.fffffffffffffp-1'), 0.69921875, 1.3984375, 1.0078125, 0.9921875, 123.456,
          -math.inf]
    ys += [1.0 + rng.uniform(-2.0 ** -6, 2.0 ** -6) for _ in range(8)]
    ys += [struct.unpack('<d', struct.pack('<Q', rng.getrandbits(62) & 0x7fefffffffffffff))[0] for _ in range(12)]
    ys += [struct.unpack('<d', struct.pack('<Q', rng.getrandbits(52)))[0] for _ in range(4)]
    write('log', ys)
    write('log2', ys + [1024.0, 2.0 ** -1074, 2.0 ** 600, 0.125])
    write('log10', ys + [1000.0, 1e22, 1e-5, 0.1])
    zs = [0.0, -0.0, 1.0, -1.0, 0.5, 3.0, -3.0, 10.0, 1023.0, 1023.5, -1022.0, -1022.5, -1074.0, -1074.5,
          -1075.0, 1024.0, float.fromhex('0x1.fffffffffffffp+9'), math.inf, -math.inf, math.nan]
    zs += [rng.uniform(-1075.0, 1024.0) for _ in range(12)] + [rng.uniform(-1.0, 1.0) for _ in range(6)]
    write('exp2', zs)
    main_more(rng)


main()
