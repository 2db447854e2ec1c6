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

from mpmath import mp, mpf, exp, log, log10

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_conformance import printf_a  # noqa: E402

mp.prec = 400


def bits(d):
    return struct.unpack('<Q', struct.pack('<d', d))[0]


def expected(fn, x):
    if math.isnan(x) or (fn.startswith('log') and x < 0):
        return 0x7ff8000000000000
    if fn.startswith('exp'):
        if x == math.inf:
            return bits(math.inf)
        if x == -math.inf:
            return 0
        return bits(float(exp(mpf(x)) if fn == 'exp' else mpf(2) ** mpf(x)))
    if x == 0:
        return bits(-math.inf)
    if x == math.inf:
        return bits(math.inf)
    v = {'log': log(mpf(x)), 'log2': log(mpf(x), 2), 'log10': log10(mpf(x))}[fn]
    return bits(float(v))


def c_hex(b):
    """glibc's printf("%a") of the double with bits b."""
    return printf_a(struct.unpack('<d', struct.pack('<Q', b))[0], b >> 63)


def write(fn, xs):
    n = len(xs)
    hi = [bits(x) >> 32 for x in xs]
    lo = [bits(x) & 0xffffffff for x in xs]
    br = [f"// §10: {fn} of a double is stdlib/brook_math.h's (within one ulp; these are correctly",
          '// rounded), NaN as 0x7ff8000000000000, with the same bits on every backend. The',
          '// expected bits come from mpmath (tests/math/gen_double_conformance.py).',
          f'kernel void f(double x<>, out double r<>) {{ r = {fn}(x); }}',
          f'kernel void f2(double2 x<>, out double2 r<>) {{ r = {fn}(x); }}',
          f'unsigned int words[{2 * n}] = {{']
    for i in range(0, n, 3):
        br.append('  ' + ', '.join(f'0x{lo[k]:08x}u, 0x{hi[k]:08x}u' for k in range(i, min(n, i + 3))) + ',')
    br += ['};',
           f'double x<{n}>, r<{n}>;',
           f'double out[{n}];',
           'streamRead(x, (double*)words);',
           'f(x, r);',
           'streamWrite(r, out);',
           f'for (int i = 0; i < {n}; i++) {{',
           '  unsigned int* b = (unsigned int*)&out[i];',
           f'  printf("{fn}(0x%08x%08x) = 0x%08x%08x %a\\n", words[2 * i + 1], words[2 * i], b[1], b[0], out[i]);',
           '}',
           '// The vector form, on the first eight arguments.',
           'double2 x2<4>, r2<4>;',
           'double out2[8];',
           'streamRead(x2, (double*)words);',
           'f2(x2, r2);',
           'streamWrite(r2, out2);',
           'for (int i = 0; i < 8; i++) printf("%a\\n", out2[i]);']
    stem = f'tests/conformance/streams/s10_{fn}_double'
    open(stem + '.br', 'w').write('\n'.join(br) + '\n')
    lines = [f'{fn}(0x{bits(x):016x}) = 0x{expected(fn, x):016x} {c_hex(expected(fn, x))}' for x in xs]
    lines += [c_hex(expected(fn, x)) for x in xs[:8]]
    open(stem + '.out', 'w').write('\n'.join(lines) + '\n')


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


main()
