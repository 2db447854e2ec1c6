#!/usr/bin/env python3
"""check_npy.py BROOK BACKEND: tests/files/npy_roundtrip.br against numpy's
format. With numpy installed, numpy loads what brook wrote and writes what
brook reads; without it the files are checked (and written) here by the
format's definition: magic, version 1.0, a little-endian header length, a
Python-literal dict, data aligned to 64 bytes."""
import ast, os, struct, subprocess, sys, tempfile

try:
    import numpy
except ImportError:
    numpy = None

WRITTEN = {  # file: (descr, shape, struct format of the values, values)
    "out_f.npy": ("<f4", (2, 3), "<6f", [0.5, -1.0, 3.25, 1e-3, 7.0, -0.0]),
    "out_d.npy": ("<f8", (4, 2), "<8d", [1.0, 2.0, -3.5, 4.0, 1e300, -1e-300, 0.1, 0.2]),
    "out_u.npy": ("|u1", (5,), "<5B", [0, 1, 127, 128, 255]),
    "out_s.npy": ("<i2", (1, 2, 2), "<4h", [-32768, -1, 1, 32767]),
}
READ = {
    "in_i.npy": ("<i4", (3, 2), "<6i", [5, -6, 7, 2147483647, -2147483648, 0]),
    "in_q.npy": ("<f4", (2, 4), "<8f", [1.5, 2.0, -0.25, 8.0, 0.0, 100.0, -3.0, 0.125]),
}

def check_by_format(path, descr, shape, fmt, values):
    data = open(path, "rb").read()
    assert data[:8] == b"\x93NUMPY\x01\x00", data[:8]
    (n,) = struct.unpack("<H", data[8:10])
    assert (10 + n) % 64 == 0 and data[10 + n - 1:10 + n] == b"\n", "header not padded to 64 bytes"
    header = ast.literal_eval(data[10:10 + n].decode("latin1"))
    assert header == {"descr": descr, "fortran_order": False, "shape": shape}, header
    got = list(struct.unpack(fmt, data[10 + n:]))
    assert got == [struct.unpack(fmt[-1], struct.pack(fmt[-1], v))[0] for v in values], (path, got)

def write_by_format(path, descr, shape, fmt, values):
    header = repr({"descr": descr, "fortran_order": False, "shape": shape})
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + struct.pack(fmt, *values))

def main():
    brook, backend = sys.argv[1:3]
    prog = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "files", "npy_roundtrip.br")
    with tempfile.TemporaryDirectory() as d:
        for name, (descr, shape, fmt, values) in READ.items():
            if numpy is not None:
                numpy.save(os.path.join(d, name), numpy.array(values, dtype=descr).reshape(shape))
            else:
                write_by_format(os.path.join(d, name), descr, shape, fmt, values)
        out = subprocess.run([brook, "run", "--backend", backend, prog], cwd=d, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        for name, (descr, shape, fmt, values) in WRITTEN.items():
            path = os.path.join(d, name)
            check_by_format(path, descr, shape, fmt, values)
            if numpy is not None:
                a = numpy.load(path)
                assert a.dtype == numpy.dtype(descr) and a.shape == shape, (a.dtype, a.shape)
                assert a.ravel().tolist() == numpy.array(values, dtype=descr).tolist(), name
    lines = out.stdout.split("\n")
    assert lines[0].split() == [str(v) for v in READ["in_i.npy"][3]], lines[0]
    assert [float(v) for v in lines[1].split()] == READ["in_q.npy"][3], lines[1]
    print("OK: .npy round trip", "with numpy" if numpy is not None else "checked by the format (numpy not installed)")

main()
