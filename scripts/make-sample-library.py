#!/usr/bin/env python3
"""Writes a small photo library of real, distinct image files for the demo.

PNG stills (drawn here, so every file has different bytes) and one Live Photo pair: a still and
its QuickTime motion video with the same base name, as a phone exports them. Standard library
only, so the demo needs nothing installed.
"""
import os
import struct
import sys
import zlib


def png(width, height, seed):
    """A gradient PNG whose pixels depend on `seed`."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        for x in range(width):
            rows += bytes(((x * 7 + seed * 31) % 256, (y * 5 + seed * 17) % 256, (x ^ y ^ seed) % 256))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b"")


def mov(seed):
    """A minimal QuickTime file: ftyp, a movie header, and a media payload."""

    def box(kind, data):
        return struct.pack(">I", 8 + len(data)) + kind + data

    ftyp = box(b"ftyp", b"qt  " + struct.pack(">I", 0) + b"qt  ")
    mvhd = box(b"mvhd", bytes(4) + struct.pack(">IIII", 0, 0, 600, 1800) + bytes(80))
    mdat = box(b"mdat", bytes((seed * 13 + i) % 256 for i in range(4096)))
    return ftyp + box(b"moov", mvhd) + mdat


def main(root):
    files = {
        "2024/06/IMG_0001.PNG": png(64, 48, 1),
        "2024/06/IMG_0002.PNG": png(64, 48, 2),
        "2024/06/IMG_0003.PNG": png(64, 48, 3),
        "2024/07/IMG_0004.PNG": png(48, 64, 4),
        "2024/07/IMG_0005.PNG": png(48, 64, 5),
        "2024/07/IMG_0042.PNG": png(64, 64, 42),  # Live Photo still
        "2024/07/IMG_0042.MOV": mov(42),  # ... and its motion video
        "2025/01/IMG_0100.PNG": png(80, 60, 100),
        "2025/01/IMG_0101.PNG": png(80, 60, 101),
        "2025/02/beach day.png": png(80, 60, 102),
    }
    for relative, data in files.items():
        path = os.path.join(root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
    print(len(files))


if __name__ == "__main__":
    main(sys.argv[1])
