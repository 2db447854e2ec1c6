#!/usr/bin/env python3
"""Prints the constant tables of stdlib/brook_math.h, computed with mpmath at
200 bits (an independent model, not brook). Run: python3 tests/math/gen_tables.py"""
import struct
from mpmath import mp, mpf, log, exp, ln2, floor

mp.prec = 200


def d(v):
    """Nearest double, printed exactly (%a)."""
    return float(v).hex()


def f32(v):
    return struct.unpack('<f', struct.pack('<f', float(v)))[0]


print("// 2^(j/64), j = 0..63")
print(",\n".join(d(mpf(2) ** (mpf(j) / 64)) for j in range(64)))

print("// 2^(j/16), j = 0..15 (expf's own table)")
print(",\n".join(d(mpf(2) ** (mpf(j) / 16)) for j in range(16)))
# ln2/16 split likewise (expf): hi has 38 significant bits.
c16 = ln2 / 16
e16 = int(floor(log(c16, 2)))
hi16 = floor(c16 * mpf(2) ** (37 - e16)) / mpf(2) ** (37 - e16)
print("LN2_16_HI", d(hi16), "LN2_16_LO", d(c16 - hi16), "INV_LN2_16", d(16 / ln2))

# ln2/64 split for Cody-Waite: hi has 38 significant bits, so k * hi is exact for |k| < 2^15.
c = ln2 / 64
e = int(floor(log(c, 2)))
hi = floor(c * mpf(2) ** (37 - e)) / mpf(2) ** (37 - e)
print("LN2_64_HI", d(hi), "LN2_64_LO", d(c - hi), "INV_LN2_64", d(64 / ln2))
print("exp Taylor 1/n!:", [d(1 / mp.factorial(n)) for n in range(1, 8)])
print("LN2", d(ln2))
# ln2 hi with 44 bits: e * hi exact for |e| < 2^9.
e2 = int(floor(log(ln2, 2)))
lhi = floor(ln2 * mpf(2) ** (43 - e2)) / mpf(2) ** (43 - e2)
print("LN2_HI", d(lhi), "LN2_LO", d(ln2 - lhi), "INV_LN2", d(1 / ln2), "INV_LN10", d(1 / log(10)),
      "LOG10_2", d(log(2) / log(10)))

# log: z in [OFF, 2 OFF) as bit patterns, 128 subintervals of 2^16 ulps.
OFF = 0x3f330000
inv, lc = [], []
for i in range(128):
    mid = OFF + i * 65536 + 32768
    cz = struct.unpack('<f', struct.pack('<I', mid))[0]
    ic = f32(1 / mpf(cz))
    if i in (76, 77):  # the two subintervals beside 1: r = z - 1 exactly, no cancellation
        ic = 1.0
    inv.append(ic)
    lc.append(-log(mpf(ic)))
print("// invc (floats, so z * invc is exact in double)")
print(",\n".join(d(v) for v in inv))
print("// logc = -log(invc)")
print(",\n".join(d(v) for v in lc))
# logf's own split: 16 subintervals of 2^19 ulps; invc = 1 in the one holding 1.
inv16, lc16 = [], []
for i in range(16):
    mid = OFF + i * (1 << 19) + (1 << 18)
    cz = struct.unpack('<f', struct.pack('<I', mid))[0]
    ic = 1.0 if i == 9 else f32(1 / mpf(cz))
    inv16.append(ic)
    lc16.append(-log(mpf(ic)))
print("// invc16 (floats)")
print(",\n".join(d(v) for v in inv16))
print("// logc16 = -log(invc16)")
print(",\n".join(d(v) for v in lc16))
print("log1p Taylor (-1)^(n+1)/n:", [d(mpf((-1) ** (n + 1)) / n) for n in range(2, 12)])

# sin/cos/tan: 2/pi in chunks of 28 bits, C_i = c_i * 2^(-28 (i + 1)), so that
# float * C_i (24 + 28 bits) is exact in double; 10 chunks cover every float.
mp.prec = 400
two_over_pi = 2 / mp.pi
chunks = []
rest = two_over_pi
for i in range(10):
    scaled = rest * mpf(2) ** (28 * (i + 1))
    c = int(floor(scaled))
    chunks.append(mpf(c) / mpf(2) ** (28 * (i + 1)))
    rest -= chunks[-1]
mp.prec = 200
print("// 2/pi in 28-bit chunks")
print(",\n".join(d(v) for v in chunks))
# Taylor coefficients of sin(pi/2 f) (odd powers f^1..f^17) and cos(pi/2 f) (f^0..f^16).
h = mp.pi / 2
print("sin(pi/2 f):", [d((-1) ** n * h ** (2 * n + 1) / mp.factorial(2 * n + 1)) for n in range(9)])
print("cos(pi/2 f):", [d((-1) ** n * h ** (2 * n) / mp.factorial(2 * n)) for n in range(9)])

# pow (brook_powf): the double-double parts its accurate path needs. The high
# parts are the tables and constants above; these are the nearest doubles to
# what each leaves out.
print("// pow: -log(invc) - logc (logc the table above)")
print(",\n".join(d(v - mpf(float(v))) for v in lc))
print("// pow: 2^(j/64) - the table above")
print(",\n".join(d(mpf(2) ** (mpf(j) / 64) - mpf(float(mpf(2) ** (mpf(j) / 64)))) for j in range(64)))
ln2_lo = mpf(float(ln2 - lhi))
print("LN2_LO2 (ln2 - LN2_HI - LN2_LO)", d(ln2 - lhi - ln2_lo))
c64 = ln2 / 64
lo64 = mpf(float(c64 - hi))
print("LN2_64_LO2 (ln2/64 - LN2_64_HI - LN2_64_LO)", d(c64 - hi - lo64))


def dd(v):
    h = mpf(float(v))
    return d(h) + ", " + d(v - h)


print("pow log1p (-1)^(n+1)/n, n = 2..8 as hi, lo:", [dd(mpf((-1) ** (n + 1)) / n) for n in range(2, 9)])
print("pow log1p (-1)^(n+1)/n, n = 9..15:", [d(mpf((-1) ** (n + 1)) / n) for n in range(9, 16)])
print("pow expm1 1/n!, n = 2..5 as hi, lo:", [dd(1 / mp.factorial(n)) for n in range(2, 6)])
print("pow expm1 1/n!, n = 6..10:", [d(1 / mp.factorial(n)) for n in range(6, 11)])

# The double functions of brook_math_double.h.
mp.prec = 1400
two_over_pi = 2 / mp.pi
# 2/pi's bits after the point in 64-bit words, after one word of zeros (so the
# reduction's window may start before the point for small arguments).
bits = int(floor(two_over_pi * mpf(2) ** (64 * 21)))
words = [0] + [(bits >> (64 * (20 - w))) & (2 ** 64 - 1) for w in range(21)]
print("2/pi words:", ", ".join(f"0x{w:016x}ul" for w in words[:22]))
mp.prec = 300
print("pi/2 as hi, lo:", dd(mp.pi / 2), "pi as hi, lo:", dd(mp.pi))
print("pi/4, 3pi/4 rounded:", d(mp.pi / 4), d(3 * mp.pi / 4))
print("sin Taylor (-1)^n/(2n+1)!, n = 1..3 as hi, lo:",
      [dd(mpf(-1) ** n / mp.factorial(2 * n + 1)) for n in range(1, 4)])
print("sin Taylor n = 4..10:", [d(mpf(-1) ** n / mp.factorial(2 * n + 1)) for n in range(4, 11)])
print("cos Taylor (-1)^n/(2n)!, n = 1..3 as hi, lo:",
      [dd(mpf(-1) ** n / mp.factorial(2 * n)) for n in range(1, 4)])
print("cos Taylor n = 4..11:", [d(mpf(-1) ** n / mp.factorial(2 * n)) for n in range(4, 12)])
print("atan Taylor -1/3 as hi, lo:", dd(mpf(-1) / 3))
print("atan Taylor (-1)^n/(2n+1), n = 2..7:", [d(mpf(-1) ** n / (2 * n + 1)) for n in range(2, 8)])
print("// atan(i/64) - brook_m_atan_64[i], i = 0..64")
print(",\n".join(d(mp.atan(mpf(i) / 64) - mpf(float(mp.atan(mpf(i) / 64)))) for i in range(65)))
print("atan(i/64) hi check:", all(float(mp.atan(mpf(i) / 64)).hex() for i in range(65)))
# The double sin/cos fast path: pi/2 = P1 + P2 + P3 (P1, P2 33 bits, so k P1
# and k P2 are exact for k < 2^20) and sin, cos of j/64, j = 0..51, as
# double-doubles (hi, lo, hi, lo per j).
mp.prec = 300
pio2 = mp.pi / 2


def cut(v, bits):
    e = int(floor(log(abs(v), 2)))
    return floor(v * mpf(2) ** (bits - 1 - e)) / mpf(2) ** (bits - 1 - e)


p1 = cut(pio2, 33)
p2 = cut(pio2 - p1, 33)
p3 = pio2 - p1 - p2
print("PIO2 P1, P2, P3:", d(p1), d(p2), d(p3), "2/pi:", d(2 / mp.pi))
print("// sin, cos of j/64 as hi, lo, j = 0..51")
print(",\n".join(dd(mp.sin(mpf(j) / 64)) + ", " + dd(mp.cos(mpf(j) / 64)) for j in range(52)))
