#!/usr/bin/env python3
"""The demo's server: the demo user owns every file of the sample library (as if the phone had
uploaded them), plus one photo that was never in the folder; a partner shares a copy of one photo.

Prints the test server's scenario JSON (see docs/TESTSERVER.md) on stdout.
"""
import base64
import hashlib
import json
import os
import sys
import struct
import uuid
import zlib

root = sys.argv[1]
demo = str(uuid.UUID("6f1c2f4e-8a51-4c77-9d3e-1b2a3c4d5e6f"))
partner = str(uuid.UUID("0b7e4c1a-2d3f-4a5b-8c6d-7e8f9a0b1c2d"))


def checksum(path):
    with open(path, "rb") as handle:
        return base64.b64encode(hashlib.sha1(handle.read()).digest()).decode()


def pixels(path):
    """The RGB pixels of one of make-sample-library.py's PNGs (8-bit RGB, no filter), which the
    test server makes the asset's thumbnails from; None for anything else."""
    with open(path, "rb") as handle:
        data = handle.read()
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return None
    width, height = struct.unpack(">II", data[16:24])
    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + length]
        at += 12 + length
    rows = zlib.decompress(idat)
    stride = width * 3 + 1
    rgb = b"".join(rows[y * stride + 1:(y + 1) * stride] for y in range(height))
    return {"width": width, "height": height, "rgb": base64.b64encode(rgb).decode()}


def asset_id(name):
    # Immich validates ids as UUID version 4: keep the name-derived bits, mark them v4.
    return str(uuid.UUID(bytes=uuid.uuid5(uuid.NAMESPACE_URL, "cairn-demo/" + name).bytes, version=4))


assets = []
paths = sorted(
    os.path.join(d, f) for d, _, files in os.walk(root) for f in files
)
videos = {}
for path in paths:
    name = os.path.basename(path)
    if name.upper().endswith(".MOV"):
        videos[os.path.splitext(name)[0]] = asset_id(name)
for i, path in enumerate(paths):
    name = os.path.basename(path)
    base, ext = os.path.splitext(name)
    is_video = ext.upper() == ".MOV"
    assets.append({
        "id": asset_id(name), "ownerId": demo, "originalFileName": name,
        "checksum": checksum(path), "type": "VIDEO" if is_video else "IMAGE",
        "visibility": "hidden" if is_video and base in videos else "timeline",
        "livePhotoVideoId": None if is_video else videos.get(base),
        "fileCreatedAt": "2024-06-%02dT10:00:00Z" % (i + 1), "trashed": False,
        "image": None if is_video else pixels(path),
    })
assets.append({
    "id": asset_id("never-local"), "ownerId": demo, "originalFileName": "IMG_9999.JPG",
    "checksum": base64.b64encode(hashlib.sha1(b"uploaded from another device").digest()).decode(),
    "type": "IMAGE", "visibility": "timeline", "livePhotoVideoId": None,
    "fileCreatedAt": "2023-01-01T10:00:00Z", "trashed": False,
})
shared = next(a for a in assets if a["originalFileName"] == "IMG_0003.PNG")
assets.append(dict(shared, id=asset_id("partner-copy"), ownerId=partner,
                   originalFileName="IMG_0003 (from Bob).PNG"))

print(json.dumps({
    "version": "v3.1", "trashEnabled": True, "trashDays": 30,
    "users": [
        {"id": demo, "email": "demo@example.com", "password": "demo", "name": "Demo"},
        {"id": partner, "email": "bob@example.com", "password": "bob", "name": "Bob"},
    ],
    "apiKeys": [{"name": "cairn", "secret": "demo-secret", "permissions": ["all"], "ownerId": demo}],
    "partners": [{"sharedById": partner, "sharedWithId": demo, "inTimeline": True}],
    "assets": assets,
}, indent=1))
