#!/usr/bin/env python3
"""A small reference model of Brook's stream semantics (LANGUAGE.md §4–§8).

It is NOT a Brook parser. Each conformance program in tests/conformance/streams/
has a Python twin below (a function decorated with @test("NAME")) that computes
what NAME.br must print, using the helpers of this model. The model and the .br
programs are kept in sync by hand; the model is the independent witness of what
the spec says, written before any interpreter for streams existed.

    python3 tests/tools/brook_model.py gen          rewrite every NAME.out / NAME.err
    python3 tests/tools/brook_model.py check        report programs whose files differ
    python3 tests/tools/brook_model.py show NAME    print what NAME must output

Conventions of the model:
  * Positions and extents are tuples, slowest dimension first (rows before
    columns), exactly like the C array `T h[R][C]`. Brook's vectors run the other
    way (`.x` = column), so indexof/instance/streamSize reverse them.
  * float arithmetic is IEEE binary32: values of type F round after every
    operation, as a C program computing in float does.
  * A vector or struct element is a Python tuple of its components.
"""
import math
import os
import struct
import sys

# ---------------------------------------------------------------------------
# float32 arithmetic


def f32(x):
    """Rounds a Python number to the nearest binary32 value."""
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:  # beyond FLT_MAX: IEEE rounds to infinity
        return math.copysign(math.inf, x)


class F:
    """A C `float`. Every operation rounds to binary32. Double arithmetic on two
    binary32 operands followed by one rounding is exact for + - * / (the double
    result is correctly rounded and 53 >= 2*24 + 2), so this is C's float math."""

    __slots__ = ("v",)

    def __init__(self, v=0.0):
        self.v = f32(v.v if isinstance(v, F) else v)

    @staticmethod
    def _of(x):
        return x.v if isinstance(x, F) else f32(x)  # C converts int operands to float

    def __add__(self, o): return F(self.v + F._of(o))
    def __radd__(self, o): return F(F._of(o) + self.v)
    def __sub__(self, o): return F(self.v - F._of(o))
    def __rsub__(self, o): return F(F._of(o) - self.v)
    def __mul__(self, o): return F(self.v * F._of(o))
    def __rmul__(self, o): return F(F._of(o) * self.v)

    def __truediv__(self, o):
        return F(fdiv(self.v, F._of(o)))

    def __rtruediv__(self, o):
        return F(fdiv(F._of(o), self.v))

    def __neg__(self): return F(-self.v)
    def __lt__(self, o): return self.v < F._of(o)
    def __le__(self, o): return self.v <= F._of(o)
    def __gt__(self, o): return self.v > F._of(o)
    def __ge__(self, o): return self.v >= F._of(o)
    def __eq__(self, o): return self.v == F._of(o)
    def __hash__(self): return hash(self.v)
    def __float__(self): return self.v
    def __int__(self): return int(self.v)  # C's float → int conversion truncates
    def __repr__(self): return "F(%r)" % self.v


def fdiv(a, b):
    """IEEE division, including division by zero (inf or NaN)."""
    if b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def ffloor(x):
    return F(math.floor(float(x)))


def fmin(a, b): return F(min(float(a), float(b)))
def fmax(a, b): return F(max(float(a), float(b)))


def idiv(a, b):
    """Integer division in a kernel: truncates; division by zero yields 0 (§3)."""
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def imod(a, b):
    """Integer remainder in a kernel: sign of the dividend; by zero yields 0."""
    if b == 0:
        return 0
    return a - idiv(a, b) * b


def vec(*comps):
    """A float vector: a tuple of F."""
    return tuple(F(c) for c in comps)


def vadd(a, b): return tuple(x + y for x, y in zip(a, b))
def vsub(a, b): return tuple(x - y for x, y in zip(a, b))
def vmul(a, b): return tuple(x * y for x, y in zip(a, b))
def vscale(a, s): return tuple(x * s for x in a)


def mat2_mul(a, b):
    """2x2 matrices stored as float4 (x, y, z, w) = row-major (m00, m01, m10, m11)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3])


# ---------------------------------------------------------------------------
# Shapes


def canon(extents):
    """Drops leading extents of 1 (§4: <1,100> is <100>), keeping at least one."""
    e = list(extents)
    while len(e) > 1 and e[0] == 1:
        e.pop(0)
    return tuple(e)


def count(extents):
    n = 1
    for e in extents:
        n *= e
    return n


def positions(extents):
    """Every position of a shape in row-major order (last dimension fastest)."""
    if not extents:
        yield ()
        return
    for head in range(extents[0]):
        for tail in positions(extents[1:]):
            yield (head,) + tail


def shape_text(extents):
    """A shape as messages write it: <4, 8>."""
    return "<" + ", ".join(str(e) for e in extents) + ">"


def xy(pos):
    """A position (slowest first) as Brook's (column, row, slice, 0) tuple."""
    p = list(reversed(pos)) + [0] * (4 - len(pos))
    return tuple(p[:4])


def resample(out_pos, out_ext, in_ext, out_rank=None, in_rank=None):
    """§5: the input position a kernel invocation at out_pos reads.
    out_ext/in_ext are canonical (leading 1s dropped); out_rank/in_rank are the
    declared ranks. Equal ranks match dimension by dimension (so a <1,2> input
    feeding <4,6> repeats its row down and each column three times across).
    Otherwise ranks align from the first (slowest) dimension of the canonical
    shapes; extra input dimensions are pinned to 0; an input with fewer
    dimensions follows the leading output dimensions only."""
    if out_rank is not None and out_rank == in_rank:
        r = out_rank
        od = (1,) * (r - len(out_ext)) + tuple(out_ext)
        op = (0,) * (r - len(out_ext)) + tuple(out_pos)
        idd = (1,) * (r - len(in_ext)) + tuple(in_ext)
        full = tuple(op[d] * idd[d] // od[d] for d in range(r))
        return full[r - len(in_ext):]
    pos = []
    for d, ie in enumerate(in_ext):
        if d < len(out_ext):
            pos.append(out_pos[d] * ie // out_ext[d])  # exact integer floor
        else:
            pos.append(0)
    return tuple(pos)


class BrookError(Exception):
    """A runtime error: MESSAGE, reported at the first character of `at` in the .br."""

    def __init__(self, message, at):
        super().__init__(message)
        self.message = message
        self.at = at


# ---------------------------------------------------------------------------
# Streams and views


class Stream:
    """A stream: zeroed storage in row-major order, with canonical extents."""

    def __init__(self, extents, zero=None):
        self.ext = canon(extents)
        self.rank = len(extents)  # the declared rank (§4: it decides how shapes match)
        if zero is None:
            zero = F(0)
        self.data = [zero] * count(self.ext)

    def flat(self, pos):
        i = 0
        for p, e in zip(pos, self.ext):
            i = i * e + p
        return i

    def get(self, pos): return self.data[self.flat(pos)]
    def set(self, pos, v): self.data[self.flat(pos)] = v

    def values(self):
        return [self.get(p) for p in positions(self.ext)]

    def snapshot(self):
        """The stream as it is now: inputs of a call see this (§5)."""
        s = Stream(self.ext)
        s.rank = self.rank
        s.data = [self.get(p) for p in positions(self.ext)]
        return s

    def domain(self, start, end, at=None):
        return View(self, start, end, at)


def xy_to_pos(v):
    """Brook's (column, row) start/end notation → a position, slowest first."""
    if isinstance(v, int):
        return (v,)
    return tuple(reversed(v))


def corner_text(v):
    return str(v) if isinstance(v, int) else "(" + ", ".join(str(c) for c in v) + ")"


class View(Stream):
    """s.domain(start, end): the sub-rectangle [start, end) sharing s's storage."""

    def __init__(self, base, start, end, at=None):
        self.base = base
        self.off = xy_to_pos(start)
        hi = xy_to_pos(end)
        fits = len(self.off) == len(base.ext) and all(
            0 <= a <= b <= e for a, b, e in zip(self.off, hi, base.ext))
        if not fits:
            raise BrookError("domain %s to %s is outside the stream %s" % (
                corner_text(start), corner_text(end), shape_text(base.ext)), at)
        self.ext = tuple(b - a for a, b in zip(self.off, hi))
        self.rank = base.rank

    def get(self, pos):
        return self.base.get(tuple(p + o for p, o in zip(pos, self.off)))

    def set(self, pos, v):
        self.base.set(tuple(p + o for p, o in zip(pos, self.off)), v)


def view_offset(s):
    """The offset of a view's first element in its underlying stream."""
    off = (0,) * len(s.ext)
    while isinstance(s, View):
        off = tuple(a + b for a, b in zip(off, s.off))
        s = s.base
    return off


def from_list(extents, values):
    """A stream filled row-major from a Python list (streamRead from a host array)."""
    s = Stream(extents)
    s.data = list(values)
    assert len(s.data) == count(s.ext)
    return s


def stream_read(s, host, elem_size, at=None, host_elem_size=None):
    """streamRead(s, host): checked copy of prod(extents) elements, row-major.
    The check compares bytes: the stream's element size against the host object's."""
    need = count(s.ext) * elem_size
    have = len(host) * (host_elem_size or elem_size)
    if have < need:
        raise BrookError("streamRead needs %d bytes but the host object has %d" % (need, have), at)
    for p, v in zip(positions(s.ext), host):
        s.set(p, v)


def stream_write(s, host, elem_size, at=None):
    """streamWrite(s, host): copy out; a too-small host object is an error (nothing written)."""
    need = count(s.ext) * elem_size
    have = len(host) * elem_size
    if have < need:
        raise BrookError("streamWrite needs %d bytes but the host object has %d" % (need, have), at)
    for i, v in enumerate(s.values()):
        host[i] = v


def stream_swap(a, b, at=None):
    if a.ext != b.ext:
        raise BrookError("streamSwap needs two streams of the same type and shape", at)
    a.data, b.data = b.data, a.data


def stream_size(s):
    """[ext] streamSize(s): int4, .x = last extent, unused components 1."""
    e = list(reversed(s.ext)) + [1] * (4 - len(s.ext))
    return tuple(e[:4])


# ---------------------------------------------------------------------------
# Kernel launches


class Invocation:
    """What a kernel body can ask about its invocation."""

    def __init__(self, pos, domain, inputs, rank=None, offset=()):
        self.offset = offset
        self.pos = pos
        self.domain = domain
        self.rank = rank
        self._inputs = inputs

    def instance(self):
        """Brook+'s instance(): the invocation's position as int4 (column first),
        in the first output's stream: a domain's offset is included."""
        return tuple(a + b for a, b in zip(xy(self.pos), xy(self.offset)))

    def indexof_out(self):
        """indexof on an output: the invocation's position, as float4."""
        return tuple(F(c) for c in xy(self.pos))

    def indexof_in(self, k):
        """indexof on input k: the position actually read after resampling, in
        that stream's own coordinates."""
        return tuple(F(c) for c in xy(resample(self.pos, self.domain, self._inputs[k].ext,
                                                    self.rank, self._inputs[k].rank)))


def launch(outs, ins, body, at=None):
    """Runs a kernel call. `outs` are the output streams, `ins` the input streams
    (iterators included). body(inv, *input_values, *current_output_values)
    returns the new output values (a list, one per output). The domain is the
    first output's shape; every input is resampled to it; every invocation sees
    the inputs as they were before the call."""
    domain = outs[0].ext
    for o in outs[1:]:
        if o.ext != domain:
            raise BrookError("output '%s' has shape %s but the call's domain is %s" % (
                o.name_for_errors, shape_text(o.ext), shape_text(domain)), at)
    before = [s.snapshot() for s in ins]
    results = []
    for pos in positions(domain):
        inv = Invocation(pos, domain, before, outs[0].rank, view_offset(outs[0]))
        in_vals = [s.get(resample(pos, domain, s.ext, outs[0].rank, s.rank)) for s in before]
        cur = [o.get(pos) for o in outs]
        results.append((pos, body(inv, *in_vals, *cur)))
    for pos, vals in results:
        for o, v in zip(outs, vals):
            o.set(pos, v)


def named(stream, name):
    """Attaches the program's name to a stream, for messages that name it."""
    stream.name_for_errors = name
    return stream


# ---------------------------------------------------------------------------
# Gathers (§5)


def gather_index(i, extent):
    """One gather index component: an int is exact; a float f selects
    floor(f + 0.25f) (computed in float); then it clamps to [0, extent)."""
    if isinstance(i, F):
        i = int(math.floor(float(i + F(0.25))))
    return min(max(i, 0), extent - 1)


def gather(arr, *index):
    """g[i] (1-D), g[i][j] = gather(g, i, j) (row, column) on a 2-D array."""
    pos = tuple(gather_index(i, e) for i, e in zip(index, arr.ext))
    return arr.get(pos)


def gather_v(arr, v):
    """g[v] with a vector index (column, row[, slice, w]): on an N-D array the
    first max(N, 2) components, component j addressing dimension N-1-j."""
    if len(arr.ext) == 1:
        return gather(arr, v[0])
    n = max(len(arr.ext), 2)
    return gather(arr, *reversed(v[:n]))


# ---------------------------------------------------------------------------
# Iterators (§6)

ONE_E_MINUS_6 = F(1e-6)


def lerp_iter(i, n, lo, hi):
    """BrookGPU's iterator formula, all in float: (1 - f)*lo + f*hi + 1e-6f."""
    f = F(i) / F(n)
    return (F(1) - f) * F(lo) + f * F(hi) + ONE_E_MINUS_6


def iterator(extents, lo, hi):
    """iter T s<extents> = iter(lo, hi). lo/hi are numbers (float) or tuples."""
    ext = canon(extents)
    s = Stream(ext)
    s.rank = len(extents)
    for pos in positions(ext):
        if len(ext) == 1:
            (i,) = pos
            if isinstance(lo, tuple):
                v = tuple(lerp_iter(i, ext[0], a, b) for a, b in zip(lo, hi))
            else:
                v = lerp_iter(i, ext[0], lo, hi)
        else:
            # floatN over N dimensions: component j follows dimension N-1-j.
            n = len(ext)
            v = tuple(lerp_iter(pos[n - 1 - j], ext[n - 1 - j], lo[j], hi[j]) for j in range(n))
        s.set(pos, v)
    return s


# ---------------------------------------------------------------------------
# Reductions (§7)


def left_fold(values, f):
    """acc = x0; acc = f(acc, x) for each later x."""
    acc = values[0]
    for x in values[1:]:
        acc = f(acc, x)
    return acc


def fold_chunk(n):
    """The regrouping every backend uses (§7 allows regrouping, never
    reordering): up to 256 operands are one left fold; more are cut into
    consecutive chunks of min(1000, max(64, ceil(n / 1024))) operands."""
    if n <= 256:
        return n
    return min(1000, max(64, (n + 1023) // 1024))


def fold(values, f):
    """A fold regrouped by fold_chunk: each chunk left-folded, the chunks'
    results folded again by the same rule."""
    n = len(values)
    g = fold_chunk(n)
    if g == n:
        return left_fold(values, f)
    return fold([left_fold(values[i:i + g], f) for i in range(0, n, g)], f)


def reduce_to_value(s, f):
    """Folds the whole stream (row-major) into one value."""
    return fold(s.values(), f)


def reduce_to_stream(s, t, f, at=None):
    """Each element o of t folds the block [o*factor, (o+1)*factor) of s.
    Equal declared ranks match dimension by dimension (<4,6> into <1,2> folds
    two 4x3 blocks). Different ranks drop leading 1s first; an all-1 target
    receives the whole fold; otherwise the ranks must then agree."""
    if s.rank == t.rank:
        r = s.rank
    elif all(e == 1 for e in t.ext):
        r = max(len(s.ext), len(t.ext))
    elif len(s.ext) == len(t.ext):
        r = len(s.ext)
    else:
        raise BrookError("cannot reduce a %s stream to %s: the ranks differ" % (
            shape_text(s.ext), shape_text(t.ext)), at)
    se = (1,) * (r - len(s.ext)) + tuple(s.ext)
    te = (1,) * (r - len(t.ext)) + tuple(t.ext)
    for ie, oe in zip(se, te):
        if ie % oe != 0:
            raise BrookError("cannot reduce a %s stream to %s: %d is not a multiple of %d" % (
                shape_text(s.ext), shape_text(t.ext), ie, oe), at)
    factor = tuple(ie // oe for ie, oe in zip(se, te))
    src = s.snapshot()
    for o in positions(te):
        block = [src.get(tuple(oi * fi + bi for oi, fi, bi in zip(o, factor, b))[r - len(s.ext):])
                 for b in positions(factor)]
        t.set(o[r - len(t.ext):], fold(block, f))


# ---------------------------------------------------------------------------
# Variable outputs (§12)

INF = F(float("inf"))


def vout_launch(domain, ins, body, bound=0, at=None):
    """A call whose only output is a vout over `domain` (its extents): body(inv,
    *input_values) returns the list of values it pushes. The result is 1-D of
    length n, or <ceil(n / W), W> for a 2-D domain of width W, padded with
    +infinity in every component."""
    dom = canon(domain)
    before = [s.snapshot() for s in ins]
    pushed = []
    for pos in positions(dom):
        inv = Invocation(pos, dom, before, len(domain))
        vals = body(inv, *[s.get(resample(pos, dom, s.ext, len(domain), s.rank)) for s in before])
        if bound and len(vals) > bound:
            raise BrookError("kernel '%s' pushed more values to '%s' in one invocation than 'vout [%d]' allows" % (
                at[1], at[2], bound), at[0])
        pushed.extend(vals)
    n = len(pushed)
    if len(dom) == 2:
        w = dom[1]
        rows = (n + w - 1) // w
        if pushed and isinstance(pushed[0], tuple):
            pad = tuple(INF for _ in pushed[0])
        else:
            pad = INF
        s = Stream([rows, w])
        s.data = pushed + [pad] * (rows * w - n)
        return s
    s = Stream([n])
    s.data = pushed
    return s


# ---------------------------------------------------------------------------
# Gather and scatter operators (§8)


def op_index(v, arr):
    """An index element: scalar (1-D) or (column, row); floats become (int)(f + 0.5f)."""
    comps = v if isinstance(v, tuple) else (v,)
    comps = comps[:len(arr.ext)]
    out = []
    for c in comps:
        out.append(int(F(c) + F(0.5)) if isinstance(c, F) else c)
    return tuple(reversed(out))  # (column, row) → position, slowest first


def check_op_indices(idx, arr, at):
    """Every index must lie inside the array; the first that does not (in
    row-major order of the index stream) is reported and nothing is written."""
    for k in positions(idx.ext):
        pos = op_index(idx.get(k), arr)
        if not all(0 <= p < e for p, e in zip(pos, arr.ext)):
            shown = pos[0] if len(pos) == 1 else tuple(reversed(pos))
            elem = k[0] if len(k) == 1 else tuple(reversed(k))
            raise BrookError("index %s of element %s is outside the array %s" % (
                _text(shown), _text(elem), shape_text(arr.ext)), at)


def _text(v):
    return str(v) if isinstance(v, int) else "(" + ", ".join(str(c) for c in v) + ")"


def gather_op(t, idx, arr, op, at=None):
    """streamGatherOp(t, idx, arr, op). op: "FETCH", "INC", or a Python
    function f(p0, p1) -> new value of the reduce parameter (both bound to the old
    value)."""
    check_op_indices(idx, arr, at)
    for k in positions(idx.ext):
        pos = op_index(idx.get(k), arr)
        old = arr.get(pos)
        t.set(k, old)
        if op == "INC":
            arr.set(pos, old + 1)
        elif callable(op):
            arr.set(pos, op(old, old))


def scatter_op(s, idx, arr, op, at=None, reduce_first=True):
    """streamScatterOp(s, idx, arr, op). op: "ASSIGN", "ADD", "MUL", or a Python
    function body(p0, p1) -> new value of the reduce parameter, with p0 = arr[idx[k]]
    and p1 = s[k] (the positional rule). reduce_first says whether the first
    parameter is the reduce one (written back to arr) or the second (to s)."""
    check_op_indices(idx, arr, at)
    for k in positions(idx.ext):
        pos = op_index(idx.get(k), arr)
        if op == "ASSIGN":
            arr.set(pos, s.get(k))
        elif op == "ADD":
            arr.set(pos, arr.get(pos) + s.get(k))
        elif op == "MUL":
            arr.set(pos, arr.get(pos) * s.get(k))
        elif reduce_first:
            arr.set(pos, op(arr.get(pos), s.get(k)))
        else:
            s.set(k, op(arr.get(pos), s.get(k)))


# ---------------------------------------------------------------------------
# Output


def fmt_component(v):
    """One number as streamPrint writes it: %3.2f, with BrookGPU's special cases."""
    v = float(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "inf"
    if abs(v) < 1e-6:
        return "0.00"
    return "%3.2f" % v


def flatten(v):
    if isinstance(v, tuple):
        out = []
        for c in v:
            out.extend(flatten(c))
        return out
    return [v]


class Out:
    """The program's stdout."""

    def __init__(self):
        self.text = []
        self.warnings = []  # (message, unique source text it points at)

    def warn(self, message, at):
        """A compile-time warning the program must produce (LANGUAGE.md §11)."""
        self.warnings.append((message, at))

    def printf(self, fmt, *args):
        conv = tuple(float(a) if isinstance(a, F) else a for a in args)
        self.text.append(fmt % conv)

    def stream_print(self, s):
        """streamPrint: scalars as `%3.2f `, vectors/structs as {a, b}; a newline
        after each row of extents[last] elements."""
        row = s.ext[-1]
        for i, v in enumerate(s.values()):
            if isinstance(v, tuple):
                self.text.append("{" + ", ".join(fmt_component(c) for c in flatten(v)) + "}")
            else:
                self.text.append(fmt_component(v) + " ")
            if (i + 1) % row == 0:
                self.text.append("\n")

    def getvalue(self):
        return "".join(self.text)


def fl(xs):
    """A host float array from Python numbers."""
    return [F(x) for x in xs]


# ---------------------------------------------------------------------------
# Generating the expected files

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, "..", "conformance", "streams")


def expected(name):
    """(stdout, stderr or None) for program NAME."""
    out = Out()
    err = None
    try:
        TESTS[name](out)
    except BrookError as e:
        err = error_text(name, e)
    if out.warnings:
        warned = "".join(located_text(name, "warning", m, at) for m, at in out.warnings)
        err = warned + (err or "")
    return out.getvalue(), err


def located_text(name, kind, message, at):
    """file:line:col: KIND: message, the source line, a caret at `at`."""
    return error_text(name, BrookError(message, at), kind)


def error_text(name, e, kind="runtime error"):
    """file:line:col: KIND: message, the source line, a caret."""
    src = open(os.path.join(SUITE, name + ".br")).read()
    if e.at is None:
        raise SystemExit("%s: unexpected runtime error in the model: %s" % (name, e.message))
    hits = src.count(e.at)
    if hits != 1:
        raise SystemExit("%s: error location %r occurs %d times" % (name, e.at, hits))
    offset = src.index(e.at)
    line_no = src.count("\n", 0, offset) + 1
    line_start = src.rfind("\n", 0, offset) + 1
    line_end = src.find("\n", offset)
    line = src[line_start:line_end if line_end >= 0 else len(src)]
    col = offset - line_start + 1
    return "%s.br:%d:%d: %s: %s\n%s\n%s^\n" % (
        name, line_no, col, kind, e.message, line, " " * (col - 1))


def main(argv):
    mode = argv[1] if len(argv) > 1 else "gen"
    if mode == "show":
        out, err = expected(argv[2])
        sys.stdout.write(out)
        if err:
            sys.stdout.write("--- stderr ---\n" + err)
        return 0
    bad = 0
    programs = sorted(f[:-3] for f in os.listdir(SUITE) if f.endswith(".br"))
    for name in programs:
        if name not in TESTS:
            print("no model for %s.br" % name)
            bad += 1
    for name in sorted(TESTS):
        if name not in programs:
            print("no program %s.br for model %s" % (name, name))
            bad += 1
            continue
        out, err = expected(name)
        files = {".out": out, ".err": err}
        for ext, text in files.items():
            path = os.path.join(SUITE, name + ext)
            old = open(path).read() if os.path.exists(path) else None
            if old == text:
                continue
            if mode == "gen":
                if text is None:
                    os.remove(path)
                else:
                    with open(path, "w") as f:
                        f.write(text)
            else:
                print("%s%s differs from the model" % (name, ext))
                bad += 1
    if mode == "gen":
        print("%d programs" % len(TESTS))
    return 1 if bad else 0


# ---------------------------------------------------------------------------
# The tests: one function per program of tests/conformance/streams/.

TESTS = {}


def test(name):
    def register(fn):
        TESTS[name] = fn
        return fn
    return register



# --- §12 compatibility forms ------------------------------------------------


def show_size(out, s):
    out.printf("%d %d %d %d\n", *stream_size(s))


@test("s12_brtiter")
def _(out):
    # BRTIter(lo..., hi...) builds the same iterator as iter(floatN(lo...), floatN(hi...)).
    out.stream_print(iterator([5], 0.0, 10.0))
    out.stream_print(iterator([4], (0.0, 10.0), (4.0, 2.0)))
    out.stream_print(iterator([2], (1.0, 2.0, 3.0), (5.0, 6.0, 7.0)))
    out.stream_print(iterator([2], (0.0, 0.0, 0.0, 0.0), (8.0, 4.0, 2.0, 1.0)))
    e = iterator([2, 3], (0.0, 0.0), (3.0, 2.0))
    out.stream_print(e)
    s = Stream([2, 3])
    launch([s], [e], lambda inv, v, cur: [v[0] * F(10) + v[1]])
    out.stream_print(s)


@test("s12_op_spellings")
def _(out):
    a = Stream([3])
    idx, v, t = from_list([5], fl([2, 0, 2, 1, 2])), from_list([5], fl([1, 2, 3, 4, 5])), Stream([5])
    gather_op(t, idx, a, "INC")
    out.stream_print(t)
    gather_op(t, idx, a, "INC")
    out.stream_print(t)
    out.stream_print(a)
    for op in ("ADD", "ADD", "MUL", "MUL"):
        scatter_op(v, idx, a, op)
        out.stream_print(a)


@test("s12_const_array_mask")
def _(out):
    a = from_list([4, 4], fl(range(16)))
    o = Stream([4, 4])

    def conv(mask):
        def body(inv, cur):
            col, row = inv.indexof_out()[0], inv.indexof_out()[1]
            s = F(0)
            for i in (-1, 0, 1):
                for j in (-1, 0, 1):
                    # a[p + float2(j, i)]: a float (column, row) index
                    s = s + F(mask[i + 1][j + 1]) * gather_v(a, (col + F(j), row + F(i)))
            return [s]
        return body
    launch([o], [], conv([[0, 0, 0], [0, 0, 1], [0, 0, 0]]))
    out.stream_print(o)
    launch([o], [], conv([[1, 2, 1], [2, 4, 2], [1, 2, 1]]))
    out.stream_print(o)


@test("s5_instance_view")
def _(out):
    q = Stream([3, 4])
    launch([q.domain((1, 1), (3, 3))], [], lambda inv, cur: [inv.instance()[0] + inv.instance()[1] * 100])
    for r in range(3):
        out.printf("%d %d %d %d\n", *[int(q.get((r, c))) for c in range(4)])
    src = from_list([2], fl([1.5, 2.5]))
    b = Stream([6])
    launch([b.domain(2, 5)], [src], lambda inv, x, cur: [x * F(inv.instance()[0])])
    out.stream_print(b)


@test("s12_vout_filter")
def _(out):
    a = from_list([8], fl([3, -1, 4, -1, 5, -9, 2, 6]))
    o = vout_launch([8], [a], lambda inv, x: [x] if x > F(0) else [])
    out.stream_print(o)
    show_size(out, o)
    t = vout_launch([8], [a], lambda inv, x: [x, x * F(10)] if x > F(3) else [x], bound=2)
    out.stream_print(t)
    show_size(out, t)
    z = vout_launch([4], [Stream([4])], lambda inv, x: [x] if x > F(0) else [])
    show_size(out, z)
    big = from_list([10000], fl(range(10000)))
    sv = vout_launch([10000], [big], lambda inv, x: [x] if float(x) % 7 == 0 else [])
    ok = all(float(v) == 7 * k for k, v in enumerate(sv.data)) and len(sv.data) == 1429
    out.printf("%d in order: %d\n", stream_size(sv)[0], 1 if ok else 0)


@test("s12_vout_2d")
def _(out):
    a = from_list([3, 4], [F(r * 10 + c) for r in range(3) for c in range(4)])

    def even(inv, x):
        p = inv.indexof_in(0)
        return [x] if (float(p[0]) + float(p[1])) % 2 == 0 else []
    o = vout_launch([3, 4], [a], even)
    out.stream_print(o)
    show_size(out, o)
    p = vout_launch([3, 4], [a], lambda inv, x: [(x, -x)] if inv.indexof_in(0)[0] == F(3) else [], bound=1)
    out.stream_print(p)
    show_size(out, p)


@test("s12_vout_bound_error")
def _(out):
    a = from_list([3], fl([0, 1, 2]))
    out.printf("before\n")
    vout_launch([3], [a], lambda inv, x: [x, x] if x > F(1) else [x], bound=1,
                at=("many(a, o);", "many", "o"))
    out.printf("not reached\n")


# --- §4 streams -------------------------------------------------------------


@test("s4_rw_1d")
def _(out):
    h = [F(i) * F(1.25) - F(3) for i in range(8)]
    a, b = Stream([8]), Stream([8])
    stream_read(a, h, 4)
    launch([b], [a], lambda inv, x, cur: [x * F(2) + F(0.5)])
    r = [None] * 8
    stream_write(b, r, 4)
    for i in range(8):
        out.printf("%d %.2f\n", i, r[i])
    back = [None] * 8
    stream_write(a, back, 4)
    out.printf("a unchanged: %.2f %.2f\n", back[0], back[7])


@test("s4_rw_2d")
def _(out):
    h = [F(r * 10 + c) for r in range(3) for c in range(4)]
    a, b = Stream([3, 4]), Stream([3, 4])
    stream_read(a, h, 4)
    launch([b], [a], lambda inv, x, cur: [x + F(100)])
    res = [None] * 12
    stream_write(b, res, 4)
    for r in range(3):
        for c in range(4):
            out.printf("%.0f ", res[r * 4 + c])
        out.printf("\n")
    flat = [None] * 12
    stream_write(a, flat, 4)
    out.printf("flat[5] = %.2f, flat[11] = %.2f\n", flat[5], flat[11])


@test("s4_rw_float4")
def _(out):
    h = [(F(i), F(i) + F(0.5), F(-i), F(8) * i) for i in range(4)]
    a, b = Stream([4]), Stream([4])
    stream_read(a, h, 16)

    def mix(inv, v, cur):
        wzyx = (v[3], v[2], v[1], v[0])
        return [vadd(vscale(wzyx, F(0.5)), vec(1, 2, 3, 4))]
    launch([b], [a], mix)
    r = [None] * 4
    stream_write(b, r, 16)
    for v in r:
        out.printf("%.2f %.2f %.2f %.2f\n", *v)
    raw = [c for v in a.values() for c in v]
    out.printf("raw %.2f %.2f %.2f\n", raw[1], raw[6], raw[15])


@test("s4_rw_struct")
def _(out):
    h = [((F(i), F(i * 2)), F(0.5) + i) for i in range(3)]  # (pos, mass)
    a, b = Stream([3]), Stream([3])
    stream_read(a, h, 12)
    dt = F(0.25)

    def step(inv, p, cur):
        pos, mass = p
        return [(vadd(pos, vscale(vec(1, -1), dt)), mass * F(2))]
    launch([b], [a], step)
    r = [None] * 3
    stream_write(b, r, 12)
    for (px, py), m in r:
        out.printf("%.2f %.2f %.2f\n", px, py, m)
    out.printf("%d\n", 12)


@test("s4_rw_3d")
def _(out):
    a, b = Stream([2, 2, 3]), Stream([2, 2, 3])
    stream_read(a, [F(0.5)] * 12, 4)

    def pos(inv, x, cur):
        i = inv.indexof_out()
        return [x + i[2] * F(100) + i[1] * F(10) + i[0]]
    launch([b], [a], pos)
    for v in b.values():
        out.printf("%.1f\n", v)


@test("s4_write_too_small")
def _(out):
    s = Stream([10])
    stream_write(s, [None] * 10, 4)
    out.printf("first write ok\n")
    stream_write(s, [None] * 5, 4, at="streamWrite(s, small)")


@test("s4_read_too_small")
def _(out):
    s = Stream([3])
    stream_read(s, [vec(0, 0, 0, 0)] * 3, 16)
    out.printf("first read ok\n")
    stream_read(s, fl([0] * 11), 16, at="streamRead(s, g)", host_elem_size=4)


@test("s4_swap")
def _(out):
    a, b = Stream([2, 3]), Stream([2, 3])
    launch([a], [], lambda inv, cur: [F(1.5)])
    launch([b], [], lambda inv, cur: [F(-2)])
    stream_swap(a, b)
    out.stream_print(a)
    out.stream_print(b)
    launch([a], [], lambda inv, cur: [F(7)])
    out.stream_print(b)


@test("s4_swap_shape_error")
def _(out):
    a, b = Stream([4]), Stream([5])
    out.printf("before\n")
    stream_swap(a, b, at="streamSwap(a, b)")


@test("s4_print_scalars")
def _(out):
    s = from_list([6], fl([0.0, 1.0, -2.5, 3.14159, 100.125, 12345.678]))
    out.stream_print(s)


@test("s4_print_2d_rows")
def _(out):
    def f(inv, cur):
        i = inv.indexof_out()
        return [i[1] + i[0] / F(4)]
    s = Stream([3, 4])
    launch([s], [], f)
    out.stream_print(s)
    t = Stream([4, 1])
    launch([t], [], f)
    out.stream_print(t)


@test("s4_print_vectors")
def _(out):
    a = Stream([3])
    launch([a], [], lambda inv, cur: [vadd(inv.indexof_out()[:2], vec(0.5, 0.25))])
    out.stream_print(a)
    b = Stream([2, 2])

    def f3(inv, cur):
        i = inv.indexof_out()
        return [(i[0], i[1], F(-1))]
    launch([b], [], f3)
    out.stream_print(b)
    c = Stream([2])
    launch([c], [], lambda inv, cur: [(inv.indexof_out()[0], F(1), F(2), F(3.5))])
    out.stream_print(c)


@test("s4_print_struct")
def _(out):
    s = Stream([3])

    def make(inv, cur):
        k = inv.indexof_out()[0]
        return [(k, k * k, -k / F(2))]
    launch([s], [], make)
    out.stream_print(s)


@test("s4_print_special")
def _(out):
    num = fl([1.0, -1.0, 0.0, 1e-7, -1e-7, -0.0, 1234.567, -2.5, -0.001, 0.005])
    den = fl([0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
    a, b, q = Stream([2, 5]), Stream([2, 5]), Stream([2, 5])
    stream_read(a, num, 4)
    stream_read(b, den, 4)
    launch([q], [a, b], lambda inv, x, y, cur: [x / y])
    out.stream_print(q)
    p = Stream([2, 5])
    launch([p], [a, b], lambda inv, x, y, cur: [(x / y, y / x)])
    out.stream_print(p)


@test("s4_size")
def _(out):
    for ext in ([7], [3, 5], [2, 3, 4], [1, 6], [2, 1, 3, 2]):
        out.printf("%d %d %d %d\n", *stream_size(Stream(ext)))


@test("s4_leading_ones")
def _(out):
    ha, hb = fl([1, 2, 3, 4, 5, 6]), fl([10, 20, 30, 40, 50, 60])
    a, b, c = Stream([1, 6]), Stream([6]), Stream([1, 1, 6])
    stream_read(a, ha, 4)
    stream_read(b, hb, 4)
    launch([c], [a, b], lambda inv, x, y, cur: [x + y + inv.indexof_out()[1] * F(100)])
    out.stream_print(c)
    three = Stream([3])
    stream_read(three, ha, 4)
    d = Stream([1, 6])
    launch([d], [three], lambda inv, x, cur: [x])
    out.stream_print(d)
    e = Stream([6])
    launch([e], [c], lambda inv, x, cur: [x])
    out.stream_print(e)


@test("s4_extents_runtime")
def _(out):
    def label(inv, cur):
        i = inv.indexof_out()
        return [i[1] * F(10) + i[0]]
    a = Stream([2, 3])
    launch([a], [], label)
    out.stream_print(a)
    b = Stream([4])
    launch([b], [], label)
    out.stream_print(b)
    s = stream_size(a)
    out.printf("%d %d\n", s[0], s[1])


@test("s4_zeroed_scoped")
def _(out):
    for k in range(3):
        s = Stream([4])
        launch([s], [s], lambda inv, x, cur: [x + F(1)])
        launch([s], [s], lambda inv, x, cur: [x + F(1)])
        out.stream_print(s)
    out.stream_print(Stream([2], zero=vec(0, 0, 0, 0)))


@test("s4_uchar4")
def _(out):
    h = [(10 * i, 20 * i + 1, 30 * i + 2, 7) for i in range(3)]
    a, b = Stream([3]), Stream([3])
    stream_read(a, h, 4)

    def swap_rb(inv, p, cur):
        q = [p[2], p[1], p[0], p[3]]
        q[3] = 255
        q[1] = (p[1] + 250) % 256  # int → uchar conversion wraps
        return [tuple(q)]
    launch([b], [a], swap_rb)
    for v in b.values():
        out.printf("%d %d %d %d\n", *v)


@test("s4_zero_extent")
def _(out):
    a = from_list([4], fl([1, 2, 3, 4]))
    b = Stream([4])
    launch([b], [a], lambda inv, x, cur: [F(2) * x])
    out.stream_print(b)
    raise BrookError("stream 'unused' <0, 4> (line 9) has an extent of 0: it cannot be used",
                     "twice(a, unused)")


@test("s4_empty_domain")
def _(out):
    s = from_list([3, 4], fl([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))
    total = F(-1)
    for i in range(5):
        if i < 4:
            view = s.domain((i, 0), (4, 3))
            launch([view], [view], lambda inv, x, cur: [x + F(10)])
            row = s.domain((i, 0), (4, 1))
            acc = None
            for v in row.values():
                acc = v if acc is None else acc + v
            total = acc  # the target is the fold of the view alone
        out.printf("i=%d sum=%g\n", i, total)
    out.stream_print(s)
    raise BrookError("domain (1, 2) to (3, 2) is empty: it can only be the output of a launch "
                     "(or the input of a reduction), which then runs nothing",
                     "streamPrint(s.domain")


@test("s4_int4")
def _(out):
    ha = [(7, -7, 9, 5), (100, -3, 0, 8)]
    hb = [(2, 2, 0, -3), (7, 2, 5, 0)]
    for i in range(2):
        a, b = ha[i], hb[i]
        out.printf("m %d %d %d %d\n", *[x * 3 - y for x, y in zip(a, b)])
        out.printf("q %d %d %d %d\n", *[idiv(x, y) for x, y in zip(a, b)])
        out.printf("r %d %d %d %d\n", *[imod(x, y) for x, y in zip(a, b)])


# --- §5 kernels: resampling, indexof, instance, outputs ---------------------


def ratio_test(n_in, n_out):
    def run(out):
        a = from_list([n_in], [F(10) * i + F(1) for i in range(n_in)])
        b, c = Stream([n_out]), Stream([n_out])
        launch([b, c], [a], lambda inv, x, cb, cc: [x, inv.indexof_in(0)[0]])
        out.stream_print(b)
        out.stream_print(c)
    return run


for _n_in, _n_out in ((4, 6), (6, 4), (4, 7), (7, 4)):
    test("s5_ratio_%d_to_%d" % (_n_in, _n_out))(ratio_test(_n_in, _n_out))


@test("s10_fp_relaxed")
def _(out):
    # Every value here is exact in float32, so contraction cannot change it.
    x = from_list([4], fl([0, 1, 2, 3]))
    y = Stream([4])
    launch([y], [x], lambda inv, v, cur: [v * v * F(0.5) + v * F(2) + F(1)])
    out.stream_print(y)


@test("s5_stride_20_to_10")
def _(out):
    a = from_list([20], [F(i) * F(0.5) for i in range(20)])
    b = Stream([10])
    launch([b], [a], lambda inv, x, cur: [x])
    out.stream_print(b)


@test("s5_repeat_10_to_50")
def _(out):
    a = from_list([10], fl(range(10)))
    b = Stream([50])
    launch([b], [a], lambda inv, x, cur: [x + inv.indexof_out()[0] / F(100)])
    for i, v in enumerate(b.values()):
        out.printf("%.2f%s", v, "\n" if i % 10 == 9 else " ")


@test("s5_ratio_2d_3x5_to_4x2")
def _(out):
    a = from_list([3, 5], [F(r * 10 + c) for r in range(3) for c in range(5)])
    b, where = Stream([4, 2]), Stream([4, 2])
    launch([b, where], [a], lambda inv, x, cb, cw: [x, inv.indexof_in(0)[:2]])
    out.stream_print(b)
    out.stream_print(where)


def copy_kernel(inv, x, cur):
    return [x]


@test("s5_rank_1d_into_2d")
def _(out):
    a = from_list([8], fl(range(8)))
    b = Stream([4, 8])
    launch([b], [a], copy_kernel)
    out.stream_print(b)


@test("s5_rank_2d_into_1d")
def _(out):
    a = from_list([4, 8], [F(r * 10 + c + 1) for r in range(4) for c in range(8)])
    b, c = Stream([4]), Stream([2])
    launch([b], [a], copy_kernel)
    launch([c], [a], copy_kernel)
    out.stream_print(b)
    out.stream_print(c)


@test("s5_rank_1d_into_3d")
def _(out):
    a = from_list([3], fl([10, 20, 30]))
    b = Stream([3, 2, 2])
    launch([b], [a], lambda inv, x, cur: [x + inv.indexof_out()[1] * F(0.5)])
    out.stream_print(b)


@test("s5_rank_leading_one")
def _(out):
    a = from_list([1, 8], fl(range(8)))
    b = Stream([4, 8])
    launch([b], [a], copy_kernel)
    out.stream_print(b)


@test("s5_rank_equal_view")
def _(out):
    a = from_list([3, 4], fl(range(12)))
    o = Stream([4, 6])

    def tag(inv, x, cur):
        i = inv.indexof_in(0)
        return [x + i[0] * F(100) + i[1] * F(1000)]
    launch([o], [a.domain((1, 1), (3, 2))], tag)
    out.stream_print(o)
    b = from_list([2, 1, 3], fl(range(6)))
    c = Stream([2, 2, 6])
    launch([c], [b], copy_kernel)
    out.stream_print(c)


@test("s5_divergent_gangs")
def _(out):
    h = [i + 1 for i in range(37)]
    init = [-i for i in range(37)]
    n, steps, peak, mark = Stream([37]), Stream([37]), Stream([37]), Stream([37])
    stream_read(n, h, 4)
    stream_read(steps, init, 4)
    stream_read(peak, init, 4)
    stream_read(mark, h, 4)

    def collatz(inv, nv, st, pk, mk):
        mk = mk * 2
        if imod(nv, 5) == 0:
            return [st, pk, mk]
        x, k, top = nv, 0, nv
        while x != 1:
            if imod(x, 2) == 0:
                x = idiv(x, 2)
                continue
            x = 3 * x + 1
            k += 1
            if x > top:
                top = x
            if k >= 12:
                break
        st = k
        if top > 100:
            pk = top
        return [st, pk, mk]
    launch([steps, peak, mark], [n], collatz)
    hs, hp, hm = [None] * 37, [None] * 37, [None] * 37
    stream_write(steps, hs, 4)
    stream_write(peak, hp, 4)
    stream_write(mark, hm, 4)
    for i in range(37):
        out.printf("%d: steps %d peak %d mark %d\n", h[i], hs[i], hp[i], hm[i])

    g, acc = Stream([3, 19]), Stream([3, 19])
    stream_read(g, [r * 100 + c for r in range(3) for c in range(19)], 4)
    gs = g.snapshot()

    def tri(inv, cur):
        col, row = int(inv.pos[1]), int(inv.pos[0])
        s = 0
        for i in range(col + 1):
            if imod(i + row, 4) == 3:
                continue
            s += gather(gs, row + 1, i - 2)
        return [s]
    launch([acc], [], tri)
    ha = [None] * 57
    stream_write(acc, ha, 4)
    for r in range(3):
        for c in range(19):
            out.printf("%d ", ha[r * 19 + c])
        out.printf("\n")


@test("s5_indexof_output")
def _(out):
    a, b = Stream([2, 3]), Stream([3])
    launch([a], [], lambda inv, cur: [inv.indexof_out()])
    out.stream_print(a)
    launch([b], [], lambda inv, cur: [inv.indexof_out()])
    out.stream_print(b)


@test("s5_indexof_input")
def _(out):
    o = Stream([4, 3])
    probe = lambda inv, x, cur: [inv.indexof_in(0)[:2]]  # noqa: E731
    for ext in ([2, 6], [2], [8]):
        launch([o], [Stream(ext)], probe)
        out.stream_print(o)
    p = Stream([4])
    launch([p], [Stream([4, 8])], probe)
    out.stream_print(p)


@test("s5_instance")
def _(out):
    a = Stream([3, 4])

    def pos(inv, cur):
        i = inv.instance()
        return [i[0] + i[1] * 100 + i[3] * 1000]
    launch([a], [], pos)
    h = a.values()
    for r in range(3):
        out.printf("%d %d %d %d\n", *h[r * 4:r * 4 + 4])
    src = from_list([2], fl([1.5, 2.5]))
    b = Stream([6])
    launch([b], [src], lambda inv, x, cur: [x * inv.instance()[0]])
    out.stream_print(b)


@test("s5_constants")
def _(out):
    x = from_list([2], fl([0.5, 1.0]))
    coef_a, coef_b = F(0.5), 6

    def k(i, u, ch, uc, sh, flag, d, f, f2, f3, f4, i2):
        def body(inv, xv, cur):
            return [(xv + i + u,
                     F(ch + uc + sh),
                     (F(1000) if flag else F(0)) + F(d) + F(f),
                     f2[0] + f2[1] + f3[2] + f4[3] + i2[1] + coef_a * coef_b)]
        return body
    o = Stream([2])
    launch([o], [x], k(-2, 3000000000, -5, 250, -300, 1, 0.25, 1.5,
                       vec(1, 2), vec(0, 0, 4), vec(0, 0, 0, 8), (0, 16)))
    for v in o.values():
        out.printf("%.2f %.2f %.2f %.2f\n", *v)
    launch([o], [x], k(3, 4, 65, 66, 2, 0, 0.5, -1.0,
                       vec(0, 0), vec(1, 1, 1), vec(2, 2, 2, 2), (3, 3)))
    out.stream_print(o)


@test("s5_multiple_outputs")
def _(out):
    a = from_list([4], [vec(1, 2), vec(5, 3), vec(-1, -1), vec(0.5, 0.25)])
    s, d, sw = Stream([4]), Stream([4]), Stream([4])
    launch([s, d, sw], [a], lambda inv, v, *cur: [v[0] + v[1], v[0] - v[1], (v[1], v[0])])
    out.stream_print(s)
    out.stream_print(d)
    out.stream_print(sw)


@test("s5_inout_same_stream")
def _(out):
    s = from_list([6], fl([1, 2, 3, 4, 5, 6]))
    # A gather argument is an input too: g is the stream as it was before the call.
    g = s.snapshot()
    launch([s], [], lambda inv, cur: [gather(g, inv.indexof_out()[0] - F(1))])
    out.stream_print(s)
    g = s.snapshot()

    def neighbours(inv, a, cur):
        i = inv.indexof_out()[0]
        return [a + gather(g, i - F(1)) + gather(g, i + F(1))]
    launch([s], [s], neighbours)
    out.stream_print(s)
    launch([s], [s], lambda inv, a, cur: [a * F(2)])
    out.stream_print(s)


@test("s5_output_shape_error")
def _(out):
    a, d, same = Stream([8]), named(Stream([8]), "d"), named(Stream([1, 8]), "same")
    launch([d, same], [a], lambda inv, x, c1, c2: [x + F(1), x - F(1)])
    out.stream_print(same)
    b = named(Stream([4, 4]), "b")
    launch([d, b], [a], lambda inv, x, c1, c2: [x + F(1), x - F(1)], at="two(a, d, b)")


@test("s5_output_current_value")
def _(out):
    h = fl([1, 2, 3, 4, 5])
    a, o = from_list([5], h), from_list([5], h)
    launch([o], [a], lambda inv, x, cur: [cur + x])
    launch([o], [a], lambda inv, x, cur: [cur + x])
    out.stream_print(o)
    launch([o], [], lambda inv, cur: [F(-1) if inv.indexof_out()[0] > F(2) else cur])
    out.stream_print(o)


# --- §5 gathers --------------------------------------------------------------


@test("s5_gather_1d")
def _(out):
    g = from_list([5], fl([10, 11, 12, 13, 14]))
    i = from_list([8], [0, 4, 2, -3, 5, 25, 1, -1])
    o = Stream([8])
    launch([o], [i], lambda inv, k, cur: [gather(g, k)])
    out.stream_print(o)


@test("s5_gather_clamp_2d")
def _(out):
    g = from_list([3, 4], [F(r * 10 + c) for r in range(3) for c in range(4)])
    p = from_list([8], [(-1, -1), (4, 1), (2, 5), (-7, 2), (9, 9), (1, -1), (3, 0), (0, 2)])
    o = Stream([8])
    launch([o], [p], lambda inv, v, cur: [gather(g, v[1], v[0])])
    out.stream_print(o)
    launch([o], [p], lambda inv, v, cur: [gather_v(g, v)])
    out.stream_print(o)


@test("s5_gather_float_index")
def _(out):
    g = from_list([8], fl(range(100, 108)))
    f = from_list([10], fl([2.9, 2.7, 2.75, 1.74, 0.75, 0.74, -0.2, -0.3, 7.8, 6.76]))
    o = Stream([10])
    launch([o], [f], lambda inv, x, cur: [gather(g, x)])
    out.stream_print(o)


@test("s5_float_index_counter")
def _(out):
    a = from_list([3, 4], fl([i * 4 + j + 1 for i in range(3) for j in range(4)]))
    b = from_list([4, 5], fl([(i + 2 * j) % 5 - 1 for i in range(4) for j in range(5)]))
    c = Stream([3, 5])

    def mm(n):
        def body(inv, cur):
            ij = inv.indexof_out()
            acc, k = F(0), F(0)
            while k < n:
                acc = acc + gather_v(a, (k, ij[1])) * gather_v(b, (ij[0], k))
                k = k + F(1)
            return [acc]
        return body
    launch([c], [], mm(F(4)))
    out.stream_print(c)
    launch([c], [], mm(F(6)))
    out.stream_print(c)
    g = from_list([8], fl(range(1, 9)))
    x, o = from_list([20], fl([i % 3 for i in range(20)])), Stream([20])

    def walk(inv, xv, cur):
        s, k = F(0), F(5)
        while k > F(-3):
            s = s + gather(g, k)
            k = k - F(2)
        j = F(-2)
        while j < F(12):
            s = s + gather(g, j) * F(10)
            j = j + F(1)
        big = F(16777215)
        while big < F(16777230):
            s = s + (gather(g, big) * F(100) + big - F(16777215))
            big = big + F(3)
        r = F(2) if xv > F(1.5) else F(0) + F(1)
        s = s + gather_v(g, (r, F(0))) * F(1000)
        return [s]
    launch([o], [x], walk)
    out.stream_print(o)


@test("s5_float_offset_gather")
def _(out):
    img = from_list([4, 5], fl([(i * 7 + j * 3) % 11 - 4 for i in range(4) for j in range(5)]))
    r = Stream([4, 5])

    def taps(inv, cur):
        here = inv.indexof_out()
        s = F(0)
        dy = F(-2)
        while dy <= F(2):
            dx = F(2)
            while dx >= F(-2):
                plus = gather_v(img, (here[0] + dx, here[1] + dy))
                minus = gather_v(img, (here[0] - dx, here[1] - dy))
                s = s * F(0.5) + (plus - minus * F(0.25))
                dx = dx - F(1)
            dy = dy + F(1)
        b = F(16777213)
        while b < F(16777221):
            s = s + gather_v(img, (here[0] + b, here[1] + F(0))) * F(3) + \
                gather_v(img, (here[0] - F(0), here[1] - b)) * F(5)
            b = b + F(2)
        return [s]
    launch([r], [], taps)
    out.stream_print(r)


@test("s5_exact_position_gather")
def _(out):
    img = from_list([3, 70], fl([(i * 5 + j * 3) % 13 - 6 for i in range(3) for j in range(70)]))
    r = Stream([3, 70])

    def taps(inv, cur):
        here = inv.indexof_out()
        moved = (here[0] * F(0.5) + F(0.8), here[1])
        flip = (here[1], here[0])
        s = gather_v(img, (here[0] + F(1), here[1] + F(0))) + F(2) * gather_v(img, (here[0] - F(3), here[1] - F(-1)))
        k = F(-2)
        while k <= F(40):
            s = s * F(0.5) + gather_v(img, (k + here[0], F(0) + here[1])) - gather_v(img, (here[0] - k, here[1] - F(1)))
            k = k + F(7)
        s = s + F(3) * gather_v(img, moved) + F(5) * gather_v(img, flip)
        return [s]
    launch([r], [], taps)
    out.stream_print(r)


@test("s5_float_integer_arith")
def _(out):
    img = from_list([10, 9], fl([(i * 7 + j * 3) % 11 for i in range(10) for j in range(9)]))
    a, b, c = Stream([10, 9]), Stream([10, 9]), Stream([10, 9])

    def fmodf(x, y):
        return F(math.fmod(float(x), float(y)))  # exact in IEEE arithmetic

    def regroup(inv, *cur):
        px, py = inv.indexof_out()[:2]
        g = ffloor(py / F(5))
        y = py - g * F(5)
        half_x = ffloor(px / F(2))
        odd_x = px - F(2) * ffloor(px / F(2))
        m = fmodf(px, F(3))
        va = gather_v(img, (half_x + odd_x * F(7), g * F(5) + y)) + F(100) * m
        vb = gather_v(img, (px - F(1), g * F(4) + y - F(1))) + F(10) * g + F(1000) * y
        neg = ffloor((px - F(5)) / F(2))
        frac = ffloor(px / F(2.5))
        other = px - ffloor(py / F(4)) * F(4)
        w = ffloor(px / F(3)) + F(0.5)
        vc = neg + F(100) * frac + F(10000) * other + gather_v(img, (w, other * F(0.5))) * F(0.25)
        return [va, vb, vc]
    launch([a, b, c], [], regroup)
    out.stream_print(a)
    out.stream_print(b)
    out.stream_print(c)


@test("s5_int_position_gather")
def _(out):
    img = from_list([3, 70], fl([(i * 5 + j * 3) % 13 - 6 for i in range(3) for j in range(70)]))
    r = Stream([3, 70])
    big = 4294967290

    def taps(inv, cur):
        x, y = int(inv.indexof_out()[0].v), int(inv.indexof_out()[1].v)
        z = x * 2
        s = gather(img, y, x + 1) + F(2) * gather(img, y + 1, x - 3)
        for d in range(-9, 81, 7):
            s = s * F(2) + gather(img, y, x + d) - gather(img, y - 1, d + x) + F(0.25) * gather(img, y, x - d)
        s = s + F(3) * gather(img, y, (x + big) % 2**32) + F(5) * gather(img, y + 1, x - 2) + F(7) * gather(img, y, z)
        return [s + F(0.5) * gather(img, y, x + 5)]
    launch([r], [], taps)
    out.stream_print(r)


@test("s5_gather_unsigned_huge")
def _(out):
    img = from_list([2, 40], fl([(i * 7 + j * 3) % 11 for i in range(2) for j in range(40)]))
    r = Stream([2, 40])
    for off in (2, 2**63):
        def pick(inv, cur):
            x, y = int(inv.indexof_out()[0].v), int(inv.indexof_out()[1].v)
            return [gather(img, 0, (x - off) % 2**64) + F(2) * gather(img, 1, (off + x) % 2**64) +
                    F(4) * gather(img, y, (x - 3) % 2**64) + F(8) * gather(img, 0, (x - 5) % 2**32)]
        launch([r], [], pick)
        out.stream_print(r)


@test("s5_gather_host_array")
def _(out):
    table = from_list([5], fl([0.5, 1.5, 2.5, 3.5, 4.5]))
    grid = from_list([3, 4], fl(range(1, 13)))
    i, o = from_list([4], fl([0, 1, 2, 3])), Stream([4])
    launch([o], [i], lambda inv, x, cur: [gather(table, x)])
    out.stream_print(o)
    launch([o], [i], lambda inv, x, cur: [gather(grid, x, x + F(1))])
    out.stream_print(o)


@test("s5_gather_vector_index")
def _(out):
    g = from_list([4, 5], [F(r * 10 + c) for r in range(4) for c in range(5)])
    v = from_list([6], [vec(0, 0), vec(4, 3), vec(1.8, 2.7), vec(2.76, 0.5), vec(-1, 1), vec(3.2, 9)])
    o = Stream([6])
    launch([o], [v], lambda inv, x, cur: [gather_v(g, x)])
    out.stream_print(o)
    launch([o], [v], lambda inv, x, cur: [gather_v(g, x + (F(99),))])
    out.stream_print(o)
    launch([o], [v], lambda inv, x, cur: [gather_v(g, (x[0], x[1], F(-5), F(7)))])
    out.stream_print(o)


@test("s5_gather_3d_4d")
def _(out):
    t = Stream([3, 4, 5])
    launch([t], [], lambda inv, cur: [F(inv.pos[0] * 100 + inv.pos[1] * 10 + inv.pos[2])])
    o = Stream([3, 4, 5])

    def by_vector(arr, shift):
        return lambda inv, cur: [gather_v(arr, vadd(inv.indexof_out()[:3], shift))]

    def by_scalars(arr, dy):
        def body(inv, cur):
            x, y, z, _ = inv.instance()
            return [gather(arr, z, y + dy, x + 2)]
        return body

    launch([o], [], by_vector(t, vec(1.0, -1.0, 0.0)))
    out.stream_print(o)
    launch([o], [], by_scalars(t, -1))
    out.stream_print(o)
    small = Stream([2, 2, 3])
    launch([small], [], by_vector(t.domain((1, 1, 1), (4, 3, 3)), vec(0.0, 0.0, 1.0)))
    out.stream_print(small)
    h = from_list([2, 3, 4], [F(i * 100 + j * 10 + k) for i in range(2) for j in range(3) for k in range(4)])
    q = Stream([2, 3, 4])
    launch([q], [], by_scalars(h, 1))
    out.stream_print(q)
    g = Stream([2, 3, 4, 5])
    launch([g], [], lambda inv, cur: [inv.indexof_out()])
    r = Stream([3, 2, 4, 2])

    def swizzled(inv, cur):
        i = inv.indexof_out()
        zwxy = (i[2], i[3], i[0], i[1])
        return [gather_v(g, vadd(zwxy, vec(0.3, -0.2, 0.0, 0.7)))]

    launch([r], [], swizzled)
    out.stream_print(r)


@test("s5_gather_float4_elements")
def _(out):
    g = from_list([4], [vec(4 * i + 1, 4 * i + 2, 4 * i + 3, 4 * i + 4) for i in range(4)])
    o = Stream([4])
    launch([o], [], lambda inv, cur: [tuple(reversed(gather(g, 3 - inv.instance()[0])))])
    out.stream_print(o)


@test("s5_gather_stencil")
def _(out):
    g = from_list([3, 4], fl([1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 8]))
    o = Stream([3, 4])

    def blur(inv, cur):
        p = inv.indexof_out()[:2]
        at = lambda dx, dy: gather_v(g, vadd(p, vec(dx, dy)))  # noqa: E731
        return [gather_v(g, p) * F(4) + at(1, 0) + gather_v(g, vsub(p, vec(1, 0)))
                + at(0, 1) + gather_v(g, vsub(p, vec(0, 1)))]
    launch([o], [], blur)
    out.stream_print(o)


@test("s5_float_counted_stencil")
def _(out):
    img = from_list([5, 37], fl([(x * 7 + y * 13) % 11 for y in range(5) for x in range(37)]))
    o = Stream([5, 37], zero=vec(0, 0, 0, 0))

    def stencil(inv, cur):
        here = inv.indexof_out()[:2]
        at = lambda dx, dy: gather_v(img, vadd(here, vec(dx, dy)))  # noqa: E731
        total = F(0)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                total = total + (F(2) - F(abs(dy))) * (F(2) - F(abs(dx))) * at(dx, dy)
        skip = at(-1, 0) + at(1, 0)  # dx = -1, then 0 stepped to 1 in the body
        down = F(0)
        for dy in (2, 0, -2):
            down = down * F(2) + at(0, dy)
        ne = at(0, 1) + at(2, 1)
        return [vec(total / F(16), skip, down, ne)]
    launch([o], [], stencil)
    out.stream_print(o)


# --- §6 iterators ---------------------------------------------------------------


@test("s6_iter_1d_float")
def _(out):
    it = iterator([10], 0.0, 1.0)
    out.stream_print(it)
    o = Stream([10])
    launch([o], [it], lambda inv, x, cur: [ffloor(x * F(10))])
    out.stream_print(o)
    out.stream_print(iterator([5], 2.0, -3.0))


@test("s6_iter_100")
def _(out):
    it = iterator([100], 0.0, 1.0)
    for i, v in enumerate(it.values()):
        out.printf("%.2f%s", v, "\n" if i % 10 == 9 else " ")
    n = [int(x * F(100)) for x in it.values()]
    out.printf("mismatches %d\n", sum(1 for i in range(100) if n[i] != i))


@test("s6_iter_exact")
def _(out):
    for name, n, lo, hi in (("a", 3, 0.0, 1.0), ("b", 7, 1.0, -1.0), ("c", 4, 0.1, 0.7)):
        for v in iterator([n], lo, hi).values():
            out.printf("%s %.9f\n", name, v)


@test("s6_iter_vectors")
def _(out):
    out.stream_print(iterator([4], (0.0, 10.0), (4.0, 2.0)))
    b = iterator([5], (0.0, 1.0, -5.0, 100.0), (5.0, 1.0, 5.0, 0.0))
    out.stream_print(b)
    s = Stream([5])
    launch([s], [b], lambda inv, v, cur: [v[0] + v[1] + v[2] + v[3]])
    out.stream_print(s)


@test("s6_iter_2d")
def _(out):
    it = iterator([3, 4], (-1.0, 10.0), (1.0, 16.0))
    out.stream_print(it)
    x, y = Stream([3, 4]), Stream([3, 4])
    launch([x, y], [it], lambda inv, v, cx, cy: [v[0], v[1]])
    out.stream_print(x)
    out.stream_print(y)


@test("s6_iter_3d_4d")
def _(out):
    cube = iterator([2, 3, 4], (0.0, 1.0, -1.0), (8.0, 4.0, 1.0))
    out.stream_print(cube)
    hyper = iterator([2, 2, 2, 3], (0.0, 0.0, 0.0, 0.0), (3.0, 1.0, 10.0, -2.0))
    out.stream_print(hyper)
    o = Stream([2, 2, 2, 3])
    launch([o], [hyper], lambda inv, v, cur: [v[0] + v[1] + v[2] + v[3]])
    out.stream_print(o)
    # A smaller 3-D output resamples the iterator like any input.
    c = Stream([2, 3, 2])
    launch([c], [cube], lambda inv, v, cur: [v[0] * F(10) + v[2]])
    out.stream_print(c)


@test("s6_iter_resampled")
def _(out):
    it = iterator([8], 0.0, 8.0)
    for ext in ([4], [16], [4, 3]):
        o = Stream(ext)
        launch([o], [it], copy_kernel)
        out.stream_print(o)
    grid = iterator([2, 2], (0.0, 0.0), (2.0, 2.0))
    d = Stream([4, 4])
    launch([d], [grid], copy_kernel)
    out.stream_print(d)


# --- §7 reductions -------------------------------------------------------------


def fsum(acc, x):
    return acc + x


@test("s7_reduce_lanes")
def _(out):
    h = [F(r * 300 + c) for r in range(64) for c in range(300)]
    k = [F((r * 300 + c) % 17) for r in range(64) for c in range(300)]
    s, q = from_list([64, 300], h), from_list([64, 300], k)
    first = lambda acc, x: acc  # noqa: E731
    last = lambda acc, x: x  # noqa: E731
    line = "first %.0f last %.0f sum %.0f\n"
    out.printf("value: " + line, reduce_to_value(s, first), reduce_to_value(s, last),
               reduce_to_value(q, fsum))
    rf, rl, rs = Stream([64, 1]), Stream([64, 1]), Stream([64, 1])
    reduce_to_stream(s, rf, first)
    reduce_to_stream(s, rl, last)
    reduce_to_stream(q, rs, fsum)
    for r in range(0, 64, 9):
        out.printf("row %d: " + line, r, rf.get((r, 0)), rl.get((r, 0)), rs.get((r, 0)))
    bf, bl, bs = Stream([32, 4]), Stream([32, 4]), Stream([32, 4])
    reduce_to_stream(s, bf, first)
    reduce_to_stream(s, bl, last)
    reduce_to_stream(q, bs, fsum)
    for r in range(0, 32, 7):
        for c in range(4):
            out.printf("block %d,%d: " + line, r, c, bf.get((r, c)), bl.get((r, c)), bs.get((r, c)))
    out.printf("value again: " + line, reduce_to_value(s, first), reduce_to_value(s, last),
               reduce_to_value(q, fsum))


@test("s7_reduce_step_order")
def _(out):
    def ramp(n, rows=1):
        return [(i * 2654435761 + 12345) & 0xffffffff for i in range(n * rows)]

    def rampf(n, rows=1):
        return [F(1) + F(i % 1000) * F(0.001) for i in range(n * rows)]

    mix = lambda acc, x: ((acc * 31) & 0xffffffff) ^ x  # noqa: E731
    # A double square root rounded to float is the float square root.
    root = lambda acc, x: F(math.sqrt(float(acc))) + x  # noqa: E731
    hs = [fold(ramp(n), mix) for n in (4096, 100003, 1048583)]
    hs.append(fold(ramp(1000, 300), mix))
    fs = [fold(rampf(n), root) for n in (4096, 1048583)]
    fs.append(fold(rampf(1000, 300), root))
    out.printf("mix %u %u %u %u\n", *hs)
    out.printf("root %.9g %.9g %.9g\n", *fs)


@test("s7_reduce_float_regrouping")
def _(out):
    h = [F(1) + F(i % 1000) * F(0.001) + F(i % 7) * F(1e-5) for i in range(100000)]
    h2 = [(F(0.1) * F(i % 13), F(1000) + F(0.01) * F(i % 11)) for i in range(3000)]
    s, s2 = from_list([100000], h), from_list([3000], h2)
    add2 = lambda acc, x: vadd(acc, x)  # noqa: E731
    v2 = reduce_to_value(s2, add2)
    out.printf("value %.9g view %.9g short %.9g float2 %.9g %.9g\n", reduce_to_value(s, fsum),
               reduce_to_value(s.domain(17, 1017), fsum), reduce_to_value(s.domain(5, 261), fsum),
               v2[0], v2[1])
    m = from_list([6, 5000], h[:30000])
    rows, blocks, whole = Stream([6, 1]), Stream([2, 5]), Stream([1])
    reduce_to_stream(m, rows, fsum)
    reduce_to_stream(m, blocks, fsum)
    reduce_to_stream(m, whole, fsum)
    for r in range(6):
        out.printf("row %d %.9g\n", r, rows.get((r, 0)))
    for r in range(2):
        for c in range(5):
            out.printf("block %d,%d %.9g\n", r, c, blocks.get((r, c)))
    out.printf("all %.9g\n", whole.get((0,)))


@test("s7_reduce_sum_scalar")
def _(out):
    s = from_list([10], [F(i) * F(0.5) - F(1) for i in range(10)])
    out.printf("sum %.2f\n", reduce_to_value(s, fsum))
    g = from_list([3, 4], fl(range(1, 13)))
    out.printf("sum 2-D %.2f\n", reduce_to_value(g, fsum))


@test("s7_reduce_max_scalar")
def _(out):
    h = fl([-5, -3.5, -7, -1.25, -9, -2, -8, -4])
    s, g = from_list([8], h), from_list([2, 4], h)
    biggest = lambda acc, x: fmax(acc, x)  # noqa: E731
    smallest = lambda acc, x: x if x < acc else acc  # noqa: E731
    out.printf("%.2f %.2f %.2f %.2f\n", reduce_to_value(s, biggest), reduce_to_value(s, smallest),
               reduce_to_value(g, biggest), reduce_to_value(g, smallest))


@test("s7_reduce_product_scalar")
def _(out):
    s = from_list([6], fl([1.5, 2, -1, 0.5, 4, 3]))
    out.printf("product %.2f\n", reduce_to_value(s, lambda acc, x: acc * x))


@test("s7_reduce_1d_to_stream")
def _(out):
    s = from_list([12], fl(range(1, 13)))
    for n in (3, 12, 1):
        t = Stream([n])
        reduce_to_stream(s, t, fsum)
        out.stream_print(t)


@test("s7_reduce_2d_to_stream")
def _(out):
    s = from_list([4, 6], [F(r * 10 + c) for r in range(4) for c in range(6)])
    for ext in ([2, 3], [4, 1]):
        t = Stream(ext)
        reduce_to_stream(s, t, fsum)
        out.stream_print(t)


@test("s7_reduce_leading_ones")
def _(out):
    s = from_list([4, 6], [F(r * 10 + c) for r in range(4) for c in range(6)])
    last = lambda acc, x: x  # noqa: E731
    two = Stream([1, 2])
    reduce_to_stream(s, two, fsum)
    out.stream_print(two)
    reduce_to_stream(s, two, last)
    out.stream_print(two)
    q = from_list([2, 2], fl([1, 2, 3, 4]))
    one = Stream([1])
    reduce_to_stream(q, one, fsum)
    out.stream_print(one)
    one11 = Stream([1, 1])
    reduce_to_stream(s, one11, fsum)
    out.stream_print(one11)
    one111 = Stream([1, 1, 1])
    reduce_to_stream(s, one111, last)
    out.stream_print(one111)
    row = from_list([1, 8], fl(range(1, 9)))
    four = Stream([4])
    reduce_to_stream(row, four, fsum)
    out.stream_print(four)
    reduce_to_stream(four, one11, fsum)
    out.stream_print(one11)
    big = Stream([3, 2])
    reduce_to_stream(s, big.domain((0, 1), (2, 2)), fsum)
    out.stream_print(big)


@test("s7_reduce_block_order")
def _(out):
    s = from_list([4, 4], [F(r * 10 + c) for r in range(4) for c in range(4)])
    first = lambda acc, x: acc  # noqa: E731
    last = lambda acc, x: x  # noqa: E731
    for ext in ([2, 2], [4, 2]):
        f, l_ = Stream(ext), Stream(ext)
        reduce_to_stream(s, f, first)
        reduce_to_stream(s, l_, last)
        out.stream_print(f)
        out.stream_print(l_)
    out.printf("%.2f %.2f\n", reduce_to_value(s, first), reduce_to_value(s, last))


@test("s7_reduce_extra_args")
def _(out):
    caps = from_list([3], fl([5, 10, 100]))
    s = from_list([8], fl([50, 1, 20, 2, 3, 7, 60, 4]))

    def capmax(which):
        return lambda acc, x: fmax(acc, fmin(x, gather(caps, which)))
    out.printf("cap 10: %.2f\n", reduce_to_value(s, capmax(1)))
    pairs = Stream([4])
    reduce_to_stream(s, pairs, capmax(0))
    out.stream_print(pairs)
    reduce_to_stream(s, pairs, capmax(2))
    out.stream_print(pairs)


MATRICES = [vec(1, 1, 0, 1), vec(2, 0, 0, 1), vec(0, 1, 1, 0), vec(1, 0, 3, 1),
            vec(1, 2, 0, 1), vec(1, 0, 0, -1)]


@test("s7_reduce_matrix_float4")
def _(out):
    s = from_list([6], MATRICES)
    left = lambda acc, x: mat2_mul(acc, x)  # noqa: E731
    right = lambda acc, x: mat2_mul(x, acc)  # noqa: E731
    out.printf("left  %.0f %.0f %.0f %.0f\n", *reduce_to_value(s, left))
    out.printf("right %.0f %.0f %.0f %.0f\n", *reduce_to_value(s, right))
    halves = Stream([2])
    reduce_to_stream(s, halves, left)
    out.stream_print(halves)
    reduce_to_stream(s, halves, right)
    out.stream_print(halves)


@test("s7_reduce_matrix_struct")
def _(out):
    h = [[vec(1, i * 4 + j + 1, 0, 1) for j in range(4)] for i in range(2)]
    h[0][1] = vec(0, 1, 1, 0)
    h[1][2] = vec(2, 0, 1, 1)
    s = from_list([2, 4], h[0] + h[1])
    chain = lambda acc, x: mat2_mul(acc, x)  # noqa: E731  (fields a, b, c, d = row-major)
    out.printf("%.0f %.0f %.0f %.0f\n", *reduce_to_value(s, chain))
    blocks = Stream([2, 2])
    reduce_to_stream(s, blocks, chain)
    out.stream_print(blocks)


@test("s7_reduce_nondividing")
def _(out):
    s = Stream([10])
    reduce_to_stream(s, Stream([5]), fsum)
    out.printf("ok\n")
    reduce_to_stream(s, Stream([3]), fsum, at="sum(s, t)")


@test("s7_reduce_rank_error")
def _(out):
    out.printf("before\n")
    reduce_to_stream(Stream([4, 4]), Stream([4]), fsum, at="sum(s, t)")


@test("s7_reduce_target_ignored")
def _(out):
    s = from_list([6], [F(2)] * 6)
    out.printf("%.2f\n", reduce_to_value(s, fsum))
    t = from_list([2], [F(1000)] * 2)
    reduce_to_stream(s, t, fsum)
    out.stream_print(t)


@test("s7_reduce_int")
def _(out):
    s = from_list([8], [5, -2, 7, 100, -50, 3, 3, 1])
    isum = lambda acc, x: acc + x  # noqa: E731
    out.printf("%d\n", reduce_to_value(s, isum))
    q = Stream([4])
    reduce_to_stream(s, q, isum)
    out.printf("%d %d %d %d\n", *q.values())
    v = from_list([4], [vec(3, -1), vec(2, 5), vec(7, -4), vec(-6, 0)])
    m = reduce_to_value(v, lambda acc, x: tuple(fmin(a, b) for a, b in zip(acc, x)))
    out.printf("%.2f %.2f\n", *m)


# --- §4 domains (views) ------------------------------------------------------


@test("s4_view_input")
def _(out):
    s = from_list([10], [F(i * 10) for i in range(10)])
    o = Stream([5])
    launch([o], [s.domain(2, 7)], copy_kernel)
    out.stream_print(o)
    launch([o], [s.domain(2, 7)], lambda inv, x, cur: [inv.indexof_in(0)[0]])
    out.stream_print(o)
    o2 = Stream([10])
    launch([o2], [s.domain(2, 7)], copy_kernel)
    out.stream_print(o2)
    g = from_list([4, 6], [F(r * 10 + c) for r in range(4) for c in range(6)])
    o3 = Stream([2, 3])
    launch([o3], [g.domain((1, 1), (4, 3))], copy_kernel)
    out.stream_print(o3)


@test("s4_view_output")
def _(out):
    g = from_list([4, 5], [F(-1)] * 20)

    def mark(inv, cur):
        i = inv.indexof_out()
        return [F(100) + i[1] * F(10) + i[0]]
    launch([g.domain((1, 1), (4, 3))], [], mark)
    out.stream_print(g)
    s = from_list([8], fl(range(8)))
    v = s.domain(3, 6)
    launch([v], [v], lambda inv, x, cur: [x + F(1)])
    out.stream_print(s)
    small = from_list([3], [F(9)] * 3)
    launch([s.domain(0, 6)], [small], lambda inv, x, cur: [x + F(1)])
    out.stream_print(s)


@test("s4_view_gather")
def _(out):
    s = from_list([10], [F(i * 10) for i in range(10)])
    i = from_list([7], fl([-1, 0, 1, 2, 3, 4, 10]))
    o = Stream([7])
    view = s.domain(3, 6)
    launch([o], [i], lambda inv, x, cur: [gather(view, x)])
    out.stream_print(o)
    g = from_list([4, 6], [F(r * 10 + c) for r in range(4) for c in range(6)])
    v = from_list([5], [vec(0, 0), vec(1, 1), vec(-3, 0), vec(5, 5), vec(2, 0)])
    o2 = Stream([5])
    gview = g.domain((2, 1), (5, 3))
    launch([o2], [v], lambda inv, x, cur: [gather_v(gview, x)])
    out.stream_print(o2)


@test("s4_view_nested")
def _(out):
    s = Stream([6, 8])

    def mark(inv, cur):
        i = inv.indexof_out()
        return [F(10) * (i[1] + F(1)) + i[0] + F(1)]
    launch([s.domain((2, 1), (7, 5)).domain((1, 1), (3, 3))], [], mark)
    out.stream_print(s)
    o = Stream([2, 2])
    launch([o], [s.domain((2, 1), (7, 5)).domain((1, 1), (3, 3))], copy_kernel)
    out.stream_print(o)


@test("s4_view_read_write")
def _(out):
    s = Stream([3, 4])
    stream_read(s.domain((1, 1), (3, 3)), fl([1, 2, 3, 4]), 4)
    out.stream_print(s)
    line = from_list([6], fl(range(10, 16)))
    part = [None] * 3
    stream_write(line.domain(2, 5), part, 4)
    out.printf("%.2f %.2f %.2f\n", *part)
    col = [None] * 3
    stream_write(s.domain((2, 0), (3, 3)), col, 4)
    out.printf("%.2f %.2f %.2f\n", *col)


@test("s4_view_outside_2d")
def _(out):
    s, o = Stream([4, 8]), Stream([2, 10])
    launch([o], [s.domain((0, 0), (8, 4))], copy_kernel)
    out.printf("whole stream ok\n")
    s.domain((2, 1), (12, 3), at="domain(int2(2, 1), int2(12, 3))")


@test("s4_view_outside_1d")
def _(out):
    s = Stream([10])
    launch([s.domain(8, 10)], [], lambda inv, cur: [F(1)])
    out.stream_print(s)
    s.domain(2, 12, at="domain(2, 12)")


@test("s7_reduce_view")
def _(out):
    s = from_list([3, 4], fl(range(1, 13)))
    out.printf("%.2f\n", reduce_to_value(s.domain((1, 0), (3, 2)), fsum))
    rows = Stream([2, 1])
    reduce_to_stream(s.domain((0, 1), (4, 3)), rows, fsum)
    out.stream_print(rows)


# --- §8 gather and scatter operators ---------------------------------------------


@test("s8_gather_fetch")
def _(out):
    a = from_list([6], fl([10, 20, 30, 40, 50, 60]))
    idx = from_list([6], fl([5, 0, 2.4, 2.5, 1.49, 4.6]))
    t = Stream([6])
    gather_op(t, idx, a, "FETCH")
    out.stream_print(t)
    out.stream_print(a)


@test("s8_gather_inc")
def _(out):
    a, idx, t = Stream([4]), from_list([6], fl([1, 1, 3, 1, 0, 3])), Stream([6])
    gather_op(t, idx, a, "INC")
    out.stream_print(t)
    out.stream_print(a)


@test("s8_gather_reduce_op")
def _(out):
    a = from_list([3], fl([1, 2, 3]))
    idx, t = from_list([4], fl([2, 2, 0, 2])), Stream([4])
    gather_op(t, idx, a, lambda x, r: r + x)
    out.stream_print(t)
    out.stream_print(a)
    gather_op(t, idx, a, lambda r, x: r * x + F(1))
    out.stream_print(t)
    out.stream_print(a)


@test("s8_gather_2d_iter")
def _(out):
    a = from_list([3, 4], [F(r * 10 + c) for r in range(3) for c in range(4)])
    idx = from_list([2, 2], [vec(3, 0), vec(0, 2), vec(1.6, 1.4), vec(2.5, 0.49)])
    t = Stream([2, 2])
    gather_op(t, idx, a, "FETCH")
    out.stream_print(t)
    it = iterator([2, 3], (0.0, 0.0), (3.0, 2.0))
    u = Stream([2, 3])
    gather_op(u, it, a, "INC")
    out.stream_print(u)
    out.stream_print(a)


@test("s8_scatter_assign")
def _(out):
    s = from_list([4], fl([1, 2, 3, 4]))
    idx = from_list([4], [3, 0, 3, 1])
    a = from_list([5], fl([-1, -2, -3, -4, -5]))
    scatter_op(s, idx, a, "ASSIGN")
    out.stream_print(a)
    out.stream_print(s)


@test("s8_scatter_add_mul")
def _(out):
    s = from_list([6], fl([1, 2, 3, 4, 5, 6]))
    idx = from_list([6], fl([0, 2, 0, 2.6, 1, 0.4]))
    a = Stream([4])
    scatter_op(s, idx, a, "ADD")
    out.stream_print(a)
    scatter_op(s, idx, a, "MUL")
    out.stream_print(a)


def scatter_sub_test(reduce_first):
    def run(out):
        s = from_list([5], fl([1, 2, 3, 4, 5]))
        idx = from_list([5], fl([0, 1, 0, 0, 2]))
        a = from_list([3], fl([100, 200, 300]))
        if reduce_first:   # sub(reduce acc, x): acc = a[idx[k]], x = s[k]
            scatter_op(s, idx, a, lambda acc, x: acc - x, reduce_first=True)
        else:              # sub(x, reduce acc): x = a[idx[k]], acc = s[k]
            scatter_op(s, idx, a, lambda x, acc: acc - x, reduce_first=False)
        out.stream_print(a)
        out.stream_print(s)
    return run


test("s8_scatter_reduce_first")(scatter_sub_test(True))
test("s8_scatter_reduce_second")(scatter_sub_test(False))


@test("s8_scatter_2d")
def _(out):
    s = from_list([2, 3], fl([1, 2, 3, 4, 5, 6]))
    idx = from_list([2, 3], [vec(0, 0), vec(3.4, 1), vec(1, 1.5), vec(0.6, 0), vec(2, 2), vec(3.4, 2)])
    a = Stream([3, 4])
    scatter_op(s, idx, a, "ADD")
    out.stream_print(a)


@test("s8_scatter_out_of_range")
def _(out):
    s, a = Stream([5]), Stream([10])
    idx = from_list([5], fl([0, 3, 9, 12, 15]))
    out.printf("scattering\n")
    scatter_op(s, idx, a, "ASSIGN", at="streamScatterOp")


@test("s8_gather_out_of_range_2d")
def _(out):
    a, t = Stream([4, 8]), Stream([3, 2])
    idx = from_list([3, 2], [vec(0, 0), vec(7, 3), vec(2, 1), vec(4, 2), vec(1, 1), vec(5, 9)])
    gather_op(t, idx, a, "FETCH", at="streamGatherOp")


# --- §5 kernel bodies and kernels calling kernels -----------------------------


@test("s5_call_value")
def _(out):
    a, o = from_list([4], fl([0, 1, 2, -3])), Stream([4])
    inner = lambda x, k: x * k + F(1)  # noqa: E731

    def outer(inv, x, cur):
        t = inner(x, F(2))
        return [inner(x + t, F(0.5))]
    launch([o], [a], outer)
    out.stream_print(o)


@test("s5_nested_call_args")
def _(out):
    a, o = from_list([4], [0, 1, 2, 3]), Stream([4], zero=0)
    f = lambda x, y: x * 10 + y  # noqa: E731
    launch([o], [a], lambda inv, x, cur: [f(x, f(x + 1, f(2, 3))) + f(f(1, 2), f(3, 4))])
    out.stream_print(o)
    fa, fo = from_list([4], fl([0, 1, 2, 3])), Stream([4])
    g = lambda x, y: x * F(10) + y  # noqa: E731

    def nest_libm(inv, x, cur):
        t = g(x, g(F(math.exp(0.0)) * F(2), F(3)))
        t = t + t
        return [g(g(x, F(1)), g(t, x))]
    launch([fo], [fa], nest_libm)
    out.stream_print(fo)


@test("s5_construct_vector_parts")
def _(out):
    a, o = from_list([2], [(1, 2, 3), (4, 5, 6)]), Stream([2])
    launch([o], [a], lambda inv, x, cur: [(F(-7), F(-7), F(x[2]))])
    out.stream_print(o)
    v = from_list([3], [vec(1, 2, 3, 4), vec(-1, 0.5, 8, 2), vec(0, 0, 0, 1)])
    n = from_list([3], [(10, 20), (-3, 4), (0, 7)])
    r = Stream([3])

    def mix(inv, x, k, cur):
        lo = (x[0] * F(2), x[1] * F(2))
        w = (k[0], k[1], k[1], 9)
        t = vadd((lo[0], lo[1], x[3], x[3]), (x[2], x[1], x[0], F(w[3])))
        t = vadd(t, tuple(F(c) for c in w))
        return [vadd(t, (x[0], x[1], lo[0], lo[1]))]
    launch([r], [v, n], mix)
    out.stream_print(r)


@test("s5_call_out_by_ref")
def _(out):
    ha = fl([10, 20, 30])
    a, o, p = from_list([3], ha), from_list([3], ha), Stream([3])

    def outer(inv, x, o_cur, p_cur):
        t = F(5)
        t = t + F(1)          # incr(t), twice
        t = t + F(1)
        o_val = o_cur + F(1)  # incr(o): reads the output's current value
        lo, hi = x - F(1), x + F(1)
        o_val = o_val + t * F(100) + lo
        return [o_val, hi + F(1)]   # both(h, l, p): p = h + 1
    launch([o, p], [a], outer)
    out.stream_print(o)
    out.stream_print(p)


@test("s5_call_gather_indexof")
def _(out):
    g = from_list([5], fl([1, 2, 3, 4, 5]))
    i = from_list([2, 4], fl([0, 1, 2, 3, 4, 3, 2, 1]))
    big = Stream([2, 8])
    o, w = Stream([2, 4]), Stream([2, 4])

    def outer(inv, iv, bv, o_cur, w_cur):
        a = gather(g, iv)
        b = gather(g, iv + F(1))
        ib, io = inv.indexof_in(1), inv.indexof_out()
        return [a * F(10) + b, ib[0] * F(100) + io[0] * F(10) + io[1]]
    launch([o, w], [i, big], outer)
    out.stream_print(o)
    out.stream_print(w)


@test("s5_kernel_return")
def _(out):
    a = from_list([2], [vec(1, 2, 3, 4), vec(0.5, -1, 10, 20)])
    o, s = Stream([2]), Stream([2])
    helper = lambda v: vscale(v, F(2))  # noqa: E731
    sq = lambda x: x * x  # noqa: E731

    def use(inv, v, *cur):
        wzyx = tuple(reversed(v))
        pick = v[2] if inv.instance()[0] > 0 else v[3]
        return [vadd(helper(v), helper(helper(wzyx))), sq(v[0]) + sq(sq(v[1])) + pick]
    launch([o, s], [a], use)
    out.stream_print(o)
    out.stream_print(s)


@test("s5_kernel_printf")
def _(out):
    a, o = from_list([1], fl([2.5])), Stream([1])
    out.printf("before\n")

    def show(inv, x, cur):
        out.printf("kernel sees %.2f at %d\n", x, inv.instance()[0])
        return [x * F(3)]
    launch([o], [a], show)
    out.printf("after\n")
    out.stream_print(o)


@test("s5_int_div_zero")
def _(out):
    ha, hb = [7, -7, 0, 5, 100, -9], [0, 2, 0, 0, -7, 4]
    for x, y in zip(ha, hb):
        out.printf("%d / %d = %d rem %d\n", x, y, idiv(x, y), imod(x, y))


@test("s5_kernel_loops")
def _(out):
    def work(n):
        s = 0
        for i in range(1, n + 1):
            if i % 3 == 0:
                continue
            if i > 20:
                break
            s += i
        x, k = n, 0
        while x != 1 and x > 0:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            k += 1
        d, y = 0, n
        while True:
            d += 1
            y //= 10
            if not y > 0:
                break
        return s, k, d
    for n in (1, 6, 7, 27, 100):
        out.printf("%d: sum %d steps %d digits %d\n", n, *work(n))


@test("s5_kernel_switch")
def _(out):
    def classify(a):
        if a == 0:
            return F(100)
        if a in (1, 2):
            return F(3) if a == 1 else F(2)   # case 1 falls through into case 2
        if a in (5, 6):
            return F(-5)
        return F(a) * F(0.5)
    o = from_list([8], [classify(a) for a in (0, 1, 2, 3, 5, 6, 7, -4)])
    out.stream_print(o)


@test("s5_kernel_local_array")
def _(out):
    x = from_list([4], fl([0, 1, -1, 0.5]))
    o, t = Stream([4]), Stream([4])
    m = [[r * 3 + k for k in range(3)] for r in range(2)]

    def poly(inv, xv, *cur):
        c = [F(i) + F(1) for i in range(4)]
        acc = F(0)
        for i in (3, 2, 1, 0):
            acc = acc * xv + c[i]
        j = inv.instance()[0]
        return [acc, F(m[j % 2][j % 3] + m[1][2] * 10)]
    launch([o, t], [x], poly)
    out.stream_print(o)
    out.stream_print(t)


@test("s6_iter_gather_index")
def _(out):
    g = from_list([6], fl([5, 4, 3, 2, 1, 0]))
    for n, lo, hi in ((6, 0.0, 6.0), (4, 5.0, 1.0)):
        o = Stream([n])
        launch([o], [iterator([n], lo, hi)], lambda inv, x, cur: [gather(g, x)])
        out.stream_print(o)
    g2 = from_list([3, 3], fl(range(1, 10)))
    q = Stream([3, 3])
    launch([q], [iterator([3, 3], (2.0, 0.0), (-1.0, 3.0))], lambda inv, v, cur: [gather_v(g2, v)])
    out.stream_print(q)


@test("s4_rw_malloc")
def _(out):
    s = Stream([6])
    stream_read(s, [F(i * i) for i in range(6)], 4)
    out.stream_print(s)
    q = [F(0)] * 6
    stream_write(s, q, 4)
    out.printf("%.2f %.2f\n", q[2], q[5])
    stream_write(s, [None] * 5, 4, at="streamWrite(s, small)")


@test("s5_gather_struct")
def _(out):
    g = from_list([3], [(F(k) + F(0.5), (F(k), F(10 - k))) for k in range(3)])
    i = from_list([5], [2, 0, 1, 7, -2])
    o = Stream([5])

    def pick(inv, k, cur):
        w, pos = gather(g, k)
        return [w + pos[1] * F(10)]
    launch([o], [i], pick)
    out.stream_print(o)


@test("s5_rank_3d_into_2d")
def _(out):
    a = from_list([2, 3, 4], [F(s * 100 + r * 10 + c)
                              for s in range(2) for r in range(3) for c in range(4)])
    b, w = Stream([2, 3]), Stream([2, 3])
    launch([b, w], [a], lambda inv, x, cb, cw: [x, inv.indexof_in(0)])
    out.stream_print(b)
    out.stream_print(w)


# --- §12 BrookGPU compatibility forms (kernel language)


@test("s12_stream_params")
def _(out):
    add1 = lambda inv, x, cur: [x + F(1)]
    a, b = from_list([2, 3], fl(range(6))), Stream([2, 3])
    launch([b], [a], add1)                  # step(a, &b): *o is b
    out.stream_print(b)
    out.printf("--\n")
    launch([b], [a], add1)                  # bump_swap(&a, &b)
    stream_swap(a, b)
    out.stream_print(a)
    out.stream_print(b)
    out.printf("--\n")
    for k in (1, 2):                        # pick(k, a, &b): k odd reads *o
        t = Stream([2, 3])
        launch([t], [b if k % 2 else a], add1)
        out.stream_print(t)


@test("s12_stream_param_shape")
def _(out):
    out.printf("first call ran\n")
    raise BrookError("parameter 'o' is declared <2, 3>, but the stream passed has extents <3, 2>",
                     "&c);")


@test("s12_vector_narrowing")
def _(out):
    v = from_list([2, 2], fl([1, 2, 3, 4]))
    p, q, r = Stream([2, 2]), Stream([2, 2]), Stream([2, 2])

    def body(inv, x, *cur):
        i = inv.indexof_out()[:2]
        w = (x, x + F(1), x + F(2), x + F(3))
        return [vadd(vscale(i, F(10)), w[:2]), w[:3], w[0] + i[1]]
    launch([p, q, r], [v], body)
    for s in (p, q, r):
        out.stream_print(s)


@test("s12_vector_to_scalar")
def _(out):
    out.warn("implicit conversion from 'float4' to 'float' keeps only its first component", "w;")
    out.warn("implicit conversion from 'float2' to 'float' keeps only its first component",
             "+ 2.0f)")
    out.warn("implicit conversion from 'int3' to 'int' keeps only its first component", "c;")
    v = from_list([2, 3], fl([1, 2, 3, 4, 5, 6]))
    r, n = Stream([2, 3]), Stream([2, 3])

    def body(inv, x, *cur):
        w = (x * F(2), x + F(1), x + F(2), x + F(3))
        col, row = inv.indexof_out()[:2]
        c = (int(col) * 10 + int(row), 7, 9)
        s = w[0]                       # float s = w;
        q = (s, s + F(1))              # float2 q = float2(s, s + 1.0f);
        h = q[0] + F(2)                # twice(q + 2.0f) takes (q + 2.0f).x
        return [s + h * F(2), c[0]]    # r = s + twice(...); n = c;
    launch([r, n], [v], body)
    out.stream_print(r)
    out.stream_print(n)


@test("s12_out_narrowing")
def _(out):
    out.warn("argument 2 of kernel 'spread' is a stream of 'float' for the output 'o' of type "
             "'float2': its last 1 component is dropped", "f);\n  streamPrint(f);\n  quad")
    out.warn("argument 2 of kernel 'quad' is a stream of 'float2' for the output 'o' of type "
             "'float4': its last 2 components are dropped", "g);\n  streamPrint(g);")
    out.warn("argument 2 of kernel 'spread' is a stream of 'float' for the output 'o' of type "
             "'float2': its last 1 component is dropped", ".domain(int2(0, 1), int2(3, 3))")
    out.warn("argument 2 of kernel 'bump' is a stream of 'float' for the output 'o' of type "
             "'float2': its last 1 component is dropped", "f);\n  streamPrint(f);\n  return")
    a = from_list([2, 3], fl([1, 2, 3, 4, 5, 6]))
    f, g, big = Stream([2, 3]), Stream([2, 3], (F(0), F(0))), Stream([4, 3])
    launch([f], [a], lambda inv, x, *cur: [x * F(2)])          # keeps o.x = a * 2
    out.stream_print(f)
    launch([g], [a], lambda inv, x, *cur: [(x, x + F(1))])     # keeps (a, a + 1)
    out.stream_print(g)
    launch([big.domain((0, 1), (3, 3))], [a], lambda inv, x, *cur: [x * F(2)])
    out.stream_print(big)
    # o.x reads f's element (the temporary holds it widened), o.y is dropped.
    launch([f], [f], lambda inv, x, cur: [cur + x * F(10)])
    out.stream_print(f)


@test("s12_vector_select")
def _(out):
    a = from_list([2], [fl([1, 2, 3, 4]), fl([4, 3, 2, 1])])
    b = from_list([2], [fl([2, 2, 2, 2]), fl([0, 5, 0, 5])])
    o, s, k, t = Stream([2]), Stream([2]), Stream([2]), Stream([2])

    def body(inv, x, y, *cur):
        m = (1, 0, 1, 0)
        return [tuple(xi if xi > yi else yi for xi, yi in zip(x, y)),
                tuple(F(0) if xi < F(2) else xi for xi in x),
                tuple(7 if mi else -7 for mi in m),
                F(5) if x[0] - F(1) != 0 else F(6)]
    launch([o, s, k, t], [a, b], body)
    out.stream_print(o)
    out.stream_print(s)
    out.stream_print(t)
    for kv in k.values():
        out.printf("k %d %d %d %d\n", *kv)


@test("s12_swizzle_index")
def _(out):
    a = from_list([4], fl([0, 1, 2, 3]))
    v = from_list([4], [fl([10 * k + 10, 10 * k + 11, 10 * k + 12, 10 * k + 13]) for k in range(4)])
    o, c, d = Stream([4]), Stream([4]), Stream([4])
    launch([o, c, d], [a, v], lambda inv, x, w, *cur: [(x, x, x, x + F(1)), w[2], w[int(x)]])
    out.stream_print(o)
    out.stream_print(c)
    out.stream_print(d)


@test("s12_type_spellings")
def _(out):
    a, o = from_list([2], [fl([1, 2]), fl([3, 4])]), Stream([2])
    launch([o], [a], lambda inv, x, cur: [vscale(x, F(0.5))])
    out.stream_print(o)
    for x, y in ((1, 2), (3, 4)):
        out.printf("b %u %u c %d %d d %d %d %d %d\n", 2 * x, 2 * y, x, y, x, y, 0, 255)
    s = from_list([4], fl([1, 2, 3, 4]))
    out.printf("%.2f\n", reduce_to_value(s, lambda acc, x: acc + x))
    w = Stream([2, 3])
    launch([w], [], lambda inv, cur: [inv.indexof_out()[:2]])
    out.stream_print(w)


# BrookGPU's fixed (§12): a host byte b is the float b / 255 in a stream;
# streamWrite clamps to [0, 1] and rounds v * 255 to the nearest byte.
def fixed_in(b):
    return F(b) / F(255)


def fixed_out(v):
    v = float(v)
    if not v > 0.0:
        return 0
    if v >= 1.0:
        return 255
    return round(float(F(v) * F(255)))  # ties to even, as nearbyint


@test("s12_fixed")
def _(out):
    a = [200 + i for i in range(6)]
    b = [i * 12 for i in range(6)]
    sa = from_list([6], [fixed_in(x) for x in a])
    sb = from_list([6], [fixed_in(x) for x in b])
    sc = Stream([6])
    launch([sc], [sa, sb], lambda inv, x, y, cur: [x + y])
    out.printf("".join("%u " % fixed_out(v) for v in sc.values()) + "\n")
    out.stream_print(sb)
    px = []
    for i in range(2):
        for j in range(2):
            px.append(tuple(fixed_in(c) for c in (60 * i + 30 * j, 255 - 40 * j, 7 + i)))
    sp, so = from_list([2, 2], px), Stream([2, 2])
    launch([so], [sp], lambda inv, p, cur: [vsub(vscale(p, F(1.5)), vec(0.1, 0.0, 0.0))])
    out.printf("".join("(%u,%u,%u) " % tuple(fixed_out(c) for c in v) for v in so.values()) + "\n")
    q = [(255, 0, 0, 0), (0, 255, 128, 1), (10, 20, 30, 255)]
    sq, g = from_list([3], [tuple(fixed_in(c) for c in v) for v in q]), Stream([3])

    def grey(inv, p, cur):
        d = p[0] * F(0.25) + p[1] * F(0.5) + p[2] * F(0.25)
        return [d + p[3]]

    launch([g], [sq], grey)
    out.stream_print(g)


# Brook+ work-groups (§12): the domain (rank 1 or 2, slowest first) in groups
# of gsize = (x, y); each phase runs for every invocation of a group (L = lx +
# x * ly order) before the next; `shared` is fresh (zeros) per group.
def groups(ext, gsize, shared_zero):
    """Each group of the domain in order: its invocations (L order) and a
    fresh (zeroed) set of shared arrays."""
    rows, cols = (ext[0], ext[1]) if len(ext) == 2 else (1, ext[0])
    gx, gy = gsize
    assert rows % gy == 0 and cols % gx == 0
    for gr in range(0, rows, gy):
        for gc in range(0, cols, gx):
            shared = {k: [z] * n for k, (z, n) in shared_zero.items()}
            invs = [{"r": gr + ly, "c": gc + lx, "lx": lx, "ly": ly}
                    for ly in range(gy) for lx in range(gx)]
            yield invs, shared


def group_run(ext, gsize, shared_zero, phases):
    for invs, shared in groups(ext, gsize, shared_zero):
        for ph in phases:
            for inv in invs:
                ph(inv, shared)


@test("s12_group_1d")
def _(out):
    h = fl([i * i % 17 for i in range(24)])
    o = [None] * 24

    def rev0(inv, sh):
        sh["lds"][inv["lx"]] = h[inv["c"]]

    def rev1(inv, sh):
        o[inv["c"]] = sh["lds"][7 - inv["lx"]]
    group_run([24], (8, 1), {"lds": (F(0), 8)}, [rev0, rev1])
    out.stream_print(from_list([24], o))

    s, where = [None] * 24, [None] * 24

    def t0(inv, sh):
        t, a = inv["lx"], h[inv["c"]]
        inv["mine"] = a * F(2)
        sh["sum"][t] = a
        sh["part"][2 * t] = (a, F(t))
        sh["part"][2 * t + 1] = (F(0) - a, F(0))

    def halve(k):
        def step(inv, sh):
            t = inv["lx"]
            if t < k:
                sh["sum"][t] = sh["sum"][t] + sh["sum"][t + k]
        return step

    def t4(inv, sh):
        t = inv["lx"]
        left = sh["part"][(2 * t + 14) % 16]
        s[inv["c"]] = sh["sum"][0] * F(100) + inv["mine"] + left[0] + left[1] / F(10)
        where[inv["c"]] = (t, 0, inv["c"], 0)
    group_run([24], (8, 1), {"sum": (F(0), 8), "part": ((F(0), F(0)), 16)},
              [t0, halve(4), halve(2), halve(1), t4])
    out.stream_print(from_list([24], s))
    out.printf("%s\n", "".join("(%d %d %d %d)" % w for w in where))

    res = [None] * 24

    def i0(inv, sh):
        inv["o"] = h[inv["c"]] + F(1)
        sh["l"][inv["lx"]] = h[inv["c"]]

    def i1(inv, sh):
        res[inv["c"]] = h[inv["c"]] * F(10) + sh["l"][3 - inv["lx"]] + inv["o"]
    group_run([24], (4, 1), {"l": (F(0), 4)}, [i0, i1])
    out.stream_print(from_list([24], res))


@test("s12_group_2d")
def _(out):
    h = [[F(r * 8 + c) for c in range(8)] for r in range(4)]
    o = [[None] * 8 for _ in range(4)]
    code = [[None] * 8 for _ in range(4)]

    def f0(inv, sh):
        sh["tile"][inv["ly"] * 4 + inv["lx"]] = h[inv["r"]][inv["c"]]

    def f1(inv, sh):
        o[inv["r"]][inv["c"]] = sh["tile"][(1 - inv["ly"]) * 4 + (3 - inv["lx"])]
        code[inv["r"]][inv["c"]] = inv["lx"] + 10 * inv["ly"]
    group_run([4, 8], (4, 2), {"tile": (F(0), 8)}, [f0, f1])
    out.stream_print(from_list([4, 8], [v for row in o for v in row]))
    for row in code:
        out.printf("%s\n", "".join("%d " % v for v in row))

    hb = [[F(r * 4 + c) for c in range(4)] for r in range(4)]
    big = [[(F(0), F(0), F(0), F(0)) for _ in range(6)] for _ in range(6)]
    zero4 = (F(0), F(0), F(0), F(0))

    def b0(inv, sh):
        gx, gy = inv["c"] + 2, inv["r"] + 1  # instance(): plus the view's offset (2, 1)
        sh["tile"][inv["ly"] * 2 + inv["lx"]] = (hb[inv["r"]][inv["c"]], F(gx), F(gy), F(1))

    def b1(inv, sh):
        t = sh["tile"]
        s = vadd(vadd(vadd(t[0], t[1]), t[2]), t[3])
        gx, gy = inv["c"] + 2, inv["r"] + 1
        big[gy][gx] = (s[0], F(gx), F(gy), s[3])
    group_run([4, 4], (2, 2), {"tile": (zero4, 4)}, [b0, b1])
    out.stream_print(from_list([6, 6], [v for row in big for v in row]))


@test("s12_group_partial")
def _(out):
    h = fl([1, 2, 3, 4, 5, 6, 7, 8])
    o = [None] * 8

    def c0(inv, sh):
        sh["lds"][inv["lx"]] = h[inv["c"]]

    def c1(inv, sh):
        o[inv["c"]] = sh["lds"][3 - inv["lx"]]
    group_run([8], (4, 1), {"lds": (F(0), 4)}, [c0, c1])
    out.stream_print(from_list([8], o))
    raise BrookError("the domain <10> of group kernel 'copy' is not cut into whole groups of GroupSize(4) "
                     "(x along the last dimension; each extent must be a multiple of its size)", "copy(b, p);")


def group_run_nd(ext, gsize, shared_zero, phases):
    """group_run for any rank: gsize (x, y, z) on the last three dimensions."""
    R = len(ext)
    gext = [1] * R
    for k in range(min(3, R)):
        gext[R - 1 - k] = gsize[k]
    ngroups = [e // g for e, g in zip(ext, gext)]
    assert all(e % g == 0 for e, g in zip(ext, gext))
    for gpos in positions(ngroups):
        shared = {k: [z] * n for k, (z, n) in shared_zero.items()}
        invs = []
        for lz in range(gsize[2]):
            for ly in range(gsize[1]):
                for lx in range(gsize[0]):
                    local = [0] * R
                    for k, v in enumerate((lx, ly, lz)):
                        if k < R:
                            local[R - 1 - k] = v
                    pos = tuple(g * e + l for g, e, l in zip(gpos, gext, local))
                    invs.append({"pos": pos, "t": (lx, ly, lz, 0)})
        for ph in phases:
            for inv in invs:
                ph(inv, shared)


@test("s12_group_nd")
def _(out):
    a = from_list([4, 2, 4], fl(range(32)))
    o, code = Stream([4, 2, 4]), Stream([4, 2, 4])

    def c0(inv, sh):
        x, y, z, _ = inv["t"]
        inv["L"] = x + 2 * (y + 2 * z)
        sh["cube"][inv["L"]] = a.get(inv["pos"])

    def c1(inv, sh):
        x, y, z, w = inv["t"]
        o.set(inv["pos"], sh["cube"][7 - inv["L"]])
        code.set(inv["pos"], F(x + 10 * y + 100 * z + 1000 * w))
    group_run_nd([4, 2, 4], (2, 2, 2), {"cube": (F(0), 8)}, [c0, c1])
    out.stream_print(o)
    out.stream_print(code)

    b = from_list([2, 2, 2, 4], fl(range(32)))
    p = Stream([2, 2, 2, 4])

    def p0(inv, sh):
        x, _, z, _ = inv["t"]
        L = x + 4 * z
        inv["L"] = L
        sh["s"][2 * L] = (b.get(inv["pos"]), F(z))
        sh["s"][2 * L + 1] = (F(x), F(0))

    def p1(inv, sh):
        L = inv["L"]
        other = sh["s"][2 * ((L + 4) % 8)]
        p.set(inv["pos"], other[0] * F(10) + other[1] + sh["s"][2 * L + 1][0] / F(100))
    group_run_nd([2, 2, 2, 4], (4, 1, 2), {"s": ((F(0), F(0)), 16)}, [p0, p1])
    out.stream_print(p)


# Brook+ work-groups with syncGroup() inside control flow (§12): each
# invocation is a Python generator that yields at every syncGroup() (the value
# names the syncGroup() statement). A round resumes every live invocation of
# the group in L order; then either all have finished, or all wait at the same
# syncGroup() and the next round starts, or the group diverged: a runtime
# error at the launch `at`.
def group_run_sync(ext, gsize, shared_zero, body, kernel, at):
    for invs, shared in groups(ext, gsize, shared_zero):
        gens = [body(inv, shared) for inv in invs]
        while True:
            sites = []
            for g in gens:
                try:
                    sites.append(next(g))
                except StopIteration:
                    sites.append(None)
            waiting = [s for s in sites if s is not None]
            if not waiting:
                break
            if len(waiting) != len(gens) or len(set(waiting)) != 1:
                raise BrookError(
                    "the invocations of a group of kernel '%s' do not reach the same syncGroup() "
                    "calls (every invocation of a group must reach the same sequence of "
                    "syncGroup()s; the control flow around them must be the same for the whole "
                    "group)" % kernel, at)


@test("s12_group_matmul")
def _(out):
    n = 64
    A = [[F(((i * 3 + j * 5) % 11 - 5) * 0.25) for j in range(n)] for i in range(n)]
    B = [[F(((i * 7 + j * 2) % 13 - 6) * 0.5) for j in range(n)] for i in range(n)]
    C = [[None] * n for _ in range(n)]

    def mm(inv, sh):
        lx, ly, r, c = inv["lx"], inv["ly"], inv["r"], inv["c"]
        acc = F(0)
        for k0 in range(0, n, 8):
            sh["ta"][ly * 8 + lx] = A[r][k0 + lx]
            sh["tb"][ly * 8 + lx] = B[k0 + ly][c]
            yield 1
            for k in range(8):
                acc = acc + sh["ta"][ly * 8 + k] * sh["tb"][k * 8 + lx]
            yield 2
        C[r][c] = acc
    group_run_sync([n, n], (8, 8), {"ta": (F(0), 64), "tb": (F(0), 64)}, mm, "matmul", "matmul(a, b, 64, c);")
    for i in range(0, n, 9):
        row = 0.0
        for j in range(n):
            row += float(C[i][j]) * float(j % 5 + 1)
        out.printf("row %2d: %.2f %.2f %.2f %.2f | %.3f\n", i, C[i][0], C[i][1], C[i][31], C[i][63], row)
    total = 0.0
    for i in range(n):
        for j in range(n):
            total += float(C[i][j]) * float((i * 64 + j) % 7 + 1)
    out.printf("weighted sum %.3f\n", total)


@test("s12_group_reduce")
def _(out):
    h = [F(((i * 37) % 23) * 0.5 - 3.0) for i in range(64)]
    o = [None] * 64

    def gsum(inv, sh):
        lid = inv["lx"]
        sh["part"][lid] = h[inv["c"]]
        yield 1
        s = 16 // 2
        while s > 0:
            if lid < s:
                sh["part"][lid] = sh["part"][lid] + sh["part"][lid + s]
            yield 2
            s //= 2
        o[inv["c"]] = sh["part"][0] * F(10) + F(lid)
    group_run_sync([64], (16, 1), {"part": (F(0), 16)}, gsum, "group_sum", "group_sum(a, 16, o);")
    out.stream_print(from_list([64], o))

    mo = [[None] * 8 for _ in range(8)]

    def tmax(inv, sh):
        lid = inv["ly"] * 4 + inv["lx"]
        a = h[inv["r"] * 8 + inv["c"]]
        sh["best"][lid] = a
        yield 1
        s = 8
        while s > 0:
            if lid < s and sh["best"][lid + s] > sh["best"][lid]:
                sh["best"][lid] = sh["best"][lid + s]
            yield 2
            s = s // 2
        mo[inv["r"]][inv["c"]] = (sh["best"][0], a)
    group_run_sync([8, 8], (4, 4), {"best": (F(0), 16)}, tmax, "tile_max", "tile_max(m, mo);")
    out.stream_print(from_list([8, 8], [v for row in mo for v in row]))


@test("s12_group_loops")
def _(out):
    h = [F(i % 5 + 0.5) for i in range(16)]
    o = [None] * 16

    def scan(inv, sh):
        lid = inv["lx"]
        sh["buf"][lid] = h[inv["c"]]
        yield 1
        off = 1
        while off < 8:
            v = sh["buf"][lid]
            if lid >= off:
                v = v + sh["buf"][lid - off]
            yield 2
            sh["buf"][lid] = v
            yield 3
            off *= 2
        o[inv["c"]] = sh["buf"][lid]
    group_run_sync([16], (8, 1), {"buf": (F(0), 8)}, scan, "scan", "scan(a, o);")
    out.stream_print(from_list([16], o))

    g = fl([1.0, 3.0, 0.5, 2.0, 40.0, 1.0, 7.0, 0.25])
    p = [None] * 8

    def halve(inv, sh):
        lid = inv["lx"]
        x = g[inv["c"]]
        rounds = 0
        while True:
            sh["top"][lid] = x
            yield 1
            t = sh["top"]
            m = max(max(t[0], t[1]), max(t[2], t[3]))
            yield 2
            x = x * F(0.5)
            rounds += 1
            if m < F(2.0):
                break
            if not rounds < 100:
                break
        p[inv["c"]] = F(-1.0)
        if lid == 3:
            return
        p[inv["c"]] = F(rounds) * F(100) + x
    group_run_sync([8], (4, 1), {"top": (F(0), 4)}, halve, "halve", "halve(b, p);")
    out.stream_print(from_list([8], p))


@test("s12_group_diverge")
def _(out):
    h = fl([1, 2, 3, 4, 5, 6, 7, 8])
    o = [None] * 8

    def swap(limit):
        def body(inv, sh):
            lid = inv["lx"]
            sh["s"][lid] = h[inv["c"]]
            if lid < limit:
                yield 1
            o[inv["c"]] = sh["s"][3 - lid]
        return body
    group_run_sync([8], (4, 1), {"s": (F(0), 4)}, swap(4), "swap", "swap(a, 4, o);")
    out.stream_print(from_list([8], o))
    out.printf("half of each group:\n")
    group_run_sync([8], (4, 1), {"s": (F(0), 4)}, swap(2), "swap", "swap(a, 2, o);")
    out.printf("not reached\n")


@test("s5_repeated_shapes")
def _(out):
    # One shape launched nine times over views whose origins move; gathers
    # clamp to the <3, 4> view they gather from; the <3, 2> input is
    # resampled to the <3, 4> domain (column x reads x * 2 / 4).
    big = [[F(r * 40 + c) for c in range(40)] for r in range(3)]
    h = [fl([1, 2]), fl([3, 4]), fl([5, 6])]
    for x in range(1, 10):
        prev = [row[4 * (x - 1):4 * x] for row in big]
        for y in range(3):
            for px in range(4):
                v = prev[y][px] + F(0.5) * prev[y][min(px + 1, 3)] + F(x) * h[y][px * 2 // 4]
                big[y][4 * x + px] = v
    out.stream_print(from_list([3, 40], [v for row in big for v in row]))
    # Six shapes, five launches each; g[2i + 1] clamps at the last element.
    g = [F(i * i) for i in range(16)]
    for n in range(2, 8):
        for rep in range(5):
            k = F(rep + n)
            total = F(0)
            for i in range(n):
                total = total + (g[min(2 * i, 15)] + g[min(2 * i + 1, 15)] * k)
            out.printf("n %d rep %d total %g\n", n, rep, total)


@test("s5_integral_constant_gather")
def _(out):
    a = from_list([12], [F(i * i % 17) for i in range(12)])
    for x in fl([1.0, 0.6, 1.0, -2.0, 5000.0, 2.0, 2.75]):
        o = [gather(a, x * F(4.0) + F(p)) + F(100.0) * gather(a, F(p) - x) for p in range(4)]
        out.printf("x = %g: ", x)
        out.stream_print(from_list([4], o))
    x = F(1.0) + F(0.5)
    out.stream_print(from_list([4], [gather(a, x * F(4.0) + F(p)) for p in range(4)]))


# --- §9 builtins --------------------------------------------------------------


def fdot(a, b):
    """dot in float: each product rounded, summed from left to right."""
    s = a[0] * b[0]
    for x, y in zip(a[1:], b[1:]):
        s = s + x * y
    return s


def faceforward(n, i, ng):
    """Cg's and GLSL's: n when dot(ng, i) < 0, else -n (NaN compares false)."""
    if not isinstance(n, tuple):
        return n if ng * i < F(0) else -n
    return n if fdot(ng, i) < F(0) else tuple(-x for x in n)


@test("s9_faceforward")
def _(out):
    nan, inf = math.nan, math.inf
    n = from_list([6], [vec(1, 2, 3), vec(0.5, -1, 2), vec(1, 1, 1), vec(-2, 0.25, 4),
                        vec(3, -3, 1), vec(1.5, 2.5, -3.5)])
    i = from_list([6], [vec(1, 0, 0), vec(0, 1, 0), vec(1, 1, 1), vec(1, 1, 1), vec(1, 2, 3),
                        vec(1, 2, 3)])
    ng = from_list([6], [vec(-1, 0, 0), vec(0, 1, 0), vec(1e8, -1, -1e8), vec(0, 0, 0),
                         vec(nan, 0, 0), vec(2, -3, 0.5)])
    o = Stream([6])
    launch([o], [n, i, ng], lambda inv, a, b, c, cur: [faceforward(a, b, c)])
    out.stream_print(o)
    n4 = from_list([3], [vec(1, 2, 3, 4)] * 3)
    i4 = from_list([3], [vec(0, 0, -1, 0), vec(0, 0, 1, 0), vec(inf, 0, -1, 0)])
    o4 = Stream([3])
    launch([o4], [n4, i4], lambda inv, a, b, cur: [faceforward(a, b, vec(0, 0, 1, 0))])
    out.stream_print(o4)
    n1, i1, g1 = from_list([3], fl([2, -3, 4])), from_list([3], fl([1, 1, -1])), from_list([3], fl([-1, 1, -0.0]))
    o1 = Stream([3])
    launch([o1], [n1, i1, g1],
           lambda inv, a, b, c, cur: [faceforward(a, b, c) + faceforward(F(1), b, F(2))])
    out.stream_print(o1)
    h = faceforward(vec(1, 2, 3), vec(0, 1, 0), vec(0, -1, 0))
    m = faceforward(vec(1, 2, 3), vec(0, 1, 0), vec(0, 1, 0))
    out.printf("host %g %g %g / %g %g %g\n", *(h + m))


# === end of tests ===

if __name__ == "__main__":
    sys.exit(main(sys.argv))
