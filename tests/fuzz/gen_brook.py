#!/usr/bin/env python3
"""Random VALID Brook programs for differential testing of the backends (issue 17).

Like Csmith or YARPGen for C compilers: every program is deterministic per seed and
its observable output is free of undefined behaviour and of the differences that
LANGUAGE.md permits between backends, so interp, jit and opencl must print the same
bytes. How the generator keeps that promise:
  * integers: every int expression carries an interval; a value that could leave
    [-2^24, 2^24] is masked (`& 0xFFFF`), multiplication operands are masked until
    the product fits, divisors are `(b & 7) + 1` (or a raw divisor under the
    `div_zero` feature: §3 says kernels then yield 0), shift counts are masked;
    uint arithmetic wraps (defined); conversions to int go through masks or clamps.
  * floats: every float expression carries a magnitude bound; large ones are
    clamped, divisors are `fabs(b) + 1.0f`, sqrt takes `fabs`, so no inf/NaN is
    ever made (a NaN's sign is the hardware's, §10); only + - * / sqrt, comparisons
    and the exact builtins (floor, fmod, min, fma, ...) are used; and §10's
    transcendentals, which are the project's own (stdlib/brook_math.h: the
    same bits on every backend, and the JIT's gang forms the scalar ones'),
    with their arguments kept in their domains (no NaN).
  * reductions fold only what is associative on the given data (§7 lets backends
    regroup): float sums of exactly representable small values, min/max, xor,
    int sums that cannot overflow, a non-commutative "last"/affine fold.
  * no printf inside kernels (its order is unspecified); results are printed on
    the host with %d / %u / %a so every bit shows.
Every construct has a feature switch (FEATURES below; `--without a,b` or
`--only a,b`), so a known bug can be kept out of a long run and new language forms
are one switch more.

usage: gen_brook.py SEED [--without F1,F2] [--only F1,F2] [--size small|medium|large]
"""
import argparse
import random
import sys

# Every switch is on unless turned off; a feature's doc says what it generates.
FEATURES = {
    "int_ops": "int + - * / % << >> & | ^ ~ ! with range tracking",
    "uint": "uint scalars, wrapping arithmetic, u-suffixed literals",
    "small_ints": "uchar / char / uchar4 stream elements (promotion, narrowing)",
    "float_vec": "float2..4 values, constructors, broadcast, swizzle reads",
    "int_vec": "int2..4 values",
    "swizzle_write": "writes through swizzles (v.yx = ...)",
    "vec_compare": "per-component vector comparisons (intN results)",
    "vec_builtins": "dot, length, cross",
    "float_builtins": "floor ceil trunc round frac fabs sqrt min max clamp saturate lerp step sign mad fma fmod",
    "int_builtins": "abs min max clamp popcount clz ctz on int",
    "transcendentals": "exp exp2 log log2 log10 sin cos tan asin acos atan sinh cosh tanh atan2 pow",
    "conversions": "casts between int, uint and float",
    "ternary": "?: with an int (comparison) condition",
    "float_cond": "float values as conditions of if and break/continue",
    "float_ternary": "float values as conditions of ?:",
    "if": "if / else",
    "for_int": "for loops with int counters",
    "for_float": "for loops with float counters",
    "while": "while and do-while loops",
    "break_continue": "break / continue inside loops",
    "switch": "switch with fall-through and default",
    "local_array": "fixed-size local arrays in kernels",
    "compound_assign": "+= -= *= &= |= ^= >>= on locals",
    "helpers": "kernels with a return value called from kernels",
    "nested_calls": "a helper call as an argument of a helper call: f(1, f(2, 3))",
    "out_helpers": "void kernels with out parameters called on locals and outputs",
    "div_zero": "raw integer divisors that may be 0 (kernels yield 0, §3)",
    "indexof": "indexof on inputs, outputs and gathers",
    "indexof_gather": "indexof on a gather parameter (§5 names gathers but defines only inputs and outputs)",
    "instance": "instance() (Brook+)",
    "resample": "inputs of other shapes than the output (strided, repeated)",
    "rank_mix": "inputs of another rank than the output (1-D into 2-D, ...)",
    "rank3": "3-D streams",
    "gather": "1-D gathers with int indices (in and out of range: clamped)",
    "gather_float": "gathers with float indices (floor(f + 0.25), clamped)",
    "gather_2d": "2-D gathers g[i][j], g[int2], g[float2]",
    "gather_host": "host arrays passed as gather arguments",
    "iter": "iterator streams as inputs",
    "view_in": "domain views as kernel inputs",
    "view_out": "domain views as kernel outputs",
    "view_gather": "domain views as gather arguments",
    "read_out": "outputs read before written (start as their current value)",
    "chain": "one kernel's output fed to the next kernel",
    "multi_out": "kernels with several outputs",
    "constants": "constant (non-stream) kernel parameters",
    "reduce_value": "reductions to a host variable",
    "reduce_stream": "reductions to a smaller stream",
    "reduce_all_ones": "reductions of a 2-D stream to an all-ones target of another rank (<1>)",
    "gather_op": "streamGatherOp with FETCH, INC and a reduce function",
    "scatter_op": "streamScatterOp with ASSIGN, ADD, MUL and reduce functions",
    "op_oob": "an out-of-range gather/scatter-operator index (a runtime error) at the end",
    "neg_zero": "-0.0f among the float inputs",
}

LIM = 1 << 24          # no int subexpression leaves [-LIM, LIM]
VAR = (-(1 << 16), 1 << 16)   # every int variable stays in this range
FB = 1.0e4             # every float variable stays within +-FB
FLIM = 1.0e6           # float subexpressions are clamped beyond this
COMP = "xyzw"


def width(t):
    return int(t[-1]) if t[-1].isdigit() else 1


def base(t):
    return t.rstrip("234")


def vec(b, n):
    return b if n == 1 else f"{b}{n}"


def mag(r):
    return max(abs(r[0]), abs(r[1]))


def flit(x):
    s = repr(float(x))
    if "e" in s or "inf" in s or "nan" in s:
        s = "%.9g" % x
        if "." not in s and "e" not in s:
            s += ".0"
    return s + "f"


# Element types of streams: the compute type they read as, the C component type
# of host buffers, the printf format and how values are produced.
ELEM = {
    "int": ("int", "int", "%d"), "uint": ("uint", "unsigned int", "%u"),
    "float": ("float", "float", "%a"), "float2": ("float2", "float", "%a"),
    "float3": ("float3", "float", "%a"), "float4": ("float4", "float", "%a"),
    "int2": ("int2", "int", "%d"), "int3": ("int3", "int", "%d"), "int4": ("int4", "int", "%d"),
    "uchar": ("int", "unsigned char", "%d"), "char": ("int", "char", "%d"),
    "uchar4": ("int4", "unsigned char", "%d"),
}
ELEM_RANGE = {"uchar": (0, 255), "char": (-128, 127), "uchar4": (0, 255)}
INPUT_INT = (-1000, 1000)
INPUT_FB = 100.0


class Var:
    def __init__(self, name, ty, rng, text=None, writable=True, elem=None, readable=True):
        self.name, self.ty, self.rng = name, ty, rng
        self.text = text or name
        self.writable = writable
        self.elem = elem or ty
        self.readable = readable


class Gen:
    def __init__(self, seed, features, size="medium"):
        self.r = random.Random(seed)
        self.f = features
        self.size = {"small": 0, "medium": 1, "large": 2}[size]
        self.n = 0
        self.helpers = []      # (name, ret, [(ptype, kind)])
        self.out_helpers = []  # (name, ty)
        self.reducers = {}     # (ty, op) -> name
        self.swapped = {}      # reducer name -> its reduce parameter comes first
        self.top = []          # kernel/reduce definitions
        self.host = []         # statements of main
        self.ctx = None        # per-kernel state

    # ---- small utilities
    def on(self, f):
        return f in self.f

    def fresh(self, p):
        self.n += 1
        return f"{p}{self.n}"

    def chance(self, p):
        return self.r.random() < p

    def pick(self, xs):
        return self.r.choice(xs)

    def compute_types(self):
        ts = ["int", "float"]
        if self.on("uint"):
            ts.append("uint")
        if self.on("float_vec"):
            ts += ["float2", "float3", "float4"]
        if self.on("int_vec"):
            ts += ["int2", "int3", "int4"]
        return ts

    def elem_types(self):
        ts = list(self.compute_types())
        if self.on("small_ints"):
            ts += ["uchar", "char"]
            if self.on("int_vec"):
                ts.append("uchar4")
        return ts

    # ---- range fitting
    def fit_int(self, e, target=VAR):
        t, rng = e
        if target[0] <= rng[0] and rng[1] <= target[1]:
            return e
        return (f"(({t}) & 0xFFFF)", (0, 0xFFFF))

    def fit_float(self, e, ty, bound=FB):
        t, m = e
        if m <= bound:
            return e
        n = width(ty)
        b = flit(bound)
        if n == 1:
            return (f"clamp({t}, -{b}, {b})", bound)
        return (f"clamp({t}, float{n}(-{b}), float{n}({b}))", bound)

    def fit(self, e, ty, target=None):
        b = base(ty)
        if b == "int":
            return self.fit_int(e, target or VAR)
        if b == "float":
            return self.fit_float(e, ty, target or FB)
        return e

    # ---- expressions: each returns (text, range); range is (lo, hi) for int
    # types, a magnitude bound for float types and None for uint.
    def expr(self, ty, d):
        b = base(ty)
        n = width(ty)
        gs = [g for g in self.ctx.get("gathers", ()) if g[1] == ty]
        if gs and self.chance(0.2):
            return self.gather_read(self.pick(gs), d)
        if b == "int":
            e = self.int_expr(d) if n == 1 else self.ivec_expr(n, d)
            if mag(e[1]) > LIM:
                e = (f"(({e[0]}) & 0xFFFF)", (0, 0xFFFF))
            return e
        if b == "uint":
            return self.uint_expr(d)
        e = self.float_expr(d) if n == 1 else self.fvec_expr(n, d)
        if e[1] > FLIM:
            e = self.fit_float(e, ty, FB)
        return e

    def vars_of(self, ty):
        return [v for v in self.ctx["scope"] if v.ty == ty and v.readable]

    def var_leaf(self, ty):
        vs = self.vars_of(ty)
        if not vs:
            return None
        v = self.pick(vs)
        return (v.text, v.rng)

    def swizzle_leaf(self, b, n):
        """A component pattern of width n read from some vector of base b."""
        vs = [v for v in self.ctx["scope"] if base(v.ty) == b and width(v.ty) > 1 and v.readable]
        if not vs:
            return None
        v = self.pick(vs)
        pat = "".join(self.pick(COMP[:width(v.ty)]) for _ in range(n))
        return (f"{v.text}.{pat}", v.rng)

    def int_leaf(self):
        opts = []
        lv = self.var_leaf("int")
        if lv:
            opts += [lv] * 3
        if self.on("int_vec"):
            s = self.swizzle_leaf("int", 1)
            if s:
                opts.append(s)
        k = self.pick([0, 1, 2, 3, 5, 7, 10, 100, -1, -3, 255, 1000, 65535, -65536, 12345])
        opts.append((str(k) if k >= 0 else f"({k})", (k, k)))
        if self.on("instance"):
            opts.append((f"instance().{self.pick('xy')}", (0, 16)))
        return self.pick(opts)

    def int_expr(self, d):
        if d <= 0 or self.chance(0.25):
            return self.int_leaf()
        kinds = ["bin", "bin", "bin", "cmp", "leaf"]
        if self.on("int_ops"):
            kinds += ["un", "logic"]
        if self.on("ternary"):
            kinds.append("tern")
        if self.on("int_builtins"):
            kinds.append("builtin")
        if self.on("conversions"):
            kinds.append("conv")
        if self.on("int_vec"):
            kinds.append("comp")
        if self.on("helpers") and self.helpers_of("int"):
            kinds += ["call", "call"]
        k = self.pick(kinds)
        if k == "leaf":
            return self.int_leaf()
        if k == "bin":
            return self.int_bin(self.int_expr(d - 1), self.int_expr(d - 1),
                                self.pick(["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"]
                                          if self.on("int_ops") else ["+", "-", "*"]))
        if k == "cmp":
            return self.compare(d)
        if k == "un":
            t, r = self.int_expr(d - 1)
            op = self.pick(["-", "~", "!"])
            if op == "-":
                return (f"(-{t})", (-r[1], -r[0]))
            if op == "~":
                return (f"(~{t})", (-r[1] - 1, -r[0] - 1))
            return (f"(!{t})", (0, 1))
        if k == "logic":
            a, b = self.compare(d - 1), self.compare(d - 1)
            return (f"({a[0]} {self.pick(['&&', '||'])} {b[0]})", (0, 1))
        if k == "tern":
            c = self.cond(d - 1, True)
            a, b = self.int_expr(d - 1), self.int_expr(d - 1)
            return (f"({c} ? {a[0]} : {b[0]})", (min(a[1][0], b[1][0]), max(a[1][1], b[1][1])))
        if k == "builtin":
            a = self.int_expr(d - 1)
            f = self.pick(["abs", "min", "max", "clamp", "popcount", "clz", "ctz"])
            if f == "abs":
                return (f"abs({a[0]})", (0, mag(a[1])))
            if f in ("min", "max"):
                b = self.int_expr(d - 1)
                lo = min(a[1][0], b[1][0]) if f == "min" else max(a[1][0], b[1][0])
                hi = min(a[1][1], b[1][1]) if f == "min" else max(a[1][1], b[1][1])
                return (f"{f}({a[0]}, {b[0]})", (lo, hi))
            if f == "clamp":
                lo = self.r.randint(-50, 10)
                hi = lo + self.r.randint(0, 60)
                return (f"clamp({a[0]}, {lo if lo >= 0 else f'({lo})'}, {hi})", (lo, hi))
            if f == "popcount":
                return (f"popcount({a[0]})", (0, 32))
            # clz/ctz of 0 are left out: keep a bit set
            return (f"{f}(({a[0]}) | {self.pick(['1', '0x10000', '0x40000000'])})", (0, 31))
        if k == "conv":
            src = self.pick(["float", "uint"] if self.on("uint") else ["float"])
            if src == "float":
                t, m = self.fit_float(self.float_expr(d - 1), "float", FB)
                m = int(m) + 1
                return (f"(int)({t})", (-m, m))
            t, _ = self.uint_expr(d - 1)
            return (f"(int)(({t}) & 0xFFFFu)", (0, 0xFFFF))
        if k == "comp":
            n = self.r.randint(2, 4)
            t, r = self.ivec_expr(n, d - 1)
            return (f"({t}).{self.pick(COMP[:n])}", r)
        return self.call_helper("int", d)

    def int_bin(self, a, b, op):
        (ta, ra), (tb, rb) = a, b
        if op == "+":
            return (f"({ta} + {tb})", (ra[0] + rb[0], ra[1] + rb[1]))
        if op == "-":
            return (f"({ta} - {tb})", (ra[0] - rb[1], ra[1] - rb[0]))
        if op == "*":
            if mag(ra) * mag(rb) > (1 << 30):
                ta, ra = f"({ta} & 0xFF)", (0, 255)
            if mag(ra) * mag(rb) > (1 << 30):
                tb, rb = f"({tb} & 0xFF)", (0, 255)
            ps = [x * y for x in ra for y in rb]
            return (f"({ta} * {tb})", (min(ps), max(ps)))
        if op in ("/", "%"):
            if self.on("div_zero") and self.chance(0.25):
                div = tb   # may be 0: a kernel yields 0 (§3); |tb| <= LIM so no INT_MIN / -1
            else:
                div = f"(({tb} & 7) + 1)"
            m = mag(ra)
            return (f"({ta} {op} {div})", (-m, m))
        if op == "<<":
            return (f"(({ta} & 0xFFF) << ({tb} & 7))", (0, 0xFFF << 7))
        if op == ">>":
            return (f"({ta} >> ({tb} & 15))", (min(ra[0], 0), max(ra[1], 0)))
        k = max(mag(ra), mag(rb)).bit_length()
        return (f"({ta} {op} {tb})", (-(1 << k), (1 << k) - 1))

    def compare(self, d):
        ty = self.pick(["int", "float", "uint"] if self.on("uint") else ["int", "float"])
        a, b = self.expr(ty, d - 1), self.expr(ty, d - 1)
        return (f"({a[0]} {self.pick(['<', '<=', '>', '>=', '==', '!='])} {b[0]})", (0, 1))

    def cond(self, d, ternary=False):
        """A scalar condition (C truthiness)."""
        if self.on("float_ternary" if ternary else "float_cond") and self.chance(0.15):
            return self.float_expr(d)[0]
        if self.chance(0.2):
            return self.int_expr(d)[0]
        return self.compare(d)[0]

    def uint_expr(self, d):
        if d <= 0 or self.chance(0.3):
            opts = []
            lv = self.var_leaf("uint")
            if lv:
                opts += [lv] * 3
            k = self.pick([0, 1, 3, 255, 65535, 2147483648, 4000000000, 4294967295, 12345])
            opts.append((f"{k}u", None))
            return self.pick(opts)
        k = self.pick(["bin", "bin", "conv", "tern"] if self.on("conversions") else ["bin"])
        if k == "conv":
            if self.chance(0.5):
                return (f"(uint)({self.int_expr(d - 1)[0]})", None)   # modular: defined
            t, m = self.fit_float(self.float_expr(d - 1), "float", FB)
            return (f"(uint)(fabs({t}))", None)
        if k == "tern" and self.on("ternary"):
            return (f"({self.cond(d - 1, True)} ? {self.uint_expr(d - 1)[0]} : {self.uint_expr(d - 1)[0]})", None)
        a, b = self.uint_expr(d - 1)[0], self.uint_expr(d - 1)[0]
        op = self.pick(["+", "-", "*", "&", "|", "^", "/", "%", "<<", ">>"])
        if op in ("/", "%"):
            return (f"({a} {op} (({b} & 7u) + 1u))", None)
        if op in ("<<", ">>"):
            return (f"({a} {op} ({b} & 31u))", None)
        return (f"({a} {op} {b})", None)

    def float_leaf(self):
        opts = []
        lv = self.var_leaf("float")
        if lv:
            opts += [lv] * 3
        if self.on("float_vec"):
            s = self.swizzle_leaf("float", 1)
            if s:
                opts += [s]
        x = self.pick([0.0, 1.0, 0.5, 2.0, -1.0, 3.0, 0.25, -0.125, 10.0, 100.0, 1.5,
                       round(self.r.uniform(-10, 10), self.r.randint(1, 6))])
        opts.append((f"({flit(x)})" if x < 0 else flit(x), abs(x)))
        if self.on("indexof") and self.ctx["streams"]:
            s = self.pick(self.ctx["streams"])
            opts.append((f"indexof({s}).{self.pick('xyzw')}", 64.0))
        return self.pick(opts)

    def float_expr(self, d):
        if d <= 0 or self.chance(0.25):
            return self.float_leaf()
        kinds = ["bin", "bin", "bin", "leaf", "neg"]
        if self.on("float_builtins"):
            kinds += ["builtin", "builtin"]
        if self.on("transcendentals"):
            kinds.append("trans")
        if self.on("ternary"):
            kinds.append("tern")
        if self.on("conversions"):
            kinds.append("conv")
        if self.on("float_vec"):
            kinds.append("comp")
            if self.on("vec_builtins"):
                kinds.append("vec")
        if self.on("helpers") and self.helpers_of("float"):
            kinds += ["call", "call"]
        k = self.pick(kinds)
        if k == "leaf":
            return self.float_leaf()
        if k == "neg":
            t, m = self.float_expr(d - 1)
            return (f"(-{t})", m)
        if k == "bin":
            return self.float_bin(self.float_expr(d - 1), self.float_expr(d - 1), self.pick("+-*/"))
        if k == "tern":
            a, b = self.float_expr(d - 1), self.float_expr(d - 1)
            return (f"({self.cond(d - 1, True)} ? {a[0]} : {b[0]})", max(a[1], b[1]))
        if k == "conv":
            if self.on("uint") and self.chance(0.3):
                return (f"(float)({self.uint_expr(d - 1)[0]})", 4.3e9)
            t, r = self.int_expr(d - 1)
            return (f"(float)({t})", float(mag(r)))
        if k == "comp":
            n = self.r.randint(2, 4)
            t, m = self.fvec_expr(n, d - 1)
            return (f"({t}).{self.pick(COMP[:n])}", m)
        if k == "vec":
            n = self.r.randint(2, 4)
            a, b = self.fvec_expr(n, d - 1), self.fvec_expr(n, d - 1)
            if self.chance(0.5):
                return (f"dot({a[0]}, {b[0]})", n * a[1] * b[1])
            return (f"length({a[0]})", 2.0 * a[1] + 1)
        if k == "call":
            return self.call_helper("float", d)
        if k == "trans":
            return self.transcendental(d, "float")
        return self.float_builtin(d, "float")

    def float_bin(self, a, b, op, ty="float"):
        (ta, ma), (tb, mb) = a, b
        if op == "+" or op == "-":
            return (f"({ta} {op} {tb})", ma + mb)
        if op == "*":
            return (f"({ta} * {tb})", ma * mb)
        if self.chance(0.3):
            k = self.pick([2.0, 4.0, 0.5, 3.0, -8.0, 10.0])
            return (f"({ta} / {flit(k)})", ma / min(abs(k), 1.0))
        return (f"({ta} / (fabs({tb}) + 1.0f))", ma)

    def float_builtin(self, d, ty):
        n = width(ty)
        a = self.expr(ty, d - 1)
        f = self.pick(["floor", "ceil", "trunc", "round", "frac", "fabs", "sqrt", "min", "max",
                       "clamp", "saturate", "lerp", "step", "sign", "mad", "fma", "fmod"])
        if f in ("floor", "ceil", "trunc", "round", "fabs"):
            return (f"{f}({a[0]})", a[1] + 1)
        if f == "frac":
            return (f"frac({a[0]})", 1.0)
        if f == "sqrt":
            return (f"sqrt(fabs({a[0]}))", a[1] ** 0.5 + 1)
        if f in ("saturate", "sign"):
            return (f"{f}({a[0]})", 1.0)
        b = self.expr(ty, d - 1)
        if f in ("min", "max"):
            return (f"{f}({a[0]}, {b[0]})", max(a[1], b[1]))
        if f == "step":
            return (f"step({a[0]}, {b[0]})", 1.0)
        if f == "fmod":
            return (f"fmod({a[0]}, fabs({b[0]}) + 1.0f)", a[1])
        if f == "clamp":
            lo = self.r.randint(-20, 5)
            hi = lo + self.r.randint(0, 30)
            blo, bhi = (flit(lo), flit(hi)) if n == 1 else (f"{ty}({flit(lo)})", f"{ty}({flit(hi)})")
            return (f"clamp({a[0]}, {blo}, {bhi})", float(max(abs(lo), abs(hi))))
        c = self.expr(ty, d - 1)
        if f == "lerp":
            t = f"saturate({c[0]})"
            return (f"lerp({a[0]}, {b[0]}, {t})", 3 * max(a[1], b[1]))
        return (f"{f}({a[0]}, {b[0]}, {c[0]})", a[1] * b[1] + c[1])

    def transcendental(self, d, ty):
        """A §10 function of `ty` (float or floatN) on arguments kept in its
        domain, with a bound on the result's magnitude."""
        n = width(ty)
        a = self.expr(ty, d - 1)

        def k(v):
            return flit(v) if n == 1 else f"{ty}({flit(v)})"
        f = self.pick(["exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos",
                       "atan", "sinh", "cosh", "tanh", "atan2", "pow"])
        if f in ("exp", "exp2", "sinh", "cosh"):
            return (f"{f}(clamp({a[0]}, {k(-20.0)}, {k(20.0)}))", 5e8)
        if f.startswith("log"):
            return (f"{f}(fabs({a[0]}) + {k(0.5)})", a[1] + 2.0)
        if f in ("sin", "cos"):
            return (f"{f}({a[0]})", 1.0)
        if f == "tan":
            return (f"tan(clamp({a[0]}, {k(-1.5)}, {k(1.5)}))", 15.0)
        if f in ("asin", "acos"):
            return (f"{f}(clamp({a[0]}, {k(-1.0)}, {k(1.0)}))", 3.2)
        if f in ("atan", "tanh"):
            return (f"{f}({a[0]})", 1.6)
        b = self.expr(ty, d - 1)
        if f == "atan2":
            return (f"atan2({a[0]}, {b[0]})", 3.2)
        return (f"pow(fabs({a[0]}) + {k(0.5)}, clamp({b[0]}, {k(-4.0)}, {k(4.0)}))",
                (a[1] + 0.5) ** 4 + 16.0)

    def fvec_expr(self, n, d):
        ty = f"float{n}"
        if d <= 0 or self.chance(0.25):
            return self.fvec_leaf(n, d)
        kinds = ["bin", "bin", "leaf", "scalar", "neg"]
        if self.on("float_builtins"):
            kinds.append("builtin")
        if self.on("transcendentals"):
            kinds.append("trans")
        if self.on("ternary"):
            kinds.append("tern")
        if self.on("conversions") and self.on("int_vec"):
            kinds.append("conv")
        if self.on("vec_builtins") and n == 3:
            kinds.append("cross")
        if self.on("helpers") and self.helpers_of(ty):
            kinds.append("call")
        k = self.pick(kinds)
        if k == "leaf":
            return self.fvec_leaf(n, d)
        if k == "neg":
            t, m = self.fvec_expr(n, d - 1)
            return (f"(-{t})", m)
        if k == "bin":
            return self.float_bin(self.fvec_expr(n, d - 1), self.fvec_expr(n, d - 1), self.pick("+-*/"), ty)
        if k == "scalar":   # a scalar operand is broadcast
            s, v = self.float_expr(d - 1), self.fvec_expr(n, d - 1)
            op = self.pick("+-*")
            if self.chance(0.5):
                return self.float_bin(s, v, op, ty)
            return self.float_bin(v, s, op, ty)
        if k == "tern":
            a, b = self.fvec_expr(n, d - 1), self.fvec_expr(n, d - 1)
            return (f"({self.cond(d - 1, True)} ? {a[0]} : {b[0]})", max(a[1], b[1]))
        if k == "conv":
            t, r = self.ivec_expr(n, d - 1)
            form = self.pick([f"float{n}({t})", f"(float{n})({t})"])
            return (form, float(mag(r)))
        if k == "cross":
            a, b = self.fvec_expr(3, d - 1), self.fvec_expr(3, d - 1)
            return (f"cross({a[0]}, {b[0]})", 2 * a[1] * b[1])
        if k == "call":
            return self.call_helper(ty, d)
        if k == "trans":
            return self.transcendental(d, ty)
        return self.float_builtin(d, ty)

    def fvec_leaf(self, n, d):
        ty = f"float{n}"
        opts = []
        lv = self.var_leaf(ty)
        if lv:
            opts += [lv] * 3
        s = self.swizzle_leaf("float", n)
        if s:
            opts += [s] * 2
        # constructors: broadcast, components, smaller vectors
        parts, m, left = [], 0.0, n
        while left > 0:
            k = self.r.randint(1, left) if left > 1 and self.chance(0.4) else 1
            e = self.expr(vec("float", k), max(d - 1, 0)) if k > 1 else self.float_leaf()
            parts.append(e[0])
            m = max(m, e[1])
            left -= k
        opts.append((f"float{n}({', '.join(parts)})", m))
        f = self.float_leaf()
        opts.append((f"float{n}({f[0]})", f[1]))
        return self.pick(opts)

    def ivec_expr(self, n, d):
        ty = f"int{n}"
        if d <= 0 or self.chance(0.25):
            return self.ivec_leaf(n, d)
        kinds = ["bin", "bin", "leaf", "scalar"]
        if self.on("vec_compare"):
            kinds.append("cmp")
        if self.on("conversions") and self.on("float_vec"):
            kinds.append("conv")
        if self.on("ternary"):
            kinds.append("tern")
        if self.on("helpers") and self.helpers_of(ty):
            kinds.append("call")
        k = self.pick(kinds)
        if k == "leaf":
            return self.ivec_leaf(n, d)
        ops = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"] if self.on("int_ops") else ["+", "-", "*"]
        if k == "bin":
            return self.int_bin(self.ivec_expr(n, d - 1), self.ivec_expr(n, d - 1), self.pick(ops))
        if k == "scalar":
            s, v = self.int_expr(d - 1), self.ivec_expr(n, d - 1)
            op = self.pick(["+", "-", "*", "&"])
            return self.int_bin(s, v, op) if self.chance(0.5) else self.int_bin(v, s, op)
        if k == "cmp":
            if self.chance(0.5):
                a, b = self.fvec_expr(n, d - 1), self.fvec_expr(n, d - 1)
            else:
                a, b = self.ivec_expr(n, d - 1), self.ivec_expr(n, d - 1)
            return (f"({a[0]} {self.pick(['<', '<=', '>', '>=', '==', '!='])} {b[0]})", (0, 1))
        if k == "conv":
            t, m = self.fit_float(self.fvec_expr(n, d - 1), f"float{n}", FB)
            m = int(m) + 1
            return (self.pick([f"int{n}({t})", f"(int{n})({t})"]), (-m, m))
        if k == "tern":
            a, b = self.ivec_expr(n, d - 1), self.ivec_expr(n, d - 1)
            return (f"({self.cond(d - 1, True)} ? {a[0]} : {b[0]})",
                    (min(a[1][0], b[1][0]), max(a[1][1], b[1][1])))
        return self.call_helper(ty, d)

    def ivec_leaf(self, n, d):
        ty = f"int{n}"
        opts = []
        lv = self.var_leaf(ty)
        if lv:
            opts += [lv] * 3
        s = self.swizzle_leaf("int", n)
        if s:
            opts += [s] * 2
        parts = [self.int_leaf() for _ in range(n)]
        opts.append((f"int{n}({', '.join(p[0] for p in parts)})",
                     (min(p[1][0] for p in parts), max(p[1][1] for p in parts))))
        i = self.int_leaf()
        opts.append((f"int{n}({i[0]})", i[1]))
        return self.pick(opts)

    # ---- helper kernels
    def helpers_of(self, ty):
        return [h for h in self.helpers if h[1] == ty and h[0] not in self.ctx.get("forbid", ())]

    def call_helper(self, ty, d):
        name, ret, params = self.pick(self.helpers_of(ty))
        args = []
        for pty, _ in params:
            if self.on("nested_calls") and d > 1 and self.helpers_of(pty) and self.chance(0.3):
                e = self.call_helper(pty, d - 1)
            else:
                e = self.expr(pty, max(d - 2, 0))
            args.append(self.fit(e, pty)[0])
        rng = VAR if base(ret) == "int" else (FB if base(ret) == "float" else None)
        return (f"{name}({', '.join(args)})", rng)

    def var_range(self, ty):
        b = base(ty)
        return VAR if b == "int" else (FB if b == "float" else None)

    def make_helper(self):
        ret = self.pick(self.compute_types())
        name = self.fresh("h")
        params, decl, scope = [], [], []
        for i in range(self.r.randint(1, 3)):
            pty = self.pick(self.compute_types())
            kind = self.pick(["const", "stream"])
            pname = f"p{i}"
            params.append((pty, kind))
            decl.append(f"{pty} {pname}<>" if kind == "stream" else f"{pty} {pname}")
            scope.append(Var(pname, pty, self.var_range(pty), writable=False))
        self.ctx = {"scope": scope, "streams": [], "loops": 0, "budget": 4, "forbid": {name}}
        body = self.block(2, 1)
        ret_e = self.fit(self.expr(ret, 3), ret)[0]
        lines = [f"kernel {ret} {name}({', '.join(decl)}) {{"] + body
        if self.on("if") and self.chance(0.3):
            lines.append(f"  if ({self.cond(2)}) return {self.fit(self.expr(ret, 2), ret)[0]};")
        lines += [f"  return {ret_e};", "}"]
        self.top.append("\n".join(lines))
        self.helpers.append((name, ret, params))

    def make_out_helper(self):
        ty = self.pick(self.compute_types())
        name = self.fresh("ho")
        a = self.pick(self.compute_types())
        scope = [Var("a", a, self.var_range(a), writable=False), Var("r", ty, self.var_range(ty))]
        self.ctx = {"scope": scope, "streams": [], "loops": 0, "budget": 4, "forbid": set()}
        body = self.block(2, 1)
        body.append(f"  r = {self.fit(self.expr(ty, 3), ty)[0]};")
        self.top.append("\n".join([f"kernel void {name}({a} a<>, out {ty} r<>) {{"] + body + ["}"]))
        self.out_helpers.append((name, ty, a))

    # ---- statements
    def writable(self):
        return [v for v in self.ctx["scope"] if v.writable]

    def assign_stmt(self, ind, d):
        vs = self.writable()
        if not vs:
            return []
        v = self.pick(vs)
        n = width(v.ty)
        target = v.rng
        if self.on("swizzle_write") and n > 1 and v.elem == v.ty and self.chance(0.3):
            k = self.r.randint(1, n)
            comps = "".join(self.r.sample(COMP[:n], k))
            ety = vec(base(v.ty), k)
            return [f"{ind}{v.text}.{comps} = {self.fit(self.expr(ety, d), ety, target)[0]};"]
        if self.on("compound_assign") and self.chance(0.3) and v.elem == v.ty:
            b = base(v.ty)
            if b == "int":
                op = self.pick(["+=", "-=", "*=", "&=", "|=", "^=", ">>="])
                rhs = self.expr(v.ty, d)
                if op == "*=":
                    rhs = (f"({rhs[0]} & 0xFF)", (0, 255))
                if op == ">>=":
                    rhs = (f"({rhs[0]} & 7)", (0, 7))
                # x and rhs both within 2^24 and rhs*x masked: no overflow; then renormalise
                rhs = self.fit_int(rhs, (-LIM // 256, LIM // 256)) if op == "*=" else rhs
                return [f"{ind}{v.text} {op} {rhs[0]};", f"{ind}{v.text} = {self.fit_int((v.text, (-(1 << 25), 1 << 25)), target)[0]};"]
            if b == "float":
                op = self.pick(["+=", "-=", "*="])
                rhs = self.fit_float(self.expr(v.ty, d), v.ty, FB)
                return [f"{ind}{v.text} {op} {rhs[0]};",
                        f"{ind}{v.text} = {self.fit_float((v.text, FB * FB + FB), v.ty, target)[0]};"]
            op = self.pick(["+=", "-=", "*=", "^="])
            return [f"{ind}{v.text} {op} {self.expr(v.ty, d)[0]};"]
        return [f"{ind}{v.text} = {self.store(v, self.expr(v.ty, d))};"]

    def store(self, v, e):
        """The text that assigns e to v, narrowed to v's element type."""
        if v.elem == "uchar":
            return f"(uchar)(({e[0]}) & 255)"
        if v.elem == "char":
            return f"(char)((({e[0]}) & 255) - 128)"
        if v.elem == "uchar4":
            return f"uchar4(({e[0]}) & 255)"
        return self.fit(e, v.ty, v.rng)[0]

    def block(self, n, depth, ind="  "):
        out = []
        for _ in range(self.r.randint(1, n)):
            out += self.stmt(depth, ind)
        return out

    def stmt(self, depth, ind):
        kinds = ["decl", "decl", "assign", "assign", "assign"]
        if depth > 0:
            if self.on("if"):
                kinds += ["if", "if"]
            if self.ctx["budget"] > 1:
                if self.on("for_int"):
                    kinds.append("for")
                if self.on("for_float"):
                    kinds.append("forf")
                if self.on("while"):
                    kinds.append("while")
            if self.on("switch"):
                kinds.append("switch")
        if self.ctx["loops"] and self.on("break_continue"):
            kinds.append("brk")
        if self.on("out_helpers") and self.out_helpers:
            kinds.append("ocall")
        if self.on("local_array"):
            kinds.append("array")
        k = self.pick(kinds)
        d = self.r.randint(1, 3 + self.size)
        scope = self.ctx["scope"]
        if k == "decl":
            ty = self.pick(self.compute_types())
            name = self.fresh("v")
            e = self.fit(self.expr(ty, d), ty)
            scope.append(Var(name, ty, self.var_range(ty)))
            return [f"{ind}{ty} {name} = {e[0]};"]
        if k == "assign":
            return self.assign_stmt(ind, d)
        if k == "if":
            mark = len(scope)
            out = [f"{ind}if ({self.cond(2)}) {{"] + self.block(2, depth - 1, ind + "  ")
            del scope[mark:]
            if self.chance(0.5):
                out += [f"{ind}}} else {{"] + self.block(2, depth - 1, ind + "  ")
                del scope[mark:]
            return out + [f"{ind}}}"]
        if k in ("for", "forf", "while"):
            trips = self.r.randint(1, min(4, self.ctx["budget"]))
            self.ctx["budget"] //= max(trips, 1)
            self.ctx["loops"] += 1
            mark = len(scope)
            i = self.fresh("i")
            if k == "for":
                head = [f"{ind}for (int {i} = 0; {i} < {trips}; {i}++) {{"]
                scope.append(Var(i, "int", (0, trips - 1), writable=False))
                tail = [f"{ind}}}"]
            elif k == "forf":
                step = self.pick([0.5, 0.25, 1.0])
                start = self.pick([0.0, -1.0, 0.5])
                end = start + step * trips
                head = [f"{ind}for (float {i} = {flit(start)}; {i} < {flit(end)}; {i} += {flit(step)}) {{"]
                scope.append(Var(i, "float", max(abs(start), abs(end)), writable=False))
                tail = [f"{ind}}}"]
            elif self.chance(0.5):
                head = [f"{ind}int {i} = 0;", f"{ind}while ({i} < {trips}) {{", f"{ind}  {i}++;"]
                scope.append(Var(i, "int", (0, trips), writable=False))
                tail = [f"{ind}}}"]
            else:
                head = [f"{ind}int {i} = 0;", f"{ind}do {{", f"{ind}  {i}++;"]
                scope.append(Var(i, "int", (0, trips), writable=False))
                tail = [f"{ind}}} while ({i} < {trips});"]
            body = self.block(3, depth - 1, ind + "  ")
            del scope[mark + (1 if k in ("for", "forf") else 0):]
            if k in ("for", "forf"):
                del scope[mark:]
            self.ctx["loops"] -= 1
            return head + body + tail
        if k == "brk":
            return [f"{ind}if ({self.cond(1)}) {self.pick(['break', 'continue'])};"]
        if k == "switch":
            mark = len(scope)
            sel = self.int_expr(2)[0]
            out = [f"{ind}switch (({sel}) & 3) {{"]
            for c in self.r.sample(["case 0", "case 1", "case 2", "case 3", "default"], self.r.randint(1, 3)):
                out.append(f"{ind}  {c}: {{")
                out += self.block(1, 0, ind + "    ")
                del scope[mark:]
                out.append(f"{ind}  }}" + (" break;" if self.chance(0.7) else ""))
            return out + [f"{ind}}}"]
        if k == "ocall":
            name, ty, aty = self.pick(self.out_helpers)
            vs = [v for v in self.writable() if v.ty == ty and v.elem == ty]
            if not vs:
                return []
            a = self.fit(self.expr(aty, 2), aty)[0]
            return [f"{ind}{name}({a}, {self.pick(vs).text});"]
        if k == "array":
            ty = self.pick(["float", "int"])
            name = self.fresh("arr")
            n = self.pick([2, 3, 4])
            inits = [self.fit(self.expr(ty, 1), ty)[0] for _ in range(n)]
            out = [f"{ind}{ty} {name}[{n}];"] + [f"{ind}{name}[{j}] = {inits[j]};" for j in range(n)]
            idx = self.int_expr(2)[0]
            out.append(f"{ind}{name}[abs({idx}) % {n}] = {self.fit(self.expr(ty, 2), ty)[0]};")
            v = self.fresh("v")
            out.append(f"{ind}{ty} {v} = {name}[abs({self.int_expr(2)[0]}) % {n}];")
            scope.append(Var(v, ty, self.var_range(ty)))
            return out
        return []

    # ---- gathers inside kernels
    def gather_read(self, g, d):
        name, ty, rank = g
        rng = self.var_range(ty)
        if rank == 1:
            if self.on("gather_float") and self.chance(0.35):
                i = self.fit_float(self.float_expr(d - 1), "float", FB)[0]
            else:
                i = self.int_expr(d - 1)[0]
            return (f"{name}[{i}]", rng)
        form = self.pick(["ij", "int2", "float2"] if self.on("gather_float") else ["ij", "int2"])
        if form == "ij":
            return (f"{name}[{self.int_expr(d - 1)[0]}][{self.int_expr(d - 1)[0]}]", rng)
        if form == "int2":
            return (f"{name}[{self.ivec_expr(2, d - 1)[0]}]", rng)
        return (f"{name}[{self.fit_float(self.fvec_expr(2, d - 1), 'float2', FB)[0]}]", rng)

    # ---- main kernels: a signature, then host calls that bind it to streams
    def make_kernel(self):
        name = self.fresh("k")
        params = []
        for _ in range(self.r.randint(1, 2 + self.size)):
            params.append({"kind": "in", "ty": self.pick(self.elem_types()), "name": f"a{len(params)}"})
        if self.on("constants"):
            for _ in range(self.r.randint(0, 2)):
                params.append({"kind": "const", "ty": self.pick(self.compute_types()), "name": f"c{len(params)}"})
        if self.on("gather"):
            for _ in range(self.r.randint(0, 2)):
                rank = 2 if self.on("gather_2d") and self.chance(0.4) else 1
                params.append({"kind": "gather", "ty": self.pick(self.compute_types()), "name": f"g{len(params)}", "rank": rank})
        nout = self.r.randint(1, 3) if self.on("multi_out") else 1
        for _ in range(nout):
            params.append({"kind": "out", "ty": self.pick(self.elem_types()), "name": f"o{len(params)}"})
        self.r.shuffle(params)
        scope, decl, streams, gathers = [], [], [], []
        for p in params:
            ty, n = p["ty"], p["name"]
            cty = ELEM[ty][0]
            rng = ELEM_RANGE.get(ty, self.var_range(cty))
            if p["kind"] == "in":
                decl.append(f"{ty} {n}<>")
                scope.append(Var(n, cty, rng, text=f"int4({n})" if ty == "uchar4" else n, writable=False))
                streams.append(n)
            elif p["kind"] == "const":
                decl.append(f"{ty} {n}")
                scope.append(Var(n, ty, rng, writable=False))
            elif p["kind"] == "gather":
                decl.append(f"{ty} {n}[]" + ("[]" if p["rank"] == 2 else ""))
                gathers.append((n, ty, p["rank"]))
                if self.on("indexof_gather"):
                    streams.append(n)
            else:
                decl.append(f"out {ty} {n}<>")
                scope.append(Var(n, cty, rng, elem=ty, readable=self.on("read_out") and ty != "uchar4"))
                streams.append(n)
        if not self.on("indexof"):
            streams = []
        self.ctx = {"scope": scope, "streams": streams, "gathers": gathers, "loops": 0,
                    "budget": 8 + 8 * self.size, "forbid": set()}
        body = self.block(3 + 2 * self.size, 2)
        for p in params:
            if p["kind"] == "out" and (self.chance(0.85) or not self.on("read_out")):
                v = [x for x in scope if x.name == p["name"]][0]
                body.append(f"  {v.text} = {self.store(v, self.expr(v.ty, 3))};")
        self.top.append("\n".join([f"kernel void {name}({', '.join(decl)}) {{"] + body + ["}"]))
        return name, params

    # ---- host data
    def values(self, ty, count, exact=False):
        """Flat component values for `count` elements of element type ty."""
        comp = ELEM[ty][1]
        n = count * width(ty.replace("uchar4", "u4"))
        out = []
        for _ in range(n):
            if comp == "float":
                if exact:
                    out.append(flit(self.r.randint(-256, 256) / 4.0))
                else:
                    x = self.pick([0.0, 1.0, -1.0, 0.5, 2.0, 3.75, -2.25, 7.0, 100.0, -99.5,
                                   round(self.r.uniform(-100, 100), self.r.randint(0, 7)),
                                   round(self.r.uniform(-2, 2), 7)])
                    out.append("-0.0f" if self.on("neg_zero") and self.chance(0.03) else flit(x))
            elif comp == "int":
                out.append(str(self.pick([0, 1, -1, 7, 1000, -1000, self.r.randint(-1000, 1000),
                                          self.r.randint(-20, 20)])))
            elif comp == "unsigned int":
                out.append(str(self.pick([0, 1, 7, 4294967295, self.r.randint(0, 4294967295),
                                          self.r.randint(0, 100)])) + "u")
            elif comp == "unsigned char":
                out.append(str(self.r.randint(0, 255)))
            else:
                out.append(str(self.r.randint(-128, 127)))
        return out

    def host_array(self, ty, count, exact=False, dims=None):
        name = self.fresh("h")
        vals = self.values(ty, count, exact)
        comp = ELEM[ty][1]
        if dims:
            rows = [vals[r * dims[1]:(r + 1) * dims[1]] for r in range(dims[0])]
            init = ", ".join("{" + ", ".join(r) + "}" for r in rows)
            self.host.append(f"  {comp} {name}[{dims[0]}][{dims[1]}] = {{{init}}};")
        else:
            self.host.append(f"  {comp} {name}[{len(vals)}] = {{{', '.join(vals)}}};")
        return name

    def new_stream(self, ty, shape, exact=False, fill=True):
        name = self.fresh("s")
        self.host.append(f"  {ty} {name}<{', '.join(map(str, shape))}>;")
        if fill:
            h = self.host_array(ty, prod(shape), exact)
            self.host.append(f"  streamRead({name}, {h});")
        return name

    def print_stream(self, expr, ty, shape, label):
        comp, fmt = ELEM[ty][1], ELEM[ty][2]
        n = prod(shape) * width(ty.replace("uchar4", "u4"))
        buf = self.fresh("b")
        self.host.append(f"  {comp} {buf}[{n}];")
        self.host.append(f"  streamWrite({expr}, {buf});")
        self.host.append(f'  for (int i = 0; i < {n}; i++) printf("{label} %d {fmt}\\n", i, {buf}[i]);')

    def rand_shape(self, rank=None):
        rank = rank or self.pick([1, 1, 2, 2] + ([3] if self.on("rank3") else []))
        if rank == 1:
            return (self.r.randint(1, 12 + 4 * self.size),)
        if rank == 2:
            return (self.r.randint(1, 6), self.r.randint(1, 8))
        return (self.r.randint(1, 3), self.r.randint(1, 3), self.r.randint(1, 4))

    def view_of(self, ty, shape, fill=True):
        """A fresh stream a little larger than shape and the text of its view of that shape."""
        pad = [self.r.randint(0, 3) for _ in shape]
        big = tuple(e + p for e, p in zip(shape, pad))
        s = self.new_stream(ty, big, fill=fill)
        start = [self.r.randint(0, p) for p in pad]
        if len(shape) == 1:
            return s, big, f"{s}.domain({start[0]}, {start[0] + shape[0]})"
        return s, big, (f"{s}.domain(int2({start[1]}, {start[0]}), "
                        f"int2({start[1] + shape[1]}, {start[0] + shape[0]}))")

    def const_value(self, ty):
        b, n = base(ty), width(ty)
        def one():
            if b == "float":
                return flit(self.pick([0.0, 1.0, -2.5, 0.75, 10.0, round(self.r.uniform(-50, 50), 3)]))
            if b == "uint":
                return f"{self.pick([0, 1, 5, 4294967295, self.r.randint(0, 1 << 32 - 1)])}u"
            k = self.pick([0, 1, -1, 3, 100, -77, self.r.randint(-1000, 1000)])
            return str(k) if k >= 0 else f"({k})"
        return one() if n == 1 else f"{ty}({', '.join(one() for _ in range(n))})"

    def call_kernel(self, name, params):
        dom = self.rand_shape()
        args, prints = [], []
        for p in params:
            ty = p["ty"]
            if p["kind"] == "const":
                args.append(self.const_value(ty))
            elif p["kind"] == "in":
                shape = dom
                if self.on("resample") and self.chance(0.4):
                    shape = self.rand_shape(len(dom) if not self.on("rank_mix") or self.chance(0.6) else None)
                pool = [s for s in self.pool if s["ty"] == ty]
                iterable = ty in ("float", "float2", "float3", "float4")
                if self.on("chain") and pool and self.chance(0.35):
                    args.append(self.pick(pool)["name"])
                elif self.on("iter") and iterable and self.chance(0.25):
                    args.append(self.iter_stream(ty, shape))
                elif self.on("view_in") and len(shape) <= 2 and self.chance(0.25):
                    args.append(self.view_of(ty, shape)[2])
                else:
                    args.append(self.new_stream(ty, shape))
            elif p["kind"] == "gather":
                shape = self.rand_shape(p["rank"])
                if self.on("gather_host") and width(ty) == 1 and self.chance(0.25):
                    args.append(self.host_array(ty, prod(shape), dims=shape if p["rank"] == 2 else None))
                elif self.on("view_gather") and self.chance(0.25):
                    args.append(self.view_of(ty, shape)[2])
                else:
                    args.append(self.new_stream(ty, shape))
            else:
                if self.on("view_out") and len(dom) <= 2 and self.chance(0.25):
                    s, big, view = self.view_of(ty, dom)
                    args.append(view)
                    prints.append((s, ty, big))
                else:
                    s = self.new_stream(ty, dom, fill=self.on("read_out") and self.chance(0.5))
                    args.append(s)
                    prints.append((s, ty, dom))
        self.host.append(f"  {name}({', '.join(args)});")
        for s, ty, shape in prints:
            self.print_stream(s, ty, shape, f"{name}.{s}")
            self.pool.append({"name": s, "ty": ty, "shape": shape, "exact": False})

    def iter_stream(self, ty, shape):
        name = self.fresh("it")
        n = width(ty)
        if ty == "float2" and len(shape) == 2:
            pass
        elif len(shape) != 1:
            shape = (prod(shape),)
        def pt():
            vs = [flit(self.pick([0.0, 1.0, -1.0, 4.0, 10.0, round(self.r.uniform(-20, 20), 2)])) for _ in range(n)]
            return vs[0] if n == 1 else f"{ty}({', '.join(vs)})"
        self.host.append(f"  iter {ty} {name}<{', '.join(map(str, shape))}> = iter({pt()}, {pt()});")
        return name

    # ---- reductions, gather/scatter operators
    REDUCE_OPS = {
        "float": ["sum", "max", "min", "last", "first"], "float2": ["sum", "max"],
        "float4": ["sum", "min"], "int": ["sum", "xor", "max", "min", "or", "and", "last"],
        "int2": ["sum", "affine"], "int4": ["max"], "uint": ["sum", "mul", "xor"],
    }

    def reducer(self, ty, op, swap=None):
        key = (ty, op, swap)
        if key in self.reducers:
            return self.reducers[key]
        name = self.fresh("r")
        body = {"sum": "r = r + a;", "max": "r = max(r, a);", "min": "r = min(r, a);",
                "last": "r = a;", "xor": "r = r ^ a;", "or": "r = r | a;", "and": "r = r & a;",
                "mul": "r = r * a;", "first": "if (a == r + 1.0e30f) r = a;",
                "affine": "r = int2((r.x * a.x) & 2047, (a.x * r.y + a.y) & 2047);"}[op]
        ps = [f"{ty} a<>", f"reduce {ty} r<>"]
        swapped = self.chance(0.5) if swap is None else swap
        if swapped:
            ps.reverse()
        self.top.append(f"reduce void {name}({', '.join(ps)}) {{ {body} }}")
        self.reducers[key] = name
        self.swapped[name] = swapped
        return name

    def reduce_call(self, fn, src, dst):
        """Arguments bind positionally (§7): the reduce parameter may come first."""
        return f"  {fn}({dst}, {src});" if self.swapped[fn] else f"  {fn}({src}, {dst});"

    def reduce_ok(self, s, op):
        if op in ("sum",) and base(s["ty"]) == "float":
            return s["exact"]
        if op == "affine":
            return s["exact"]
        return True

    def do_reduction(self):
        ty = self.pick([t for t in self.REDUCE_OPS if t in self.compute_types()])
        cands = [s for s in self.pool if s["ty"] == ty]
        if not cands or self.chance(0.5):
            shape = self.rand_shape(self.pick([1, 2]))
            name = self.new_stream(ty, shape, exact=True)
            cands = [{"name": name, "ty": ty, "shape": shape, "exact": True}]
        s = self.pick(cands)
        ops = [o for o in self.REDUCE_OPS[ty] if self.reduce_ok(s, o)]
        fn = self.reducer(ty, self.pick(ops))
        comp, fmt = ELEM[ty][1], ELEM[ty][2]
        if self.on("reduce_value") and (not self.on("reduce_stream") or self.chance(0.5)):
            v = self.fresh("rv")
            self.host.append(f"  {ty} {v};")
            self.host.append(self.reduce_call(fn, s["name"], v))
            comps = [v] if width(ty) == 1 else [f"{v}.{c}" for c in COMP[:width(ty)]]
            self.host.append(f'  printf("{fn} {" ".join([fmt] * len(comps))}\\n", {", ".join(comps)});')
        elif self.on("reduce_stream"):
            if self.chance(0.2):
                target = (1,) * (self.pick([1, len(s["shape"])]) if self.on("reduce_all_ones") else len(s["shape"]))
            else:
                target = tuple(self.pick([d for d in range(1, e + 1) if e % d == 0]) for e in s["shape"])
            t = self.new_stream(ty, target, fill=self.chance(0.3))
            self.host.append(self.reduce_call(fn, s["name"], t))
            self.print_stream(t, ty, target, f"{fn}.{t}")

    def do_gather_scatter(self, oob=False):
        ty = self.pick(["float", "int"])
        n = self.r.randint(2, 10)
        a = self.new_stream(ty, (n,))
        m = self.r.randint(1, 8)
        itype = self.pick(["float", "int"])
        idx_vals = []
        for k in range(m):
            i = self.r.randint(0, n - 1)
            if oob and k == m - 1:
                i = self.pick([n, n + 3, -1])
            idx_vals.append(flit(i + self.pick([0.0, 0.25, -0.25, 0.375])) if itype == "float" else str(i))
        idx = self.fresh("ix")
        hi = self.fresh("h")
        ctype = "float" if itype == "float" else "int"
        self.host.append(f"  {ctype} {hi}[{m}] = {{{', '.join(idx_vals)}}};")
        self.host.append(f"  {itype} {idx}<{m}>;")
        self.host.append(f"  streamRead({idx}, {hi});")
        if self.on("gather_op") and (not self.on("scatter_op") or self.chance(0.5)):
            t = self.new_stream(ty, (m,), fill=False)
            ops = ["STREAM_GATHER_FETCH", "STREAM_GATHER_INC",
                   self.reducer(ty, self.pick(["sum", "max", "last"]))]
            self.host.append(f"  streamGatherOp({t}, {idx}, {a}, {self.pick(ops)});")
            self.print_stream(t, ty, (m,), f"gop.{t}")
        else:
            s = self.new_stream(ty, (m,))
            ops = ["STREAM_SCATTER_ASSIGN", "STREAM_SCATTER_ADD",
                   self.reducer(ty, self.pick(["sum", "max", "last"]), swap=self.chance(0.5))]
            if ty == "float":
                ops.append("STREAM_SCATTER_MUL")   # host values <= 100, <= 8 updates: finite
            self.host.append(f"  streamScatterOp({s}, {idx}, {a}, {self.pick(ops)});")
            self.print_stream(s, ty, (m,), f"sop.{s}")
        self.print_stream(a, ty, (n,), f"op.{a}")

    # ---- the whole program
    def program(self):
        self.pool = []
        if self.on("helpers"):
            for _ in range(self.r.randint(0, 2 + self.size)):
                self.make_helper()
        if self.on("out_helpers"):
            for _ in range(self.r.randint(0, 2)):
                self.make_out_helper()
        kernels = [self.make_kernel() for _ in range(self.r.randint(1, 2 + self.size))]
        for _ in range(self.r.randint(len(kernels), len(kernels) + 1)):
            self.call_kernel(*self.pick(kernels))
        if self.on("reduce_value") or self.on("reduce_stream"):
            for _ in range(self.r.randint(0, 2)):
                self.do_reduction()
        if self.on("gather_op") or self.on("scatter_op"):
            for _ in range(self.r.randint(0, 2)):
                self.do_gather_scatter()
            if self.on("op_oob") and self.chance(0.1):
                self.do_gather_scatter(oob=True)
        return ("// generated by tests/fuzz/gen_brook.py\n" + "\n".join(self.top) +
                "\n\nint main() {\n" + "\n".join(self.host) + "\n  return 0;\n}\n")


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def features_from(without="", only=""):
    fs = set(FEATURES)
    if only:
        fs = {f for f in only.split(",") if f}
    for f in filter(None, without.split(",")):
        fs.discard(f)
    bad = [f for f in (only.split(",") + without.split(",")) if f and f not in FEATURES]
    if bad:
        raise SystemExit(f"gen_brook: unknown feature(s) {', '.join(bad)}; known: {', '.join(FEATURES)}")
    return fs


def generate(seed, features=None, size="medium"):
    return Gen(seed, set(FEATURES) if features is None else features, size).program()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seed", type=int, nargs="?")
    ap.add_argument("--without", default="", help="comma-separated features to leave out")
    ap.add_argument("--only", default="", help="comma-separated features to keep (all others off)")
    ap.add_argument("--size", default="medium", choices=["small", "medium", "large"])
    ap.add_argument("--list", action="store_true", help="list the feature switches")
    a = ap.parse_args()
    if a.list:
        for k, v in FEATURES.items():
            print(f"{k:16} {v}")
        return
    if a.seed is None:
        ap.error("a SEED is required")
    sys.stdout.write(generate(a.seed, features_from(a.without, a.only), a.size))


if __name__ == "__main__":
    main()
