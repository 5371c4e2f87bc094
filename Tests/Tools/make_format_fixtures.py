#!/usr/bin/env python3
"""Writes the JPEG, PNM and EXIF-orientation test fixtures and their Pillow
references, and the hostile inputs of those formats. Run with Debian's
python3-pil and python3-numpy, libturbojpeg0 (for the YCCK file) and
libjpeg-turbo-progs (jpegtran, for the arithmetic-coded and restart-marker files):

    /usr/bin/python3 Tests/Tools/make_format_fixtures.py

Writes Tests/Fixtures/formats/:
- JPEGs (baseline, progressive, optimized, arithmetic-coded, with restart
  markers; 4:2:0, 4:2:2, 4:4:4; grey; Adobe CMYK and YCCK; several qualities
  and sizes), PNMs (P1-P6, 8- and 16-bit,
  comments) and pictures stored rotated or mirrored with the EXIF
  Orientation tag that undoes it, in JPEG (APP1) and in PNG (eXIf);
- reference.tsv: file, decoding, width, height, byte offset into gray.u8,
  where decoding is "oriented" (ImageDecoder's default), "stored"
  (applyOrientation: false) or "maxSide=N" (reduced-size JPEG decoding);
- gray.u8: the reference pixels, row-major: Pillow's
  Image.open(p).convert("L"), after ImageOps.exif_transpose for "oriented",
  after draft() at the same scale for "maxSide=N". One documented
  exception: Pillow keeps PNM grey with a maxval above 255 as 32-bit
  integers that convert("L") clips (nearly all white); those references
  scale the samples as Pillow scales every other PNM sample,
  round(v / maxval * 255);
- upright.png, the picture every orientation fixture shows once turned
  upright, and seven-q90.jpg, Examples/seven.png as a quality-90 JPEG.

and into Tests/Fixtures/hostile/ the broken or unusual
JPEG, PNM and EXIF files and the headers of formats digits does not read
(make_hostile_fixtures.py writes the PNG ones).

Everything is drawn from a fixed seed, so a rerun writes the same bytes.
"""

import ctypes
import io
import os
import struct
import subprocess
import zlib

import numpy as np
from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(ROOT, "Tests/Fixtures/formats")
HOSTILE = os.path.join(ROOT, "Tests/Fixtures/hostile")
SEED = 20261123

rng = np.random.default_rng(SEED)
SEVEN = Image.open(os.path.join(ROOT, "Examples/seven.png")).convert("L")


def picture(width, height):
    """A dark 7 on tinted, shaded paper with a little noise: (RGB uint8 array, ink 0..1)."""
    ink = np.asarray(SEVEN.resize((max(1, width * 3 // 4), max(1, height * 3 // 4)), Image.BILINEAR), dtype=np.float64) / 255
    canvas = np.zeros((height, width))
    top, left = height // 8, width // 8
    canvas[top:top + ink.shape[0], left:left + ink.shape[1]] = ink
    y, x = np.mgrid[0:height, 0:width]
    paper = np.stack([225 + 20 * x / width, 215 + 25 * y / height, 195 + 10 * (x + y) / (width + height)], axis=-1)
    rgb = paper * (1 - 0.85 * canvas[..., None]) + rng.normal(0, 4, (height, width, 3))
    return np.clip(np.round(rgb), 0, 255).astype(np.uint8), canvas


def cmyk_picture(width, height):
    """Ink in K, a tint in C, M and Y (CMYK values, 0 = no ink)."""
    _, ink = picture(width, height)
    cmyk = np.zeros((height, width, 4))
    cmyk[..., 0] = 30 + 40 * np.linspace(0, 1, width)[None, :]
    cmyk[..., 1] = 20 + 30 * np.linspace(0, 1, height)[:, None]
    cmyk[..., 2] = 60
    cmyk[..., 3] = 230 * ink + rng.normal(0, 3, (height, width))
    return np.clip(np.round(cmyk), 0, 255).astype(np.uint8)


def ycck_jpeg(cmyk, quality):
    """A YCCK JPEG (Adobe transform 2) made by libjpeg-turbo's tjCompress2 from
    TJPF_CMYK pixels; Pillow only writes plain CMYK JPEGs."""
    tj = ctypes.CDLL("libturbojpeg.so.0")
    tj.tjInitCompress.restype = ctypes.c_void_p
    handle = ctypes.c_void_p(tj.tjInitCompress())
    height, width, _ = cmyk.shape
    source = (ctypes.c_ubyte * cmyk.size).from_buffer_copy(cmyk.tobytes())
    output, size = ctypes.POINTER(ctypes.c_ubyte)(), ctypes.c_ulong(0)
    TJPF_CMYK, TJSAMP_420 = 11, 2
    status = tj.tjCompress2(handle, source, width, 0, height, TJPF_CMYK, ctypes.byref(output), ctypes.byref(size),
                            TJSAMP_420, quality, 0)
    assert status == 0, "tjCompress2 failed"
    data = ctypes.string_at(output, size.value)
    tj.tjFree(output)
    tj.tjDestroy(handle)
    return data


def jpegtran(jpeg, arguments):
    """`jpeg` rewritten by libjpeg-turbo's jpegtran (Debian's libjpeg-turbo-progs)."""
    return subprocess.run(["jpegtran", *arguments], input=jpeg, stdout=subprocess.PIPE, check=True).stdout


def tiff(orientation, big_endian=False, ifd_offset=8, count=None, kind=3, value_count=1, next_ifd=0, extra=b""):
    """An EXIF TIFF block whose IFD0 holds ImageWidth and Orientation."""
    e = ">" if big_endian else "<"
    entries = [struct.pack(e + "HHI", 0x0100, 4, 1) + struct.pack(e + "I", 24),
               struct.pack(e + "HHI", 0x0112, kind, value_count) + struct.pack(e + "H", orientation) + b"\0\0"]
    ifd = struct.pack(e + "H", len(entries) if count is None else count) + b"".join(entries) + struct.pack(e + "I", next_ifd)
    header = (b"MM\0*" if big_endian else b"II*\0") + struct.pack(e + "I", ifd_offset)
    return header + ifd + extra


def jpeg_bytes(image, **options):
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", **options)
    return buffer.getvalue()


def png_bytes(image, **options):
    buffer = io.BytesIO()
    image.save(buffer, "PNG", **options)
    return buffer.getvalue()


# The transposes Pillow's exif_transpose applies for each orientation, and their inverses.
TRANSPOSE = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
             5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
             8: Image.Transpose.ROTATE_90}
INVERSE = {**TRANSPOSE, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}


class References:
    def __init__(self):
        self.rows, self.blob = [], bytearray()

    def add(self, file, decoding, gray):
        gray = np.asarray(gray, dtype=np.uint8)
        height, width = gray.shape
        self.rows.append(f"{file}\t{decoding}\t{width}\t{height}\t{len(self.blob)}")
        self.blob += gray.tobytes()

    def write(self):
        with open(os.path.join(OUT, "reference.tsv"), "w") as f:
            f.write("\n".join(self.rows) + "\n")
        with open(os.path.join(OUT, "gray.u8"), "wb") as f:
            f.write(self.blob)


def write(folder, name, data):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def pillow_gray(path, transpose=False):
    image = Image.open(path)
    if transpose:
        image = ImageOps.exif_transpose(image)
    return np.asarray(image.convert("L"))


def make_jpegs(refs):
    variants = [
        ("baseline-q90-420.jpg", "RGB", 64, 48, dict(quality=90, subsampling=2)),
        ("baseline-q50-444.jpg", "RGB", 37, 29, dict(quality=50, subsampling=0)),
        ("baseline-q20-422.jpg", "RGB", 61, 45, dict(quality=20, subsampling=1)),
        ("baseline-q100-444.jpg", "RGB", 16, 16, dict(quality=100, subsampling=0)),
        ("baseline-optimized-q75-420.jpg", "RGB", 50, 50, dict(quality=75, subsampling=2, optimize=True)),
        ("progressive-q85-420.jpg", "RGB", 75, 53, dict(quality=85, subsampling=2, progressive=True)),
        ("progressive-q60-444.jpg", "RGB", 40, 70, dict(quality=60, subsampling=0, progressive=True)),
        ("gray-q90.jpg", "L", 64, 48, dict(quality=90)),
        ("gray-progressive-q40.jpg", "L", 33, 47, dict(quality=40, progressive=True)),
        ("cmyk-q90.jpg", "CMYK", 48, 40, dict(quality=90)),
        ("cmyk-progressive-q70.jpg", "CMYK", 35, 45, dict(quality=70, progressive=True)),
    ]
    for name, mode, width, height, options in variants:
        if mode == "CMYK":
            image = Image.fromarray(cmyk_picture(width, height), "CMYK")
        else:
            image = Image.fromarray(picture(width, height)[0]).convert(mode)
        write(OUT, name, jpeg_bytes(image, **options))
        refs.add(name, "oriented", pillow_gray(os.path.join(OUT, name)))
    # Arithmetic coding and restart markers, which Pillow does not write: jpegtran
    # rewrites the baseline file losslessly (same coefficients, same pixels).
    baseline = open(os.path.join(OUT, "baseline-q90-420.jpg"), "rb").read()
    for name, arguments in [("arithmetic-q90-420.jpg", ["-arithmetic"]),
                            ("arithmetic-progressive-q90-420.jpg", ["-arithmetic", "-progressive"]),
                            ("restart-markers-q90-420.jpg", ["-restart", "1B"])]:
        write(OUT, name, jpegtran(baseline, arguments))
        refs.add(name, "oriented", pillow_gray(os.path.join(OUT, name)))
    write(OUT, "ycck-q90.jpg", ycck_jpeg(cmyk_picture(41, 39), 90))
    assert Image.open(os.path.join(OUT, "ycck-q90.jpg")).info.get("adobe_transform") == 2
    refs.add("ycck-q90.jpg", "oriented", pillow_gray(os.path.join(OUT, "ycck-q90.jpg")))
    write(OUT, "seven-q90.jpg", jpeg_bytes(SEVEN.convert("RGB"), quality=90))
    refs.add("seven-q90.jpg", "oriented", pillow_gray(os.path.join(OUT, "seven-q90.jpg")))

    # Reduced-size decoding, against Pillow's draft() at the same scale.
    for name, mode, width, height, max_side, scale in [("scaled-rgb-480x360.jpg", "RGB", 480, 360, 100, 4),
                                                        ("scaled-gray-400x304.jpg", "L", 400, 304, 50, 8),
                                                        ("scaled-cmyk-300x200.jpg", "CMYK", 300, 200, 150, 2)]:
        if mode == "CMYK":
            image = Image.fromarray(cmyk_picture(width, height), "CMYK")
        else:
            image = Image.fromarray(picture(width, height)[0]).convert(mode)
        write(OUT, name, jpeg_bytes(image, quality=80))
        drafted = Image.open(os.path.join(OUT, name))
        drafted.draft(drafted.mode, (width // scale, height // scale))
        assert drafted.size == (-(-width // scale), -(-height // scale)), drafted.size
        refs.add(name, f"maxSide={max_side}", np.asarray(drafted.convert("L")))
    # A large, cheap-to-store JPEG for the scaled dimensions only.
    large, _ = picture(1999, 1333)
    write(OUT, "large-1999x1333.jpg", jpeg_bytes(Image.fromarray(large).convert("L"), quality=30))


def make_orientations(refs):
    """A 7 drawn upright (24x40), stored turned by the inverse of each
    orientation's transform, with the tag that undoes it. EXIF blocks are
    little-endian for odd orientations and big-endian for even ones."""
    upright_rgb, _ = picture(24, 40)
    upright = Image.fromarray(upright_rgb).convert("L")
    write(OUT, "upright.png", png_bytes(upright))
    for orientation in range(1, 9):
        stored = upright if orientation == 1 else upright.transpose(INVERSE[orientation])
        exif = b"Exif\0\0" + tiff(orientation, big_endian=orientation % 2 == 0)
        for extension, data in [("jpg", jpeg_bytes(stored, quality=95, exif=exif)), ("png", png_bytes(stored, exif=exif))]:
            name = f"orientation-{orientation}.{extension}"
            write(OUT, name, data)
            path = os.path.join(OUT, name)
            assert Image.open(path).getexif().get(0x0112) == orientation
            oriented = pillow_gray(path, transpose=True)
            if extension == "png":
                assert np.array_equal(oriented, np.asarray(upright)), name
            refs.add(name, "oriented", oriented)
            refs.add(name, "stored", pillow_gray(path))


def netpbm(magic, width, height, maxval, body, header_comments=False):
    if header_comments:
        head = f"{magic}\n# made by make_format_fixtures.py\n{width}\t{height}  # size\r\n# maxval next\n"
        head += "" if maxval is None else f"{maxval}\n"
    else:
        head = f"{magic}\n{width} {height}\n" + ("" if maxval is None else f"{maxval}\n")
    return head.encode() + body


def plain_rows(samples, per_line):
    flat = [str(int(v)) for v in np.asarray(samples).reshape(-1)]
    return ("\n".join(" ".join(flat[i:i + per_line]) for i in range(0, len(flat), per_line)) + "\n").encode()


def scaled(samples, maxval):
    """round(v / maxval * 255) with Python's rounding, as Pillow's PPM plugin computes it."""
    return np.vectorize(lambda v: round(v / maxval * 255))(np.asarray(samples, dtype=np.int64)).astype(np.uint8)


def make_pnms(refs):
    rgb, ink = picture(20, 15)
    gray = np.asarray(Image.fromarray(rgb).convert("L"))
    bits = (ink > 0.5).astype(np.uint8)  # 1 is black
    gray16 = np.round(gray.astype(np.float64) * 257 * 0.9 + 3000).astype(np.int64)
    rgb16 = np.round(rgb.astype(np.float64) / 255 * 1000).astype(np.int64)
    files = [
        ("p1-bitmap.pbm", netpbm("P1", 20, 15, None, plain_rows(bits, 20).replace(b" ", b""), header_comments=True)),
        ("p2-8bit-comments.pgm", netpbm("P2", 20, 15, 255, plain_rows(gray, 7), header_comments=True)),
        ("p2-maxval-15.pgm", netpbm("P2", 20, 15, 15, plain_rows(gray >> 4, 20))),
        ("p2-16bit-maxval-4095.pgm", netpbm("P2", 20, 15, 4095, plain_rows(gray16 >> 4, 9))),
        ("p3-8bit.ppm", netpbm("P3", 20, 15, 255, plain_rows(rgb, 12), header_comments=True)),
        ("p4-bitmap.pbm", netpbm("P4", 20, 15, None, np.packbits(bits, axis=1).tobytes())),
        ("p5-8bit.pgm", netpbm("P5", 20, 15, 255, gray.tobytes(), header_comments=True)),
        ("p5-maxval-100.pgm", netpbm("P5", 20, 15, 100, (gray.astype(np.int64) * 100 // 255).astype(np.uint8).tobytes())),
        ("p5-16bit.pgm", netpbm("P5", 20, 15, 65535, gray16.astype(">u2").tobytes())),
        ("p6-8bit.ppm", netpbm("P6", 20, 15, 255, rgb.tobytes())),
        ("p6-16bit-maxval-1000.ppm", netpbm("P6", 20, 15, 1000, rgb16.astype(">u2").tobytes(), header_comments=True)),
    ]
    for name, data in files:
        write(OUT, name, data)
        image = Image.open(os.path.join(OUT, name))
        if image.mode == "I":
            # Pillow's convert("L") would clip these at 255; scale them instead (see the docstring).
            maxval = 65535 if "p5-16bit" in name else 4095
            samples = gray16 if maxval == 65535 else gray16 >> 4
            reference = scaled(samples, maxval)
        else:
            reference = np.asarray(image.convert("L"))
        refs.add(name, "oriented", reference)


def make_hostile():
    seven = jpeg_bytes(SEVEN.convert("RGB"), quality=90)
    rgb, _ = picture(64, 48)
    progressive = jpeg_bytes(Image.fromarray(rgb), quality=80, progressive=True)

    def segments(jpeg):
        """[(marker, start, end)] of the segments before the first image data."""
        out, i = [], 2
        while True:
            marker = jpeg[i + 1]
            length, = struct.unpack(">H", jpeg[i + 2:i + 4])
            out.append((marker, i, i + 2 + length))
            if marker == 0xDA:
                return out
            i += 2 + length

    parts = segments(seven)
    dht = next(s for s in parts if s[0] == 0xC4)
    sof = next(s for s in parts if s[0] == 0xC0)
    data_start = parts[-1][2]
    write(HOSTILE, "jpeg-truncated-at-3.jpg", seven[:3])
    write(HOSTILE, "jpeg-truncated-in-dht.jpg", seven[:dht[1] + 10])
    write(HOSTILE, "jpeg-truncated-before-sos.jpg", seven[:parts[-1][1]])
    write(HOSTILE, "jpeg-truncated-in-scan.jpg", seven[:data_start + (len(seven) - data_start) // 2])
    write(HOSTILE, "jpeg-truncated-before-eoi.jpg", seven[:-2])
    progressive_parts = segments(progressive)
    second_scan = progressive.index(b"\xff\xda", progressive_parts[-1][2])
    write(HOSTILE, "jpeg-progressive-truncated.jpg", progressive[:second_scan + 40])
    restarts = jpegtran(jpeg_bytes(Image.fromarray(rgb), quality=90), ["-restart", "1B"])
    write(HOSTILE, "jpeg-restart-markers-truncated.jpg", restarts[:len(restarts) * 3 // 4])
    # A run of stuffed FF bytes is a run of 1 bits: no Huffman code is all ones.
    middle = data_start + (len(seven) - data_start) // 3
    write(HOSTILE, "jpeg-corrupt-huffman.jpg", seven[:middle] + b"\xff\x00" * 8 + seven[middle + 16:])

    def with_frame(width, height):
        payload = bytearray(seven[sof[1] + 4:sof[2]])
        payload[1:5] = struct.pack(">HH", height, width)
        return seven[:sof[1] + 4] + bytes(payload) + seven[sof[2]:]

    write(HOSTILE, "jpeg-zero-width.jpg", with_frame(0, 28))
    write(HOSTILE, "jpeg-huge-dimensions.jpg", with_frame(60000, 60000))

    # EXIF that must be ignored (orientation 1): the picture itself is fine.
    def with_exif(block):
        app1 = b"\xff\xe1" + struct.pack(">H", len(block) + 8) + b"Exif\0\0" + block
        return seven[:2] + app1 + seven[2:]

    write(HOSTILE, "exif-offset-outside.jpg", with_exif(tiff(6, ifd_offset=0xFFFFFF00)))
    write(HOSTILE, "exif-entry-count-absurd.jpg", with_exif(tiff(6, count=0xFFFF)))
    write(HOSTILE, "exif-orientation-0.jpg", with_exif(tiff(0)))
    write(HOSTILE, "exif-orientation-9.jpg", with_exif(tiff(9, big_endian=True)))
    write(HOSTILE, "exif-ifd-loop.jpg", with_exif(tiff(1, next_ifd=8)))
    write(HOSTILE, "exif-truncated-entry.jpg", with_exif(tiff(6)[:20]))
    png = png_bytes(SEVEN, exif=b"Exif\0\0" + tiff(6))
    eXIf = png.index(b"eXIf")
    length, = struct.unpack(">I", png[eXIf - 4:eXIf])
    block = bytearray(png[eXIf + 4:eXIf + 4 + length])
    block[4:8] = struct.pack("<I", length + 100)  # IFD0 beyond the chunk
    crc = struct.pack(">I", zlib.crc32(b"eXIf" + bytes(block)) & 0xFFFFFFFF)
    write(HOSTILE, "exif-offset-outside.png", png[:eXIf + 4] + bytes(block) + crc + png[eXIf + 8 + length:])

    # Broken PNM.
    write(HOSTILE, "pnm-absurd-width.pgm", b"P5\n99999999999 1\n255\n\0")
    write(HOSTILE, "pnm-huge-dimensions.pgm", b"P5\n2000000000 2000000000\n255\n\0")
    write(HOSTILE, "pnm-maxval-0.pgm", b"P2\n2 2\n0\n0 0 0 0\n")
    write(HOSTILE, "pnm-maxval-70000.pgm", b"P5\n2 2\n70000\n" + bytes(8))
    write(HOSTILE, "pnm-truncated.ppm", b"P6\n20 15\n255\n" + rgb.tobytes()[:500])
    write(HOSTILE, "pnm-plain-truncated.pgm", b"P2\n4 4\n255\n" + b"1 2 3 4 5 6 7 8 9 10 11 12 13\n")
    write(HOSTILE, "pnm-over-maxval.pgm", b"P2\n2 2\n255\n0 128 300 255\n")
    write(HOSTILE, "pnm-garbage.pgm", b"P2\n2 2\n255\n0 12x 3 4\n")
    write(HOSTILE, "pnm-no-size.pgm", b"P5\n# only a comment\n")

    # Formats digits does not read: their real first bytes.
    small = Image.fromarray(rgb)
    for name, pillow_format in [("gif", "GIF"), ("webp", "WEBP"), ("tiff", "TIFF"), ("bmp", "BMP")]:
        buffer = io.BytesIO()
        small.save(buffer, pillow_format)
        write(HOSTILE, f"format.{name}", buffer.getvalue())
    # Pillow's PDFs carry the time they were made; the first bytes are what matter.
    write(HOSTILE, "format.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n")
    write(HOSTILE, "format.heic", struct.pack(">I", 24) + b"ftypheic" + struct.pack(">I", 0) + b"mif1heic" + bytes(64))
    write(HOSTILE, "format.avif", struct.pack(">I", 28) + b"ftypavif" + struct.pack(">I", 0) + b"avifmif1miaf" + bytes(64))
    write(HOSTILE, "format.svg", b'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="28" height="28"/>\n')


def main():
    os.makedirs(OUT, exist_ok=True)
    refs = References()
    make_jpegs(refs)
    make_orientations(refs)
    make_pnms(refs)
    refs.write()
    make_hostile()
    print(f"{len(refs.rows)} references, {len(refs.blob)} pixels; {len(os.listdir(OUT))} files in formats/")


if __name__ == "__main__":
    main()
