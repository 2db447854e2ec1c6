#!/usr/bin/env python3
"""Writes tests/conformance/streams/s10_math_cr.{br,out}: every function of
stdlib/brook_math.h on specials, thresholds and inputs hard to round (ones
glibc's float functions round wrongly), the expected bits computed here with
mpmath at 300 bits and rounded to binary32 (subnormals included); C99 Annex F
for the specials, NaN results as 0x7fc00000 (LANGUAGE.md §10).
Run from the repository root:
  python3 tests/math/gen_conformance.py tests/math/conformance_inputs.txt
(lines "function hexbits": the inputs check_math --lib glibc --step 4099
--list 12 lists, then the hard cases of brook_math.h)."""
import math
import struct
import sys
from mpmath import mp, mpf

mp.prec = 300
NAN = 0x7fc00000


def f_of(bits):
    return struct.unpack('<f', struct.pack('<I', bits))[0]


def bits_of(f):
    return struct.unpack('<I', struct.pack('<f', f))[0]


def round32(v):
    """The binary32 nearest the mpf v (ties to even), as bits."""
    if v == 0:
        return 0
    sign = 0x80000000 if v < 0 else 0
    a = abs(v)
    e = int(mp.floor(mp.log(a, 2)))
    # guard against log rounding at exact powers of two
    if mpf(2) ** e > a:
        e -= 1
    if mpf(2) ** (e + 1) <= a:
        e += 1
    q = mpf(2) ** (max(e, -126) - 23)
    n = a / q
    fl = int(mp.floor(n))
    frac = n - fl
    if frac > 0.5 or (frac == 0.5 and fl % 2 == 1):
        fl += 1
    val = mpf(fl) * q
    if val >= mpf(2) ** 128:
        return sign | 0x7f800000
    return sign | bits_of(float(val))


def pow_special(x, y):
    """C99 F.9.4.4's value of pow(x, y) (Python floats: either precision)
    where it is a special case (a NaN, a zero or infinite operand, x = +-1,
    y = +-0, a negative x with a non-integer y), else None."""
    if y == 0 or x == 1.0:
        return 1.0
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if math.isinf(y):
        if x == -1.0:
            return 1.0
        return math.inf if (abs(x) > 1) == (y > 0) else 0.0
    y_int = y == math.floor(y)
    y_odd = y_int and int(y) % 2 == 1
    odd_neg = math.copysign(1.0, x) < 0 and y_odd
    if x == 0 or math.isinf(x):
        r = math.inf if (x == 0) == (y < 0) else 0.0
        return -r if odd_neg else r
    if x < 0 and not y_int:
        return math.nan
    return None


def atan2_special(y, x):
    """C99 F.9.1.4's value of atan2(y, x) where an operand is a NaN, a zero or
    an infinity: NaN, a signed zero (a Python float), or k pi/4 with y's sign
    as an mpf (to be rounded to the precision wanted); else None."""
    if math.isnan(y) or math.isnan(x):
        return math.nan
    if not (y == 0 or x == 0 or math.isinf(y) or math.isinf(x)):
        return None
    r = math.atan2(y, x)  # exact for these: a multiple of pi/4, signed zeros kept
    if r == 0:
        return r
    return round(r / (math.pi / 4)) * mp.pi / 4


def special(name, x):
    """Annex F results for NaN, infinite and zero arguments, else None."""
    if math.isnan(x):
        return NAN
    inf, ninf = 0x7f800000, 0xff800000
    if name in ('exp', 'exp2'):
        if x == math.inf:
            return inf
        if x == -math.inf:
            return 0
    if name in ('log', 'log2', 'log10'):
        if x == 0:
            return ninf
        if x < 0:
            return NAN
        if x == math.inf:
            return inf
    if name == 'sinh' and math.isinf(x):
        return bits_of(x)
    if name == 'cosh' and math.isinf(x):
        return inf
    if name == 'tanh' and math.isinf(x):
        return bits_of(math.copysign(1.0, x))
    if name in ('sinh', 'tanh', 'atan', 'asin') and x == 0:
        return bits_of(x)
    if name in ('asin', 'acos') and abs(x) > 1:
        return NAN
    if name in ('sin', 'cos', 'tan') and math.isinf(x):
        return NAN
    if name in ('sin', 'tan') and x == 0:
        return bits_of(x)
    return None


FUNCS = {
    'exp': mp.exp, 'exp2': lambda v: mpf(2) ** v, 'log': mp.log, 'log2': lambda v: mp.log(v, 2),
    'log10': mp.log10, 'sinh': mp.sinh, 'cosh': mp.cosh, 'tanh': mp.tanh,
    'atan': lambda v: mp.atan(v) if not mp.isinf(v) else mp.sign(v) * mp.pi / 2,
    'asin': mp.asin, 'acos': mp.acos, 'sin': mp.sin, 'cos': mp.cos, 'tan': mp.tan,
}


def expected(name, b):
    x = f_of(b)
    s = special(name, x)
    if s is not None:
        return s
    v = FUNCS[name](mpf(x))
    # exp of a huge argument: mpmath is fine, but keep rounding cheap
    return round32(v)


def printf_a(d, negative):
    """glibc's printf("%a", d) for a double d (negative: its sign bit, which
    a NaN's sign shows as '-nan'); subnormals as 0x0.xxxp-1022."""
    if math.isnan(d):
        return '-nan' if negative else 'nan'
    if math.isinf(d):
        return '-inf' if d < 0 else 'inf'
    if d == 0:
        return '-0x0p+0' if negative else '0x0p+0'
    if abs(d) < 2.0 ** -1022:
        m = struct.unpack('<Q', struct.pack('<d', d))[0] & ((1 << 52) - 1)
        return ('-' if d < 0 else '') + '0x0.' + f'{m:013x}'.rstrip('0') + 'p-1022'
    h = d.hex()  # '-0x1.5bf0a80000000p+1'
    neg = h.startswith('-')
    mant, exp = h.lstrip('-')[2:].split('p')
    whole, _, frac = mant.partition('.')
    frac = frac.rstrip('0')
    return ('-' if neg else '') + '0x' + whole + ('.' + frac if frac else '') + 'p' + exp


def c_hex(b):
    """C's printf("%a", (double)f) for float bits b (glibc's spelling)."""
    return printf_a(float(f_of(b)), b >> 31)


def unique_pairs(pairs):
    """pairs without repeats, in first-seen order."""
    seen, out = set(), []
    for p in pairs:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


def write_binary(fn, a, b, pairs, header, kernel, vector, expected):
    """Writes tests/conformance/streams/s10_<fn>_cr.{br,out} for a two-argument
    function: `header` (comment lines), a kernel `kernel(a, b)` and, on
    float2, `kernel`v(p) = fn(p, p.yx); every pair's bits printed with %a,
    then the four float2 values of `vector` (8 C float literals).
    expected(bits_a, bits_b) gives the result's bits."""
    n = len(pairs)
    k, kv = kernel, kernel + 'v'
    br = header + [f'kernel void {k}(float {a}<>, float {b}<>, out float r<>) {{ r = {fn}({a}, {b}); }}',
                   f'kernel void {kv}(float2 p<>, out float2 r<>) {{ r = {fn}(p, p.yx); }}']
    for name, arg in ((a, 0), (b, 1)):
        br.append(f'unsigned int {name}bits[{n}] = {{')
        for i in range(0, n, 6):
            br.append('  ' + ', '.join(f'0x{p[arg]:08x}u' for p in pairs[i:i + 6]) + ',')
        br.append('};')
    pv = ', '.join(vector)
    values = [float(v.rstrip('f')) for v in vector]
    br += [f'float {a}<{n}>, {b}<{n}>, r<{n}>;',
           f'float out[{n}];',
           f'streamRead({a}, (float*){a}bits);',
           f'streamRead({b}, (float*){b}bits);',
           f'{k}({a}, {b}, r);',
           'streamWrite(r, out);',
           f'for (int i = 0; i < {n}; i++) {{',
           '  unsigned int* b = (unsigned int*)&out[i];',
           f'  printf("{fn}(0x%08x, 0x%08x) = 0x%08x %a\\n", {a}bits[i], {b}bits[i], *b, out[i]);',
           '}',
           f'// The vector form: {fn}({a}, {b}) and {fn}({b}, {a}) per component.',
           f'float pv[8] = {{{pv}}};',
           'float2 p<4>, rv<4>;',
           'float2 outv[4];',
           'streamRead(p, pv);',
           f'{kv}(p, rv);',
           'streamWrite(rv, outv);',
           'for (int i = 0; i < 4; i++) {',
           '  unsigned int* b = (unsigned int*)&outv[i];',
           '  printf("0x%08x 0x%08x\\n", b[0], b[1]);',
           '}']
    stem = f'tests/conformance/streams/s10_{fn}_cr'
    open(stem + '.br', 'w').write('\n'.join(br) + '\n')
    lines = [f'{fn}(0x{x:08x}, 0x{y:08x}) = 0x{expected(x, y):08x} {c_hex(expected(x, y))}' for x, y in pairs]
    for i in range(4):
        x, y = bits_of(values[2 * i]), bits_of(values[2 * i + 1])
        lines.append(f'0x{expected(x, y):08x} 0x{expected(y, x):08x}')
    open(stem + '.out', 'w').write('\n'.join(lines) + '\n')


def main():
    specials = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x40000000, 0x3f000000, 0x41200000,
                0x42c80000, 0x2edbe6ff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
                0x00000001, 0x80000001, 0x00800000, 0x007fffff, 0x7f7fffff, 0xff7fffff, 0x42b17217,
                0x42b17218, 0xc2aeac50, 0xc2cff1b4, 0xc2cff1b5, 0x42ffffff, 0x43000000, 0xc3150000,
                0xc3160000, 0xc3168000, 0xc3170000, 0x41100000, 0x38d1b717, 0x3f800001, 0x3f7fffff,
                0x42b2d4fc, 0x42b2d4fd, 0x40490fdb, 0x3fb504f3, 0x3f3504f3, 0x3e800000, 0x3dcccccd]
    hard = []
    for line in open(sys.argv[1]):
        name, h = line.split()
        hard.append(int(h, 16))
    inputs = []
    for b in specials + hard:
        if b not in inputs:
            inputs.append(b)
    n = len(inputs)
    names = ['exp', 'exp2', 'log', 'log2', 'log10', 'sinh', 'cosh', 'tanh', 'atan', 'asin', 'acos',
             'sin', 'cos', 'tan']
    br = []
    br.append('// §10: the float transcendentals of stdlib/brook_math.h return the correctly')
    br.append('// rounded result, NaN as 0x7fc00000, with the same bits on every backend.')
    br.append('// Inputs: specials, thresholds, and floats that glibc rounds wrongly. The')
    br.append('// expected bits come from mpmath (tests/math/gen_conformance.py), not brook.')
    br.append('kernel void m1(float x<>, out float a<>, out float b<>, out float c<>, out float d<>) {')
    br.append('  a = exp(x);\n  b = exp2(x);\n  c = log(x);\n  d = log2(x);\n}')
    br.append('kernel void m2(float x<>, out float a<>, out float b<>, out float c<>, out float d<>) {')
    br.append('  a = log10(x);\n  b = sinh(x);\n  c = cosh(x);\n  d = tanh(x);\n}')
    br.append('kernel void m3(float x<>, out float a<>, out float b<>, out float c<>) {')
    br.append('  a = atan(x);\n  b = asin(x);\n  c = acos(x);\n}')
    br.append('kernel void m4(float x<>, out float a<>, out float b<>, out float c<>) {')
    br.append('  a = sin(x);\n  b = cos(x);\n  c = tan(x);\n}')
    br.append(f'unsigned int bits[{n}] = {{')
    for i in range(0, n, 6):
        br.append('  ' + ', '.join(f'0x{b:08x}u' for b in inputs[i:i + 6]) + ',')
    br.append('};')
    br.append(f'float x<{n}>;')
    br.append(f'float r0<{n}>, r1<{n}>, r2<{n}>, r3<{n}>, r4<{n}>, r5<{n}>, r6<{n}>, r7<{n}>;')
    br.append(f'float r8<{n}>, r9<{n}>, r10<{n}>, r11<{n}>, r12<{n}>, r13<{n}>;')
    br.append(f'float out[{len(names)}][{n}];')
    br.append(f'const char* names[{len(names)}] = {{' + ', '.join(f'"{s}"' for s in names) + '};')
    br.append('streamRead(x, (float*)bits);')
    br.append('m1(x, r0, r1, r2, r3);')
    br.append('m2(x, r4, r5, r6, r7);')
    br.append('m3(x, r8, r9, r10);')
    br.append('m4(x, r11, r12, r13);')
    for k in range(len(names)):
        br.append(f'streamWrite(r{k}, out[{k}]);')
    br.append(f'for (int f = 0; f < {len(names)}; f++) {{')
    br.append(f'  for (int i = 0; i < {n}; i++) {{')
    br.append('    unsigned int* y = (unsigned int*)&out[f][i];')
    br.append('    printf("%s(0x%08x) = 0x%08x %a\\n", names[f], bits[i], *y, out[f][i]);')
    br.append('  }\n}')
    open('tests/conformance/streams/s10_math_cr.br', 'w').write('\n'.join(br) + '\n')
    lines = []
    for name in names:
        for b in inputs:
            e = expected(name, b)
            lines.append(f'{name}(0x{b:08x}) = 0x{e:08x} {c_hex(e)}')
    open('tests/conformance/streams/s10_math_cr.out', 'w').write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
