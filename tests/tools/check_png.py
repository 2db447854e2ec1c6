#!/usr/bin/env python3
"""check_png.py BROOK MANDELBROT.br BACKEND: the PNG examples/mandelbrot.br
writes, decoded here without brook or libpng (zlib and the PNG filters by
hand), must be the 8-bit grey image of the size asked for, pixel for pixel the
ASCII PGM the same program prints with "-", with as many black pixels as the
report counts inside the set."""
import os, re, struct, subprocess, sys, tempfile, zlib

def decode_png(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        assert zlib.crc32(kind + body) == struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0], "bad CRC"
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert (depth, colour, interlace) == (8, 0, 0), f"not 8-bit grey non-interlaced: {depth} {colour} {interlace}"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    rows, prev, stride = [], bytearray(width), width + 1
    for y in range(height):
        f, line = raw[y * stride], bytearray(raw[y * stride + 1:(y + 1) * stride])
        for x in range(width):
            a = line[x - 1] if x else 0
            b, c = prev[x], (prev[x - 1] if x else 0)
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            else: assert f == 0, f"filter {f}"
        rows.append(list(line))
        prev = line
    return width, height, rows

def main():
    brook, prog, backend = sys.argv[1:4]
    size = 64
    with tempfile.TemporaryDirectory() as d:
        run = lambda *a: subprocess.run([brook, "run", "--backend", backend, prog, *a], cwd=d,
                                        capture_output=True, text=True, check=True)
        report = run("out.png", str(size)).stdout
        pgm = run("-", str(size)).stdout.split()
        with open(os.path.join(d, "out.png"), "rb") as f:
            width, height, rows = decode_png(f.read())
    assert (width, height) == (size, size), f"{width}x{height}"
    assert pgm[:4] == ["P2", str(size), str(size), "255"], pgm[:4]
    pixels = [v for row in rows for v in row]
    assert pixels == [int(v) for v in pgm[4:]], "the PNG's pixels differ from the PGM's"
    inside = int(re.search(r"(\d+) pixels inside the set", report).group(1))
    assert pixels.count(0) == inside, f"{pixels.count(0)} black pixels, {inside} inside"
    assert 0 < inside < size * size and max(pixels) > 200
    print(f"OK: {size}x{size} PNG, {inside} black pixels, equal to the PGM")

main()
