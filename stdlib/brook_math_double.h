// The double forms of LANGUAGE.md §10's functions, written once in the same
// common subset of C++ and OpenCL C as brook_math.h, whose double-double
// arithmetic (brook_m_dd_*), accurate exp (brook_m_exp_acc_parts) and log
// (brook_m_log_acc_parts) they build on: this text follows brook_math.h's
// wherever it is compiled or pasted (stdlib/brook_math.cpp includes both;
// the OpenCL printer pastes it after brook_math.h into programs that call a
// double function).
//
// §10 asks for doubles within one ulp and the same bits on every backend.
// Each function here computes its result as a double-double whose error is
// below 2^-70 relative (most far below; each says its bound) and rounds it
// once, so it is the correctly rounded double except where the exact value
// lies that close to a midpoint between two doubles; check_math --double F
// measures it against MPFR (stdlib/MATH.md). NaN results are
// 0x7ff8000000000000. The same strict double arithmetic as brook_math.h.

// Each function first tries a fast path in double arithmetic (a
// double-double within about 2^-64, from short polynomials), and keeps its
// rounding when every value within the path's error bound rounds the same
// way (Ziv's test, brook_m_rounds_to); otherwise, about once in 2^10 calls,
// the accurate path (within 2^-100) decides. Either way the result is the
// accurate path's rounding, so the fast paths change no result.
BROOK_M_FN double brook_m_abs_d(double x) {
  return BROOK_M_U2D(BROOK_M_D2U(x) & 0x7ffffffffffffffful);
}
// h + l (normalised) rounds to h, and so does every value within err of it.
BROOK_M_FN int brook_m_rounds_to(double h, double l, double err) {
  return (h + (l + err) == h) & (h + (l - err) == h);
}

// x = 2^e z for a finite x > 0 (subnormals scaled exactly), z in [0.699,
// 1.398], as brook_m_log_reduce128 on the double's bits; the subinterval i from
// z's top seven mantissa bits; z = zh + zl with zh the top 24 bits (a
// float's), so r1 = zh invc - 1 is exact as there and zl invc is an exact
// product.
typedef struct {
  double r1;  // zh invc - 1, exact
  double zl;
  double e;
  brook_m_i32 i;
} brook_m_log_red;
BROOK_M_FN brook_m_log_red brook_m_log_reduce_d(double x) {
  double adj = 0.0;
  if (x < 0x1p-1022) {  // subnormal: exact scaling
    x = x * 0x1p52;
    adj = -52.0;
  }
  brook_m_u64 ix = BROOK_M_D2U(x);
  brook_m_u64 ux = ix - 0x3fe6600000000000ul;
  brook_m_u64 top = ux & 0xfff0000000000000ul;
  brook_m_log_red red;
  red.i = (brook_m_i32)((ux >> 45) & 127u);
  // top >> 52 is e's two's complement in 12 bits: sign-extended by hand.
  red.e = (double)((brook_m_i32)((((brook_m_u32)(top >> 52)) ^ 0x800u)) - 2048) + adj;
  double z = BROOK_M_U2D(ix - top);
  double zh = BROOK_M_U2D(BROOK_M_D2U(z) & 0xffffffffe0000000ul);
  red.zl = z - zh;                                          // exact
  red.r1 = BROOK_M_FMA(zh, brook_m_log_invc[red.i], -1.0);  // exact
  return red;
}
// log(x) as a double-double within 2^-101 (the accurate path): r + rl = z
// invc - 1 to 2^-106, and brook_m_log_acc_parts.
BROOK_M_FN brook_m_dd brook_m_log_dd(double x) {
  brook_m_log_red red = brook_m_log_reduce_d(x);
  brook_m_dd r =
      brook_m_dd_add(brook_m_dd_of(red.r1, 0.0), brook_m_dd_prod(red.zl, brook_m_log_invc[red.i]));
  return brook_m_log_acc_parts(r.h, r.l, red.i, red.e);
}
// The fast path: log(x) as a double-double within 2^-68 relative. r = rh + rl
// by a two-sum (zl invc rounded: 2^-77 absolute, exact beside 1 where
// invc = 1); log1p(r) = rh - rh^2/2 + rh^3 q(rh) + rl (1 - rh), q Taylor's
// to rh^10 (the rest below 2^-80 for |rh| < 2^-7), rh^2/2 exact as a
// double-double; e ln2 + logc + rh - rh^2/2 summed by exact two-sums, the
// small rest in double (each rounding below 2^-77 absolute). Where logc and
// e are 0 (beside 1) every term scales with rh: 2^-66 relative; elsewhere
// |log x| >= 2^-9: 2^-68.
BROOK_M_FN brook_m_dd brook_m_log_fast_dd(double x) {
  brook_m_log_red red = brook_m_log_reduce_d(x);
  double rl;
  double rh;
  rl = brook_m_two_sum(red.r1, red.zl * brook_m_log_invc[red.i], &rh);
  double q = BROOK_M_FMA(rh, -0x1.999999999999ap-4, 0x1.c71c71c71c71cp-4);
  q = BROOK_M_FMA(rh, q, -0x1.0000000000000p-3);
  q = BROOK_M_FMA(rh, q, 0x1.2492492492492p-3);
  q = BROOK_M_FMA(rh, q, -0x1.5555555555555p-3);
  q = BROOK_M_FMA(rh, q, 0x1.999999999999ap-3);
  q = BROOK_M_FMA(rh, q, -0x1.0000000000000p-2);
  q = BROOK_M_FMA(rh, q, 0x1.5555555555555p-2);
  brook_m_dd h2 = brook_m_dd_prod(rh, rh);  // rh^2 exactly
  double a;
  double al = brook_m_two_sum(red.e * BROOK_M_LN2_HI, brook_m_log_logc[red.i], &a);
  double b;
  double bl = brook_m_two_sum(a, rh, &b);
  double c;
  double cl = brook_m_two_sum(b, -0.5 * h2.h, &c);
  double lo = ((al + bl) + cl) +
              ((BROOK_M_FMA(red.e, BROOK_M_LN2_LO, brook_m_log_logc_lo[red.i]) - 0.5 * h2.l) +
               (BROOK_M_FMA(rl, -rh, rl) + (h2.h * rh) * q));
  return brook_m_dd_norm(c, lo);
}
// log of a double (LANGUAGE.md §10: within one ulp, the same bits on every
// backend): the double-double log rounded once.
BROOK_M_FN double brook_log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -BROOK_M_INF_D : BROOK_M_NAN_D;  // NaN, < 0, 0
  if (x == BROOK_M_INF_D) return x;
  brook_m_dd f = brook_m_log_fast_dd(x);
  if (brook_m_rounds_to(f.h, f.l, brook_m_abs_d(f.h) * 0x1p-63)) return f.h;
  return brook_m_log_dd(x).h;
}
// log2 and log10 of a double: the double-double log times 1/ln2 or 1/ln10
// as double-doubles (within 2^-106), rounded once; log2(2^n) and
// log10(10^n) come out exact.
BROOK_M_FN double brook_m_log_scaled(double x, brook_m_dd k) {
  if (!(x > 0.0)) return x == 0.0 ? -BROOK_M_INF_D : BROOK_M_NAN_D;
  if (x == BROOK_M_INF_D) return x;
  brook_m_dd f = brook_m_dd_mul(brook_m_log_fast_dd(x), k);
  if (brook_m_rounds_to(f.h, f.l, brook_m_abs_d(f.h) * 0x1p-63)) return f.h;
  return brook_m_dd_mul(brook_m_log_dd(x), k).h;
}
BROOK_M_FN double brook_log2(double x) {
  return brook_m_log_scaled(x, brook_m_dd_of(0x1.71547652b82fep+0, 0x1.777d0ffda0d24p-56));
}
BROOK_M_FN double brook_log10(double x) {
  return brook_m_log_scaled(x, brook_m_dd_of(0x1.bcb7b1526e50ep-2, 0x1.95355baaafad3p-57));
}

// The fast exp: e^t for a double-double t, |t.h| <= 746, as res 2^ex (res
// normalised, in [2^-1/128, 2]) within 2^-64.5 relative: t = k ln2/64 + r +
// rl, r from two exact fmas and rl the second's rounding error (so r + rl is
// within 2^-100); e^r - 1 = r + r^2 q(r), q Taylor's to r^6 (the rest below
// 2^-65 for |r| <= ln2/128); 2^(j/64) as a double-double; the leading
// product 2^(j/64) r exact, the rest (below 2^-15 of the result) rounded.
BROOK_M_FN brook_m_dd brook_m_exp_fast_parts(brook_m_dd t, brook_m_i32* ex) {
  double kd;
  brook_m_i32 k = brook_m_round_int(t.h * 0x1.71547652b82fep+6, &kd);
  double rh = BROOK_M_FMA(-kd, BROOK_M_LN2_64_C1, t.h);  // exact
  double r0 = BROOK_M_FMA(-kd, BROOK_M_LN2_64_C2, rh);
  double r;
  // r0's rounding error and t.l (up to 2^-44 for |t| near 746), renormalised
  // so that |rl| <= ulp(r) and rl e^r = rl (1 + r) to 2^-76.
  double rl = brook_m_two_sum(
      r0, BROOK_M_FMA(-kd, BROOK_M_LN2_64_C2, rh - r0) + (t.l - kd * BROOK_M_LN2_64_C3), &r);
  double q = BROOK_M_FMA(r, 0x1.6c16c16c16c17p-10, 0x1.1111111111111p-7);
  q = BROOK_M_FMA(r, q, 0x1.5555555555555p-5);
  q = BROOK_M_FMA(r, q, 0x1.5555555555555p-3);
  q = BROOK_M_FMA(r, q, 0.5);
  double w = BROOK_M_FMA(r * r, q, BROOK_M_FMA(rl, r, rl));  // e^(r + rl) - 1 - r
  brook_m_i32 j = k & 63;
  *ex = (brook_m_i32)(((brook_m_u32)(k + 1048576)) >> 6) - 16384;  // floor(k / 64)
  double th = brook_m_exp2_64[j];
  double tl = brook_m_exp2_64_lo[j];
  brook_m_dd a = brook_m_dd_prod(th, r);
  double s;
  double e = brook_m_two_sum(th, a.h, &s);
  return brook_m_dd_norm(s, e + (a.l + (th * w + BROOK_M_FMA(tl, r, tl))));
}
// e^t for a double-double t whose result is normal (|t.h| < 707): the fast
// path when Ziv's test passes (err: the path's 2^-64.5 and t's own error,
// terr relative to t), else the accurate one.
BROOK_M_FN double brook_m_exp_normal(brook_m_dd t, double terr) {
  brook_m_i32 ex;
  brook_m_dd f = brook_m_exp_fast_parts(t, &ex);
  double err = f.h * (0x1p-63 + brook_m_abs_d(t.h) * terr);
  if (!brook_m_rounds_to(f.h, f.l, err)) f = brook_m_exp_acc_parts(t, &ex);
  return f.h * BROOK_M_U2D((brook_m_u64)(ex + 1023) << 52);
}

// exp of a double (LANGUAGE.md §10: within one ulp, the same bits on every
// backend): the double-double exp above (within 2^-100 relative) rounded
// once to double, so the correctly rounded result except where the exact
// value lies within 2^-100 of a midpoint between doubles. The thresholds:
// exp(x) rounds to infinity above ln(DBL_MAX) rounded down, and to 0 at or
// below ln(2^-1075) rounded to double (mpmath).
// The double nearest res 2^ex (res from brook_m_exp_acc_parts, normalised:
// res.h = RN(res.h + res.l), in [2^-1/128, 2]; the result below 2^1024).
BROOK_M_FN double brook_m_exp_scale_d(brook_m_dd res, brook_m_i32 ex) {
  double h = res.h;
  if (ex > 1023) return (h * 2.0) * BROOK_M_U2D((brook_m_u64)(ex - 1 + 1023) << 52);
  if (ex >= -1021) return h * BROOK_M_U2D((brook_m_u64)(ex + 1023) << 52);
  // Subnormal (or the least normals, h < 1 at ex = -1022 being subnormal):
  // t = h 2^(ex + 1000) is exact (a normal double) and the
  // multiplication by 2^-1000 rounds it to the subnormal grid (2^-74 in t's
  // scale). h is within half its own ulp of h + l, at least twice finer
  // than that grid, so rounding t gives the rounding of (h + l) 2^ex except
  // when t is exactly a midpoint of the grid: then l's sign decides.
  double sc = BROOK_M_U2D((brook_m_u64)(ex + 1000 + 1023) << 52);
  double t = h * sc;
  double r = t * 0x1p-1000;
  double d = t - r * 0x1p1000;  // exact: t's rounding error
  double l = res.l * sc;
  if ((d == 0x1p-75) & (l > 0.0)) r = r + 0x1p-1074;
  if ((d == -0x1p-75) & (l < 0.0)) r = r - 0x1p-1074;
  return r;
}
BROOK_M_FN double brook_exp(double x) {
  if (x != x) return BROOK_M_NAN_D;
  if (x > 0x1.62e42fefa39efp+9) return BROOK_M_INF_D;
  if (x <= -0x1.74910d52d3052p+9) return 0.0;
  if ((x > -707.0) & (x < 707.0)) return brook_m_exp_normal(brook_m_dd_of(x, 0.0), 0.0);
  brook_m_i32 ex;
  brook_m_dd res = brook_m_exp_acc_parts(brook_m_dd_of(x, 0.0), &ex);
  return brook_m_exp_scale_d(res, ex);
}

// 2^x of a double likewise: exp of t = x ln2 as a double-double (ln2 as two
// doubles, within 2^-106), so within 2^-100 of 2^x, rounded once; 2^n for
// an integer n comes out exact. 2^x rounds to infinity from x = 1024 on and
// to 0 at or below -1075 (the midpoint between 0 and 2^-1074 goes to 0).
BROOK_M_FN double brook_exp2(double x) {
  if (x != x) return BROOK_M_NAN_D;
  if (x >= 1024.0) return BROOK_M_INF_D;
  if (x <= -1075.0) return 0.0;
  brook_m_dd t = brook_m_dd_prod(x, 0x1.62e42fefa39efp-1);
  t = brook_m_dd_norm(t.h, t.l + x * 0x1.abc9e3b39803fp-56);
  if ((t.h > -707.0) & (t.h < 707.0)) return brook_m_exp_normal(t, 0.0);
  brook_m_i32 ex;
  brook_m_dd res = brook_m_exp_acc_parts(t, &ex);
  return brook_m_exp_scale_d(res, ex);
}

// More double-double arithmetic: -a, a / b and sqrt(a).
BROOK_M_FN brook_m_dd brook_m_dd_neg(brook_m_dd a) {
  return brook_m_dd_of(-a.h, -a.l);
}
// a / b, relative error below 2^-102: q = a.h / b.h, and the remainder
// a - q b (its leading part cancels exactly) divided by b.h corrects it.
// Where the steps stay normal: |a|, |b| and a / b within 2^-900..2^900.
BROOK_M_FN brook_m_dd brook_m_dd_div(brook_m_dd a, brook_m_dd b) {
  double q = a.h / b.h;
  brook_m_dd p = brook_m_dd_mul_d(b, q);
  double s;
  double e = brook_m_two_sum(a.h, -p.h, &s);
  return brook_m_dd_norm(q, (s + (e + (a.l - p.l))) / b.h);
}
// sqrt(a) for a.h > 0 normal, relative error below 2^-102: one Newton step
// on the double square root, whose residual the fma gives exactly.
BROOK_M_FN brook_m_dd brook_m_dd_sqrt(brook_m_dd a) {
  double s = BROOK_M_SQRT(a.h);
  double e = BROOK_M_FMA(-s, s, a.h);
  return brook_m_dd_norm(s, (e + a.l) / (2.0 * s));
}
// r, or -r when x's sign bit is set (so -0 and +0 are told apart).
BROOK_M_FN double brook_m_sign_of(double x, double r) {
  return (BROOK_M_D2U(x) >> 63) ? -r : r;
}
// pi/2 and pi as double-doubles (hi is the double nearest).
#define BROOK_M_PIO2_HI 0x1.921fb54442d18p+0
#define BROOK_M_PIO2_LO 0x1.1a62633145c07p-54
#define BROOK_M_PI_HI 0x1.921fb54442d18p+1
#define BROOK_M_PI_LO 0x1.1a62633145c07p-53

// ---- sinh, cosh, tanh: from e^a, a = |x|, as res 2^ex (brook_m_exp_acc_parts,
// within 2^-103). For a <= 40, E = e^a is that double-double scaled
// exactly and 1/E its double-double reciprocal; above 40, e^-a is below
// 2^-115 of e^a and sinh and cosh are e^a / 2, scaled and rounded once by
// brook_m_exp_scale_d (which also rounds to infinity from
// ln(2 DBL_MAX) ~ 710.476 on).
// e^a for |a| <= 45: the accurate one, or (fast) the fast one.
BROOK_M_FN brook_m_dd brook_m_exp_small_dd(double a, int fast) {
  brook_m_i32 ex;
  brook_m_dd t = brook_m_dd_of(a, 0.0);
  brook_m_dd e = fast ? brook_m_exp_fast_parts(t, &ex) : brook_m_exp_acc_parts(t, &ex);
  double sc = BROOK_M_U2D((brook_m_u64)(ex + 1023) << 52);
  return brook_m_dd_of(e.h * sc, e.l * sc);
}
BROOK_M_FN double brook_m_exp_half(double a) {  // e^a / 2 for 40 < a <= 711
  brook_m_i32 ex;
  brook_m_dd e = brook_m_exp_acc_parts(brook_m_dd_of(a, 0.0), &ex);
  return brook_m_exp_scale_d(e, ex - 1);
}
// cosh = (E + 1/E) / 2: no cancellation, within 2^-100 (the fast E: 2^-64).
BROOK_M_FN double brook_cosh(double x) {
  if (x != x) return BROOK_M_NAN_D;
  double a = brook_m_abs_d(x);
  if (a > 711.0) return BROOK_M_INF_D;
  if (a > 40.0) return brook_m_exp_half(a);
  // The hard case: cosh(2^-26) = 1 + 2^-53 + 2^-108/24, a midpoint plus less
  // than the double-double resolves (other odd multiples of 2^-26, whose
  // cosh lies as near a midpoint, exceed it by enough; check_math --double).
  if (a == 0x1p-26) return 0x1.0000000000001p+0;
  brook_m_dd s;
  for (int fast = 1; fast >= 0; fast--) {
    brook_m_dd e = brook_m_exp_small_dd(a, fast);
    s = brook_m_dd_add(e, brook_m_dd_div(brook_m_dd_of(1.0, 0.0), e));
    if (!fast || brook_m_rounds_to(s.h, s.l, s.h * 0x1p-62)) break;
  }
  return s.h * 0.5;
}
// sinh = (E - 1/E) / 2: E - 1/E >= 2a, and both are within 2^-101 absolute
// (E < 2^58 at most there), so within 2^-75 relative for a >= 2^-26 (the
// fast E: within 2^-64 (E + 1/E) absolute, which Ziv's test allows).
// Below that sinh(a) = a + a^3/6 to 2^-110 relative.
BROOK_M_FN double brook_sinh(double x) {
  if (x != x) return BROOK_M_NAN_D;
  double a = brook_m_abs_d(x);
  double r;
  if (a > 711.0) {
    r = BROOK_M_INF_D;
  } else if (a > 40.0) {
    r = brook_m_exp_half(a);
  } else if (a < 0x1p-26) {
    r = BROOK_M_FMA(a * a, a * 0x1.5555555555555p-3, a);
  } else {
    for (int fast = 1; fast >= 0; fast--) {
      brook_m_dd e = brook_m_exp_small_dd(a, fast);
      brook_m_dd inv = brook_m_dd_div(brook_m_dd_of(1.0, 0.0), e);
      brook_m_dd d = brook_m_dd_add(e, brook_m_dd_neg(inv));
      r = d.h * 0.5;
      if (!fast || brook_m_rounds_to(d.h, d.l, (e.h + inv.h) * 0x1p-62)) break;
    }
  }
  return brook_m_sign_of(x, r);
}
// tanh = (E2 - 1) / (E2 + 1), E2 = e^(2a): E2 - 1 >= 2a, within 2^-75
// relative for a >= 2^-27 (the fast E2: within 2^-64 (1 + E2 / (E2 - 1))
// relative); below that tanh(a) = a - a^3/3 to 2^-110. From 22 on,
// 1 - tanh(a) < 2^-62 and tanh rounds to 1.
BROOK_M_FN double brook_tanh(double x) {
  if (x != x) return BROOK_M_NAN_D;
  double a = brook_m_abs_d(x);
  double r;
  if (a > 22.0) {
    r = 1.0;
  } else if (a < 0x1p-27) {
    r = BROOK_M_FMA(-(a * a), a * 0x1.5555555555555p-2, a);
  } else {
    for (int fast = 1; fast >= 0; fast--) {
      brook_m_dd e = brook_m_exp_small_dd(2.0 * a, fast);
      brook_m_dd num = brook_m_dd_add(e, brook_m_dd_of(-1.0, 0.0));
      brook_m_dd t = brook_m_dd_div(num, brook_m_dd_add(e, brook_m_dd_of(1.0, 0.0)));
      r = t.h;
      if (!fast || brook_m_rounds_to(t.h, t.l, t.h * 0x1p-62 * (1.0 + e.h / num.h))) break;
    }
  }
  return brook_m_sign_of(x, r);
}

// ---- pow(x, y) = e^(y log|x|) with the special cases of C99 F.9.4.4.
// log|x| is the double-double log (within 2^-101), y times it a
// double-double t (within 2^-100 relative, so 2^-90 absolute while
// |t| <= 746), and e^t the accurate exp, rounded once (subnormals too):
// within 2^-90 of x^y. Exact results (4^0.5, 10^3) come out exact. A
// result exactly midway between two doubles has at most 54 significant bits:
// for an integer y from 2 to 64 (7^19, (2^27 - 1)^2) or a power of two x
// (2^-1075), brook_m_pow_int computes it exactly and rounds it once, to
// even; for other y (s^1.5 = s^3 for an 18-bit s; 3^5 2^-1075) the
// double-double may round it either way, one ulp at most.
// y's class: 0 not an integer, 1 an even integer, 2 an odd one (y finite).
BROOK_M_FN brook_m_i32 brook_m_pow_yclass_d(double y) {
  brook_m_u64 iy = BROOK_M_D2U(y) & 0x7ffffffffffffffful;
  brook_m_i32 e = (brook_m_i32)(iy >> 52) - 1023;
  if (e < 0) return iy == 0 ? 1 : 0;
  if (e >= 53) return 1;
  brook_m_u64 frac = iy & ((((brook_m_u64)1) << (52 - e)) - 1);
  if (frac != 0) return 0;
  return ((iy >> (52 - e)) & 1) ? 2 : 1;  // the units bit (for e = 0 the exponent's last bit, 1)
}
// The results that can be exactly a midpoint between two doubles, or a
// power of two anywhere in the range, computed exactly: x = m 2^k (m odd,
// finite x > 0) and an integer y with m = 1 and |y| <= 2^20, or 2 <= y <= 64
// and m^y below 2^54 (an integer of at most 54 bits). Returns 0 when x, y are
// not such; else 1 and *r = x^y rounded once (brook_m_exp_scale_d: to even
// on a tie, onto the subnormal grid, to infinity).
BROOK_M_FN int brook_m_pow_int(double x, double y, double* r) {
  brook_m_u64 ix = BROOK_M_D2U(x);
  brook_m_i32 be = (brook_m_i32)(ix >> 52);
  brook_m_u64 m = ix & 0xffffffffffffful;
  brook_m_i32 k = -1074;
  if (be != 0) {
    m = m | 0x10000000000000ul;
    k = be - 1075;
  }
  brook_m_i32 tz = 63 - (brook_m_i32)BROOK_M_CLZ64(m & (~m + 1));  // trailing zeros
  m = m >> tz;
  k = k + tz;
  brook_m_u64 p = 1;
  if (m == 1) {
    if (!((y >= -1048576.0) & (y <= 1048576.0))) return 0;
  } else {
    if (!((y >= 2.0) & (y <= 64.0)) | (m >= 0x8000000ul)) return 0;  // m^2 >= 2^54
    for (brook_m_i32 i = 0; i < (brook_m_i32)y; i++) {
      p = p * m;  // p < 2^54 before, m < 2^27: no wrap
      if (p >= 0x40000000000000ul) return 0;
    }
  }
  // x^y = p 2^(k y) = (p 2^-b) 2^e with p 2^-b in [1, 2); a 54-bit p is the
  // double-double of its even part and its last bit, normalised (a tie goes
  // to even, and the low part keeps the rest for the subnormal rounding).
  brook_m_i32 b = 63 - (brook_m_i32)BROOK_M_CLZ64(p);
  brook_m_i32 e = k * (brook_m_i32)y + b;
  if (e < -1100) {
    *r = 0.0;
  } else if (e > 1024) {
    *r = BROOK_M_INF_D;
  } else {
    double sc = BROOK_M_U2D((brook_m_u64)(1023 - b) << 52);
    brook_m_u64 low = b == 53 ? (p & 1ul) : 0ul;
    *r = brook_m_exp_scale_d(brook_m_dd_norm((double)(p - low) * sc, (double)low * sc), e);
  }
  return 1;
}
BROOK_M_FN double brook_pow(double x, double y) {
  brook_m_u64 ax = BROOK_M_D2U(x) & 0x7ffffffffffffffful;
  brook_m_u64 ay = BROOK_M_D2U(y) & 0x7ffffffffffffffful;
  int xneg = (BROOK_M_D2U(x) >> 63) != 0;
  int yneg = (BROOK_M_D2U(y) >> 63) != 0;
  if (ay == 0) return 1.0;   // x^0 = 1, even for a NaN x
  if (x == 1.0) return 1.0;  // 1^y = 1, even for a NaN y
  if ((ax > 0x7ff0000000000000ul) | (ay > 0x7ff0000000000000ul)) return BROOK_M_NAN_D;
  if (ay == 0x7ff0000000000000ul) {              // y = +-inf
    if (ax == 0x3ff0000000000000ul) return 1.0;  // (-1)^+-inf
    return ((ax > 0x3ff0000000000000ul) == !yneg) ? BROOK_M_INF_D : 0.0;
  }
  brook_m_i32 yc = brook_m_pow_yclass_d(y);
  int neg = xneg & (yc == 2);
  double r;
  if ((ax == 0) | (ax == 0x7ff0000000000000ul)) {
    r = ((ax == 0) == yneg) ? BROOK_M_INF_D : 0.0;  // 0^-y and inf^y are infinite
  } else if (xneg & (yc == 0)) {
    return BROOK_M_NAN_D;  // a negative base, y not an integer
  } else if ((yc != 0) && brook_m_pow_int(BROOK_M_U2D(ax), y, &r)) {
    // exact, rounded once
  } else {
    // The fast path where the result is normal: the fast log (2^-66) times
    // y, so t within 2^-66 |t|, and the fast exp.
    double a = BROOK_M_U2D(ax);
    brook_m_dd lf = brook_m_log_fast_dd(a);
    double th = lf.h * y;
    brook_m_i32 ex;
    brook_m_dd res;
    int done = 0;
    if ((th > -707.0) & (th < 707.0)) {
      brook_m_dd t = brook_m_dd_mul_d(lf, y);
      res = brook_m_exp_fast_parts(t, &ex);
      done = brook_m_rounds_to(res.h, res.l, res.h * (0x1p-63 + brook_m_abs_d(t.h) * 0x1p-65));
    }
    if (done) {
      r = res.h * BROOK_M_U2D((brook_m_u64)(ex + 1023) << 52);
    } else if (th > 710.0) {
      r = BROOK_M_INF_D;
    } else if (th < -746.0) {
      r = 0.0;
    } else {
      res = brook_m_exp_acc_parts(brook_m_dd_mul_d(brook_m_log_dd(a), y), &ex);
      r = brook_m_exp_scale_d(res, ex);
    }
  }
  return neg ? -r : r;
}

// ---- sin, cos, tan. |x| 2/pi = q + f, q an integer (mod 4), |f| <= 1/2,
// and sin x is +-sin(r) or +-cos(r), r = f pi/2, by q.
// The reduction is Payne-Hanek's in integers: |x| = m 2^(E-52) with m a
// 53-bit integer, and the 192 bits of 2/pi from 2^(53-E) down (the bits
// above contribute multiples of 4) times m, taken mod 2^192, are
// x 2/pi mod 4 with 190 bits after the point, short of the exact value by
// below 2^-137. No double lies closer to a multiple of pi/2 than 2^-61
// (Kahan and McDonald), so f keeps at least 75 correct bits; its leading
// 106 bits become a double-double and pi/2 multiplies it (2^-103): r within
// 2^-74 relative at worst, 2^-100 for all but the hardest arguments.
// 2/pi's bits after the point, after a word of zeros (tests/math/gen_tables.py).
BROOK_M_TABLE brook_m_u64 brook_m_2_pi_words[22] = {
    0x0000000000000000ul, 0xa2f9836e4e441529ul, 0xfc2757d1f534ddc0ul, 0xdb6295993c439041ul,
    0xfe5163abdebbc561ul, 0xb7246e3a424dd2e0ul, 0x06492eea09d1921cul, 0xfe1deb1cb129a73eul,
    0xe88235f52ebb4484ul, 0xe99c7026b45f7e41ul, 0x3991d639835339f4ul, 0x9c845f8bbdf9283bul,
    0x1ff897ffde05980ful, 0xef2f118b5a0a6d1ful, 0x6d367ecf27cb09b7ul, 0x4f463f669e5fea2dul,
    0x7527bac7ebe5f17bul, 0x3d0739f78a5292eaul, 0x6bfb5fb11f8d5d08ul, 0x56033046fc7b6babul,
    0xf0cfbc209af4361dul, 0xa9e391615ee61b08ul};
// r for a finite a = |x| >= 1/2; *q = q mod 4.
BROOK_M_FN brook_m_dd brook_m_trig_reduce_dd(double a, brook_m_i32* q) {
  brook_m_u64 ia = BROOK_M_D2U(a);
  brook_m_i32 e = (brook_m_i32)(ia >> 52) - 1023;
  brook_m_u64 m = (ia & 0xffffffffffffful) | 0x10000000000000ul;
  // The window starts at table bit e + 10 (bit 64 is 2/pi's 2^-1).
  brook_m_i32 t0 = e + 10;
  brook_m_i32 w = t0 >> 6;
  brook_m_i32 sh = t0 & 63;
  brook_m_u64 w0 = brook_m_2_pi_words[w];
  brook_m_u64 w1 = brook_m_2_pi_words[w + 1];
  brook_m_u64 w2 = brook_m_2_pi_words[w + 2];
  if (sh != 0) {
    brook_m_u64 w3 = brook_m_2_pi_words[w + 3];
    w0 = (w0 << sh) | (w1 >> (64 - sh));
    w1 = (w1 << sh) | (w2 >> (64 - sh));
    w2 = (w2 << sh) | (w3 >> (64 - sh));
  }
  // m (w0 w1 w2) mod 2^192 as words r0 r1 r2, most significant first.
  brook_m_u64 p1l = m * w1;
  brook_m_u64 r2 = m * w2;
  brook_m_u64 r1 = BROOK_M_MULHI64(m, w2) + p1l;
  brook_m_u64 r0 = BROOK_M_MULHI64(m, w1) + m * w0 + (brook_m_u64)(r1 < p1l);
  // r0's top two bits are q; the other 190 bits are f in [0, 1), taken to
  // [-1/2, 1/2) by a carry into q and a negation.
  *q = (brook_m_i32)(r0 >> 62);
  brook_m_u64 n0 = (r0 << 2) | (r1 >> 62);
  brook_m_u64 n1 = (r1 << 2) | (r2 >> 62);
  brook_m_u64 n2 = r2 << 2;
  int negative = (n0 >> 63) != 0;
  if (negative) {
    *q = (*q + 1) & 3;
    n2 = ~n2 + 1;
    brook_m_u64 c = (brook_m_u64)(n2 == 0);
    n1 = ~n1 + c;
    c = c & (brook_m_u64)(n1 == 0);
    n0 = ~n0 + c;
  }
  // |f| = (n0 n1 n2) 2^-192 >= 2^-62: normalise so that n0's top bit is set.
  brook_m_i32 shift = 0;
  if (n0 == 0) {
    n0 = n1;
    n1 = n2;
    n2 = 0;
    shift = 64;
  }
  brook_m_i32 lz = (brook_m_i32)BROOK_M_CLZ64(n0);
  if (lz != 0) {
    n0 = (n0 << lz) | (n1 >> (64 - lz));
    n1 = (n1 << lz) | (n2 >> (64 - lz));
  }
  shift += lz;
  double hi = (double)(n0 >> 11) * BROOK_M_U2D((brook_m_u64)(1023 - 53 - shift) << 52);
  double lo = (double)(((n0 & 0x7fful) << 42) | (n1 >> 22)) *
              BROOK_M_U2D((brook_m_u64)(1023 - 106 - shift) << 52);
  brook_m_dd r =
      brook_m_dd_mul(brook_m_dd_of(hi, lo), brook_m_dd_of(BROOK_M_PIO2_HI, BROOK_M_PIO2_LO));
  return negative ? brook_m_dd_neg(r) : r;
}
// sin(r) and cos(r) for a double-double |r| <= pi/4 (+2^-60): Taylor
// series to r^21 and r^22 (the rest below 2^-82), the terms to r^9 and r^8
// in double-double, the rest in double (their rounding below 2^-80 of the
// result); about 2^-80 in all.
BROOK_M_TABLE double brook_m_sin_dd_coeffs[8] = {
    -0x1.5555555555555p-3,  -0x1.5555555555555p-57, 0x1.1111111111111p-7,  0x1.1111111111111p-63,
    -0x1.a01a01a01a01ap-13, -0x1.a01a01a01a01ap-73, 0x1.71de3a556c734p-19, -0x1.c154f8ddc6c00p-73};
BROOK_M_TABLE double brook_m_cos_dd_coeffs[8] = {-0x1.0000000000000p-1,  0x0.0p+0,
                                                 0x1.5555555555555p-5,   0x1.5555555555555p-59,
                                                 -0x1.6c16c16c16c17p-10, 0x1.f49f49f49f49fp-65,
                                                 0x1.a01a01a01a01ap-16,  0x1.a01a01a01a01ap-76};
// c0 + z (c1 + z (c2 + z (c3 + z p))), the c_n double-doubles of sin's
// table or, when use_cos, cos's.
BROOK_M_FN brook_m_dd brook_m_trig_horner(int use_cos, brook_m_dd z, double p) {
  brook_m_dd s = brook_m_dd_of(p, 0.0);
  for (brook_m_i32 n = 3; n >= 0; n--) {
    brook_m_dd c =
        use_cos ? brook_m_dd_of(brook_m_cos_dd_coeffs[2 * n], brook_m_cos_dd_coeffs[2 * n + 1])
                : brook_m_dd_of(brook_m_sin_dd_coeffs[2 * n], brook_m_sin_dd_coeffs[2 * n + 1]);
    s = brook_m_dd_add(c, brook_m_dd_mul(s, z));
  }
  return s;
}
BROOK_M_FN brook_m_dd brook_m_sin_dd(brook_m_dd r) {
  brook_m_dd z = brook_m_dd_mul(r, r);
  double zh = z.h;
  double p = BROOK_M_FMA(zh, 0x1.71b8ef6dcf572p-66, -0x1.2f49b46814157p-57);
  p = BROOK_M_FMA(zh, p, 0x1.952c77030ad4ap-49);
  p = BROOK_M_FMA(zh, p, -0x1.ae7f3e733b81fp-41);
  p = BROOK_M_FMA(zh, p, 0x1.6124613a86d09p-33);
  p = BROOK_M_FMA(zh, p, -0x1.ae64567f544e4p-26);
  brook_m_dd s = brook_m_trig_horner(0, z, p);
  return brook_m_dd_add(r, brook_m_dd_mul(brook_m_dd_mul(r, z), s));
}
BROOK_M_FN brook_m_dd brook_m_cos_dd(brook_m_dd r) {
  brook_m_dd z = brook_m_dd_mul(r, r);
  double zh = z.h;
  double p = BROOK_M_FMA(zh, -0x1.0ce396db7f853p-70, 0x1.e542ba4020225p-62);
  p = BROOK_M_FMA(zh, p, -0x1.6827863b97d97p-53);
  p = BROOK_M_FMA(zh, p, 0x1.ae7f3e733b81fp-45);
  p = BROOK_M_FMA(zh, p, -0x1.93974a8c07c9dp-37);
  p = BROOK_M_FMA(zh, p, 0x1.1eed8eff8d898p-29);
  p = BROOK_M_FMA(zh, p, -0x1.27e4fb7789f5cp-22);
  brook_m_dd s = brook_m_trig_horner(1, z, p);
  return brook_m_dd_add(brook_m_dd_of(1.0, 0.0), brook_m_dd_mul(z, s));
}
// The fast path. For |x| < 2^20: k = round(|x| 2/pi), r = |x| - k pi/2 with
// pi/2 = P1 + P2 + P3 (P1, P2 of 33 bits: k P1 and k P2 are exact products,
// |x| - k P1 is exact, and the rounding of the next step is recovered):
// within 2^-97 absolute, which is 2^-67 relative from |r| >= 2^-30 on (the
// accurate reduction takes the rest). Returns 0 where it does not apply.
BROOK_M_FN int brook_m_trig_reduce_fast(double a, brook_m_i32* q, brook_m_dd* r) {
  double kd;
  *q = brook_m_round_int(a * 0x1.45f306dc9c883p-1, &kd) & 3;
  double y1 = BROOK_M_FMA(-kd, 0x1.921fb54400000p+0, a);  // exact
  double r0 = BROOK_M_FMA(-kd, 0x1.0b4611a600000p-34, y1);
  double e = BROOK_M_FMA(-kd, 0x1.0b4611a600000p-34, y1 - r0) - kd * 0x1.3198a2e037073p-69;
  double rh;
  double rl = brook_m_two_sum(r0, e, &rh);
  *r = brook_m_dd_of(rh, rl);
  return brook_m_abs_d(rh) >= 0x1p-30;
}
// sin and cos of j/64, j = 0..51, as double-doubles (hi, lo, hi, lo per j;
// tests/math/gen_tables.py).
BROOK_M_TABLE double brook_m_sincos_64[208] = {0x0.0p+0,
                                               0x0.0p+0,
                                               0x1.0000000000000p+0,
                                               0x0.0p+0,
                                               0x1.fffaaaaeeeed5p-7,
                                               -0x1.2ab639a9f0776p-63,
                                               0x1.fff000155549fp-1,
                                               0x1.28a28a03a5ef3p-55,
                                               0x1.ffeaaaeeee86fp-6,
                                               -0x1.cd406fb224ae2p-60,
                                               0x1.ffc00155527d3p-1,
                                               -0x1.3b54492d89b5bp-55,
                                               0x1.7fdc01032fba9p-5,
                                               -0x1.599bdf46e997ap-59,
                                               0x1.ff7006bfdf99fp-1,
                                               -0x1.8b3b560648d5fp-56,
                                               0x1.ffaaaeeed4edbp-5,
                                               -0x1.2d16d32684b69p-59,
                                               0x1.ff0015549f4d3p-1,
                                               0x1.328387b99426fp-55,
                                               0x1.3facb12d1755bp-4,
                                               -0x1.921915299468bp-58,
                                               0x1.fe7034129ef6fp-1,
                                               -0x1.cbf4337c96f97p-57,
                                               0x1.7f701032550e4p-4,
                                               0x1.afc2d1800501ap-60,
                                               0x1.fdc06bf7e6b9bp-1,
                                               0x1.31902b535f8dbp-55,
                                               0x1.bf1b78568391dp-4,
                                               0x1.e91841dea4cc8p-58,
                                               0x1.fcf0c800e99b1p-1,
                                               0x1.ea3d786d186acp-57,
                                               0x1.feaaeee86ee36p-4,
                                               -0x1.afcb2bcc6f03bp-59,
                                               0x1.fc015527d5bd3p-1,
                                               0x1.b68f35094efb8p-55,
                                               0x1.1f0d3d7afceafp-3,
                                               -0x1.6ef95099769a5p-57,
                                               0x1.faf22263c4bd3p-1,
                                               -0x1.52ace133a2769p-58,
                                               0x1.3eb312c5d66cbp-3,
                                               0x1.47d666b66cb91p-57,
                                               0x1.f9c340a7cc428p-1,
                                               0x1.c5b6b063b7462p-55,
                                               0x1.5e44fcfa126f3p-3,
                                               -0x1.6f443063f89b6p-57,
                                               0x1.f874c2e1eecf6p-1,
                                               -0x1.c6514e1332b16p-55,
                                               0x1.7dc102fbaf2b5p-3,
                                               0x1.5ab50e23c97c3p-59,
                                               0x1.f706bdf9ece1cp-1,
                                               -0x1.698c80c36dcb4p-55,
                                               0x1.9d252d0cec312p-3,
                                               0x1.9c43d80b1137dp-58,
                                               0x1.f57948cff6797p-1,
                                               0x1.e3a0d3e03b1d4p-57,
                                               0x1.bc6f84edc6199p-3,
                                               0x1.9c1a56a7b0cabp-57,
                                               0x1.f3cc7c3b3d16ep-1,
                                               -0x1.21a3ad28a3494p-57,
                                               0x1.db9e15fb5a5d0p-3,
                                               -0x1.32e20d6cc6fc2p-57,
                                               0x1.f20073086649fp-1,
                                               0x1.b940416c1984bp-56,
                                               0x1.faaeed4f31577p-3,
                                               -0x1.15d88508e32b8p-57,
                                               0x1.f01549f7deea1p-1,
                                               0x1.d3c1e99e5cafdp-55,
                                               0x1.0cd00cef36436p-2,
                                               -0x1.9fb0a0c93e2b4p-56,
                                               0x1.ee0b1fbc0f11cp-1,
                                               -0x1.bfd2380bbc3b1p-59,
                                               0x1.1c37d64c6b876p-2,
                                               0x1.46076fe0dcff4p-56,
                                               0x1.ebe214f76efa8p-1,
                                               -0x1.02f9f12ba543ep-55,
                                               0x1.2b8ddc43eb49fp-2,
                                               0x1.1553899f2d807p-57,
                                               0x1.e99a4c3a7cd83p-1,
                                               -0x1.2264b1bc53ce8p-55,
                                               0x1.3ad129769d3d8p-2,
                                               0x1.03d550487839ap-63,
                                               0x1.e733ea0193d40p-1,
                                               -0x1.6428b3546ce13p-55,
                                               0x1.4a00c9b0f3d20p-2,
                                               0x1.823ba6bb08eadp-56,
                                               0x1.e4af14b2a449cp-1,
                                               -0x1.68ca02e8a6833p-55,
                                               0x1.591bc9fa2f597p-2,
                                               0x1.7c74bac3fe0cbp-57,
                                               0x1.e20bf49acd6c1p-1,
                                               -0x1.660aec7ef636bp-58,
                                               0x1.682138a38d7f7p-2,
                                               -0x1.d889202444aadp-56,
                                               0x1.df4ab3ebd875ep-1,
                                               -0x1.e2d8a7e6736c4p-55,
                                               0x1.7710255764214p-2,
                                               -0x1.6ead7314bb6cep-57,
                                               0x1.dc6b7eb995912p-1,
                                               0x1.4b364776dcd35p-58,
                                               0x1.85e7a12826949p-2,
                                               0x1.8a40e9b5face0p-56,
                                               0x1.d96e82f71a9dcp-1,
                                               0x1.ff61bd5d2039dp-55,
                                               0x1.94a6be9f546c5p-2,
                                               -0x1.69ce13e683f58p-56,
                                               0x1.d653f073e4040p-1,
                                               -0x1.76236434bec37p-55,
                                               0x1.a34c91cc50ccap-2,
                                               -0x1.a310e3b50cecdp-58,
                                               0x1.d31bf8d8d7c06p-1,
                                               0x1.e60dd3089cbddp-56,
                                               0x1.b1d8305321617p-2,
                                               -0x1.ae242cb99f519p-56,
                                               0x1.cfc6cfa52ad9fp-1,
                                               0x1.8b5b5508f2a0dp-55,
                                               0x1.c048b17b140a3p-2,
                                               0x1.19fe6757e9fa7p-57,
                                               0x1.cc54aa2b2972ep-1,
                                               0x1.4ee162ba83a98p-57,
                                               0x1.ce9d2e3d4a51fp-2,
                                               -0x1.2fc8a12dae298p-57,
                                               0x1.c8c5bf8ce1a84p-1,
                                               0x1.ab3d1a1590123p-56,
                                               0x1.dcd4c15329c9ap-2,
                                               0x1.0d4c6e171fd9ap-56,
                                               0x1.c51a48b8b175ep-1,
                                               -0x1.1bbb43b9aa880p-57,
                                               0x1.eaee8744b05f0p-2,
                                               -0x1.789b43c9b027dp-58,
                                               0x1.c1528065b7d50p-1,
                                               -0x1.892111312e828p-55,
                                               0x1.f8e99e76abc97p-2,
                                               0x1.9d950af2d00a3p-58,
                                               0x1.bd6ea310294f5p-1,
                                               0x1.31bbcc88c109dp-56,
                                               0x1.0362939c69955p-1,
                                               -0x1.2d8cd78397b01p-55,
                                               0x1.b96eeef58840ep-1,
                                               0x1.45a3cc78fade0p-58,
                                               0x1.0a4021e9e1001p-1,
                                               -0x1.6f643a13914f6p-55,
                                               0x1.b553a410c104ep-1,
                                               0x1.8ff7947027a15p-58,
                                               0x1.110d0c4b69c3bp-1,
                                               0x1.d918998809981p-55,
                                               0x1.b11d04162a4c6p-1,
                                               0x1.1dd561efbc0c2p-56,
                                               0x1.17c8e5f2eedb0p-1,
                                               0x1.35e57102e2488p-57,
                                               0x1.accb526f69de5p-1,
                                               0x1.8fb6a8dd6b6ccp-55,
                                               0x1.1e7343236574cp-1,
                                               0x1.22a3fa4f41d5ap-56,
                                               0x1.a85ed4373e02dp-1,
                                               0x1.9be06385ec792p-57,
                                               0x1.250bb93788bbbp-1,
                                               0x1.ea3d02457bccep-56,
                                               0x1.a3d7d0352bdcfp-1,
                                               -0x1.68dbaeca19669p-55,
                                               0x1.2b91dea88421ep-1,
                                               -0x1.fa371db216ab0p-55,
                                               0x1.9f368ed912f85p-1,
                                               -0x1.1d200c5791606p-55,
                                               0x1.32054b148bc4fp-1,
                                               0x1.f6b42095a135bp-55,
                                               0x1.9a7b5a36a6514p-1,
                                               0x1.722cfcc9fa7a9p-55,
                                               0x1.386597456282bp-1,
                                               -0x1.10fada93b07a8p-56,
                                               0x1.95a67e00cb1fdp-1,
                                               -0x1.0befda21f862dp-55,
                                               0x1.3eb25d36cd53ap-1,
                                               -0x1.be570e1570fc0p-58,
                                               0x1.90b84784ddaf7p-1,
                                               -0x1.0feb10ab93b87p-56,
                                               0x1.44eb381cf386bp-1,
                                               -0x1.3ed6c1e6a5505p-55,
                                               0x1.8bb105a5dc900p-1,
                                               0x1.863e03e9474c1p-55,
                                               0x1.4b0fc46aab761p-1,
                                               0x1.0da05738cc59cp-61,
                                               0x1.869108d77a6c6p-1,
                                               0x1.338ffe2bfe9ddp-56,
                                               0x1.511f9fd7b351cp-1,
                                               -0x1.5c0e861c48831p-55,
                                               0x1.8158a31916d5dp-1,
                                               -0x1.de8b90b8228dep-57,
                                               0x1.571a6966d59b3p-1,
                                               0x1.c843b4d0fb197p-58,
                                               0x1.7c0827f09e54fp-1,
                                               -0x1.c73d6d72aee68p-57,
                                               0x1.5cffc16bf8f0dp-1,
                                               0x1.96cb370eb578ap-55,
                                               0x1.769fec655211fp-1,
                                               -0x1.827d5cf8c68c5p-57,
                                               0x1.62cf49921ac79p-1,
                                               -0x1.edd9855b6241ap-55,
                                               0x1.712046fa77678p-1,
                                               0x1.425b0a5029c81p-55,
                                               0x1.6888a4e134b2fp-1,
                                               -0x1.6b7d37644d5e6p-55,
                                               0x1.6b898fa9efb5dp-1,
                                               0x1.15ac786ccf4b2p-56,
                                               0x1.6e2b77c40bde1p-1,
                                               -0x1.0e729857fad53p-56,
                                               0x1.65dc1fdeb8cbap-1,
                                               -0x1.97c1b47337c77p-58};
// sin(r) and cos(r) for a double-double |r| <= pi/4 + 2^-30, within 2^-65:
// |r| = c + d + rl with c = j/64 nearest (d exact, |d| <= 1/128), sin(c + d)
// = S + C d + S (cos d - 1) + C (sin d - d) and cos(c + d) = C - S d +
// C (cos d - 1) - S (sin d - d), S and C from the table (2^-106), C d and
// S d exact products, the Taylor series of sin d - d and cos d - 1 to d^7
// and d^6 (the rest below 2^-71), rl to first order; the rest, below
// 2^-15 of the result, rounded.
BROOK_M_FN void brook_m_sincos_fast(brook_m_dd r, brook_m_dd* sin_r, brook_m_dd* cos_r) {
  double sg = r.h < 0.0 ? -1.0 : 1.0;
  double rh = r.h * sg;
  double rl = r.l * sg;
  double jd;
  brook_m_i32 j = brook_m_round_int(rh * 64.0, &jd);
  double d = rh - jd * 0x1p-6;  // exact
  double d2 = d * d;
  double sd =
      (d * d2) * BROOK_M_FMA(d2, BROOK_M_FMA(d2, -0x1.a01a01a01a01ap-13, 0x1.1111111111111p-7),
                             -0x1.5555555555555p-3);
  double cm =
      d2 * BROOK_M_FMA(d2, BROOK_M_FMA(d2, -0x1.6c16c16c16c17p-10, 0x1.5555555555555p-5), -0.5);
  double sh = brook_m_sincos_64[4 * j];
  double sl = brook_m_sincos_64[4 * j + 1];
  double ch = brook_m_sincos_64[4 * j + 2];
  double cl = brook_m_sincos_64[4 * j + 3];
  brook_m_dd p = brook_m_dd_prod(ch, d);
  double s0;
  double e0 = brook_m_two_sum(sh, p.h, &s0);
  double slo = e0 + (p.l + ((sl + cl * d) + (sh * cm + ch * sd) + rl * (ch - sh * d)));
  brook_m_dd s = brook_m_dd_norm(s0, slo);
  *sin_r = brook_m_dd_of(s.h * sg, s.l * sg);
  brook_m_dd p2 = brook_m_dd_prod(sh, d);
  double c0;
  double e1 = brook_m_two_sum(ch, -p2.h, &c0);
  double clo = e1 + (-p2.l + ((cl - sl * d) + (ch * cm - sh * sd) - rl * (sh + ch * d)));
  *cos_r = brook_m_dd_norm(c0, clo);
}
// sin, cos or tan (BROOK_M_SIN, _COS, _TAN) of r, quadrant q, as a
// double-double (the fast forms or the accurate ones).
BROOK_M_FN brook_m_dd brook_m_trig_of(brook_m_dd r, brook_m_i32 q, brook_m_i32 which, int fast) {
  brook_m_dd s;
  brook_m_dd c;
  if (fast) {
    brook_m_sincos_fast(r, &s, &c);
  } else {
    s = brook_m_sin_dd(r);
    c = brook_m_cos_dd(r);
  }
  if (which == BROOK_M_TAN)
    return (q & 1) ? brook_m_dd_neg(brook_m_dd_div(c, s)) : brook_m_dd_div(s, c);
  q = q + (which == BROOK_M_COS);  // cos(y) = sin(y + pi/2)
  brook_m_dd v = (q & 1) ? c : s;
  return (q & 2) ? brook_m_dd_neg(v) : v;
}
// sin, cos or tan of a double: the fast path where it applies and Ziv's
// test passes (2^-65 for sin and cos, their quotient 2^-64, r's 2^-67:
// err 2^-62 allows them), else the accurate reduction and series.
BROOK_M_FN double brook_m_trig_double(double x, brook_m_i32 which) {
  double a = brook_m_abs_d(x);
  if (a >= BROOK_M_INF_D) return BROOK_M_NAN_D;  // NaN compares false: below too
  if (x != x) return BROOK_M_NAN_D;
  brook_m_i32 q = 0;
  brook_m_dd r = brook_m_dd_of(a, 0.0);
  int fast = 1;
  if (a > 0x1.921fb54442d18p-1) fast = (a < 0x1p20) && brook_m_trig_reduce_fast(a, &q, &r);
  brook_m_dd v;
  if (fast) {
    v = brook_m_trig_of(r, q, which, 1);
    fast = brook_m_rounds_to(v.h, v.l, brook_m_abs_d(v.h) * 0x1p-62);
  }
  if (!fast) {
    q = 0;
    r = brook_m_dd_of(a, 0.0);
    if (a > 0x1.921fb54442d18p-1) r = brook_m_trig_reduce_dd(a, &q);
    v = brook_m_trig_of(r, q, which, 0);
  }
  return which == BROOK_M_COS ? v.h : brook_m_sign_of(x, v.h);  // sin, tan are odd
}
BROOK_M_FN double brook_sin(double x) {
  return brook_m_trig_double(x, BROOK_M_SIN);
}
BROOK_M_FN double brook_cos(double x) {
  return brook_m_trig_double(x, BROOK_M_COS);
}
BROOK_M_FN double brook_tan(double x) {
  return brook_m_trig_double(x, BROOK_M_TAN);
}

// ---- atan, atan2, asin, acos. atan(t) for 0 <= t <= 1 is atan(c) + atan(v)
// with c = i/64 nearest t and v = (t - c) / (1 + t c), |v| <= 1/128 (+2^-50):
// atan(c) from the tables as a double-double (2^-106), atan(v) its Taylor
// series to v^15 (the rest below 2^-110 v), v^5 on in double; the sum at
// most halves (atan(1/64) - atan(1/128)): within 2^-99.
// atan(i/64) - brook_m_atan_64[i] (tests/math/gen_tables.py).
BROOK_M_TABLE double brook_m_atan_64_lo[65] = {0x0.0p+0,
                                               -0x1.220c39d4dff50p-61,
                                               -0x1.5ec431444912cp-60,
                                               -0x1.86ef8f794f105p-63,
                                               -0x1.c934d86d23f1dp-60,
                                               0x1.ac4ce285df847p-58,
                                               -0x1.cfb654c0c3d98p-58,
                                               0x1.f7b8f29a05987p-58,
                                               -0x1.cd37686760c17p-59,
                                               -0x1.b485914dacf8cp-59,
                                               0x1.61a3b0ce9281bp-57,
                                               -0x1.054ab2c010f3dp-58,
                                               0x1.347b0b4f881cap-58,
                                               0x1.cf601e7b4348ep-59,
                                               0x1.17b10d2e0e5abp-61,
                                               0x1.c648d1534597ep-57,
                                               0x1.8ab6e3cf7afbdp-57,
                                               0x1.62e47390cb865p-56,
                                               0x1.30ca4748b1bf9p-57,
                                               -0x1.077cdd36dfc81p-56,
                                               -0x1.963a544b672d8p-57,
                                               -0x1.5d5e43c55b3bap-56,
                                               -0x1.2566480884082p-57,
                                               -0x1.a725715711f00p-56,
                                               -0x1.c63aae6f6e918p-56,
                                               0x1.69c885c2b249ap-56,
                                               0x1.b6d0ba3748fa8p-56,
                                               0x1.9e6c988fd0a77p-56,
                                               -0x1.24dec1b50b7ffp-56,
                                               0x1.ae187b1ca5040p-56,
                                               -0x1.cc1ce70934c34p-56,
                                               -0x1.a2cfa4418f1adp-56,
                                               0x1.a2b7f222f65e2p-56,
                                               0x1.0e53dc1bf3435p-56,
                                               -0x1.a3992dc382a23p-57,
                                               -0x1.b32c949c9d593p-55,
                                               -0x1.d5b495f6349e6p-56,
                                               0x1.974fa13b5404fp-58,
                                               -0x1.2bdaee1c0ee35p-58,
                                               0x1.c621cec00c301p-55,
                                               -0x1.928df287a668fp-58,
                                               0x1.c421c9f38224ep-57,
                                               -0x1.09e73b0c6c087p-56,
                                               0x1.c5d5e9ff0cf8dp-55,
                                               0x1.1021137c71102p-55,
                                               -0x1.2304331d8bf46p-55,
                                               0x1.ecf8b492644f0p-56,
                                               -0x1.f76d0163f79c8p-56,
                                               0x1.2419a87f2a458p-56,
                                               0x1.4a33dbeb3796cp-55,
                                               -0x1.1bb74abda520cp-55,
                                               -0x1.5e5c9d8c5a950p-56,
                                               0x1.0028e4bc5e7cap-57,
                                               -0x1.2b785350ee8c1p-57,
                                               -0x1.6ea6febe8bbbap-56,
                                               -0x1.a80386188c50ep-55,
                                               -0x1.8c34d25aadef6p-56,
                                               0x1.7b2a6165884a1p-59,
                                               0x1.406a089803740p-55,
                                               0x1.560821e2f3aa9p-55,
                                               -0x1.bf76229d3b917p-56,
                                               0x1.6b66e7fc8b8c3p-57,
                                               -0x1.55b9a5e177a1bp-55,
                                               -0x1.ec182ab042f61p-56,
                                               0x1.1a62633145c07p-55};
BROOK_M_FN brook_m_dd brook_m_atan_dd(brook_m_dd t, int fast) {
  double kd;
  brook_m_i32 i = brook_m_round_int(t.h * 64.0, &kd);
  double c = kd * 0x1p-6;
  brook_m_dd v = brook_m_dd_div(brook_m_dd_add(t, brook_m_dd_of(-c, 0.0)),
                                brook_m_dd_add(brook_m_dd_of(1.0, 0.0), brook_m_dd_mul_d(t, c)));
  if (fast) {
    // The fast form: atan(v) - v = v^3 (-1/3 + ...) to v^9 in double (the
    // rest below 2^-66 v, the rounding below 2^-68 v): within 2^-65.
    double w = v.h * v.h;
    double p =
        BROOK_M_FMA(w,
                    BROOK_M_FMA(w, BROOK_M_FMA(w, 0x1.c71c71c71c71cp-4, -0x1.2492492492492p-3),
                                0x1.999999999999ap-3),
                    -0x1.5555555555555p-2);
    double s;
    double e = brook_m_two_sum(brook_m_atan_64[i], v.h, &s);
    return brook_m_dd_norm(s, e + (brook_m_atan_64_lo[i] + (v.l + (v.h * w) * p)));
  }
  brook_m_dd w = brook_m_dd_mul(v, v);
  double wh = w.h;
  double p = BROOK_M_FMA(wh, -0x1.1111111111111p-4, 0x1.3b13b13b13b14p-4);
  p = BROOK_M_FMA(wh, p, -0x1.745d1745d1746p-4);
  p = BROOK_M_FMA(wh, p, 0x1.c71c71c71c71cp-4);
  p = BROOK_M_FMA(wh, p, -0x1.2492492492492p-3);
  p = BROOK_M_FMA(wh, p, 0x1.999999999999ap-3);
  brook_m_dd s = brook_m_dd_add(brook_m_dd_of(-0x1.5555555555555p-2, -0x1.5555555555555p-56),
                                brook_m_dd_mul_d(w, p));
  brook_m_dd av = brook_m_dd_add(v, brook_m_dd_mul(brook_m_dd_mul(v, w), s));
  return brook_m_dd_add(brook_m_dd_of(brook_m_atan_64[i], brook_m_atan_64_lo[i]), av);
}
// atan2(y, x) in [0, pi/2] for double-doubles y, x >= 0, not both 0, their
// ratio within 2^-60..2^60 and both within 2^-850..2^850 (fast: within 2^-64).
BROOK_M_FN brook_m_dd brook_m_atan2_pos(brook_m_dd y, brook_m_dd x, int fast) {
  if (y.h <= x.h) return brook_m_atan_dd(brook_m_dd_div(y, x), fast);
  return brook_m_dd_add(brook_m_dd_of(BROOK_M_PIO2_HI, BROOK_M_PIO2_LO),
                        brook_m_dd_neg(brook_m_atan_dd(brook_m_dd_div(x, y), fast)));
}
// The fast form's result when Ziv's test passes (err 2^-62 of it), for the
// callers' loops: the fast form first, then the accurate one.
BROOK_M_FN int brook_m_atan_done(int fast, brook_m_dd t) {
  return !fast || brook_m_rounds_to(t.h, t.l, brook_m_abs_d(t.h) * 0x1p-62);
}
BROOK_M_FN double brook_atan(double x) {
  if (x != x) return BROOK_M_NAN_D;
  double a = brook_m_abs_d(x);
  double r;
  if (a > 0x1p60) {
    r = BROOK_M_PIO2_HI;  // pi/2 - 1/a rounds to it
  } else if (a < 0x1p-60) {
    r = a;  // atan(a) = a (1 - a^2/3 ...) rounds to a
  } else {
    for (int fast = 1; fast >= 0; fast--) {
      brook_m_dd t = brook_m_atan2_pos(brook_m_dd_of(a, 0.0), brook_m_dd_of(1.0, 0.0), fast);
      r = t.h;
      if (brook_m_atan_done(fast, t)) break;
    }
  }
  return brook_m_sign_of(x, r);
}
// C99 F.9.1.4's special cases, then the quadrant's atan2_pos; a ratio beyond
// 2^60 rounds to pi/2, or to 0's side (y/x, correctly rounded by the
// division; atan(t) = t (1 - t^2/3 ...)) or pi, whose rounding no t below
// 2^-60 moves. Otherwise both are scaled into atan2_pos's range.
BROOK_M_FN double brook_atan2(double y, double x) {
  if ((x != x) | (y != y)) return BROOK_M_NAN_D;
  int xneg = (BROOK_M_D2U(x) >> 63) != 0;
  double ay = brook_m_abs_d(y);
  double ax = brook_m_abs_d(x);
  double r;
  if (ay == 0.0) {
    r = xneg ? BROOK_M_PI_HI : 0.0;
  } else if (ax == BROOK_M_INF_D) {
    if (ay == BROOK_M_INF_D)
      r = xneg ? 0x1.2d97c7f3321d2p+1 : 0x1.921fb54442d18p-1;  // 3pi/4, pi/4
    else
      r = xneg ? BROOK_M_PI_HI : 0.0;
  } else if ((ay == BROOK_M_INF_D) | (ax * 0x1p60 < ay)) {
    r = BROOK_M_PIO2_HI;
  } else if (ay * 0x1p60 < ax) {
    r = xneg ? BROOK_M_PI_HI : ay / ax;
  } else {
    double m = ax > ay ? ax : ay;
    double sc = m < 0x1p-800 ? 0x1p900 : m > 0x1p800 ? 0x1p-900 : 1.0;
    for (int fast = 1; fast >= 0; fast--) {
      brook_m_dd t =
          brook_m_atan2_pos(brook_m_dd_of(ay * sc, 0.0), brook_m_dd_of(ax * sc, 0.0), fast);
      if (xneg) t = brook_m_dd_add(brook_m_dd_of(BROOK_M_PI_HI, BROOK_M_PI_LO), brook_m_dd_neg(t));
      r = t.h;
      if (brook_m_atan_done(fast, t)) break;
    }
  }
  return brook_m_sign_of(y, r);
}
// asin x = atan2(x, sqrt(1 - x^2)), acos x = atan2(sqrt(1 - x^2), x), with
// 1 - x^2 exact as a double-double (the double-double square is exact, and
// 1 minus its high part is exact by Sterbenz's lemma from x^2 >= 1/2 on, and
// within 2^-104 of at least 1/2 below) and its square root within 2^-102.
BROOK_M_FN brook_m_dd brook_m_one_minus_sq_root(double a) {  // 0 <= a < 1
  brook_m_dd d = brook_m_dd_add(brook_m_dd_of(1.0, 0.0), brook_m_dd_neg(brook_m_dd_prod(a, a)));
  return brook_m_dd_sqrt(d);
}
BROOK_M_FN double brook_asin(double x) {
  if (x != x) return BROOK_M_NAN_D;
  double a = brook_m_abs_d(x);
  if (a > 1.0) return BROOK_M_NAN_D;
  double r;
  if (a == 1.0) {
    r = BROOK_M_PIO2_HI;
  } else if (a < 0x1p-26) {
    r = BROOK_M_FMA(a * a, a * 0x1.5555555555555p-3, a);  // a + a^3/6, to 2^-110
  } else {
    brook_m_dd root = brook_m_one_minus_sq_root(a);
    for (int fast = 1; fast >= 0; fast--) {
      brook_m_dd t = brook_m_atan2_pos(brook_m_dd_of(a, 0.0), root, fast);
      r = t.h;
      if (brook_m_atan_done(fast, t)) break;
    }
  }
  return brook_m_sign_of(x, r);
}
BROOK_M_FN double brook_acos(double x) {
  if (x != x) return BROOK_M_NAN_D;
  double a = brook_m_abs_d(x);
  if (a > 1.0) return BROOK_M_NAN_D;
  int neg = (BROOK_M_D2U(x) >> 63) != 0;
  if (a == 1.0) return neg ? BROOK_M_PI_HI : 0.0;
  if (a < 0x1p-60) return BROOK_M_PIO2_HI;  // pi/2 -+ a rounds to pi/2
  brook_m_dd root = brook_m_one_minus_sq_root(a);
  brook_m_dd t;
  for (int fast = 1; fast >= 0; fast--) {
    t = brook_m_atan2_pos(root, brook_m_dd_of(a, 0.0), fast);
    if (neg) t = brook_m_dd_add(brook_m_dd_of(BROOK_M_PI_HI, BROOK_M_PI_LO), brook_m_dd_neg(t));
    if (brook_m_atan_done(fast, t)) break;
  }
  return t.h;
}
