#!/usr/bin/env python3
"""Writes the two scans a benchmark's plan is computed from, for the assets in OUT/assets.json:
scan-full.ndjson (a library holding every asset's bytes, and one file more) and scan-gone.ndjson
(the same library with only that one file left, so the root does not look unmounted). With
PER_FOLDER, files are spread over folders of that many, as a review page groups them.

    bench/scans-from-server.py OUT IMMICH_URL USER_ID [PER_FOLDER]
"""
import json
import sys

out, url, user = sys.argv[1:4]
per_folder = int(sys.argv[4]) if len(sys.argv) > 4 else 0
assets = json.load(open(out + "/assets.json"))


def path(i):
    return "/photos/%02d/%07d.jpg" % (i // per_folder, i) if per_folder else "/photos/%07d.jpg" % i


def scan(name, files):
    with open(out + "/" + name, "w") as f:
        f.write(json.dumps({"type": "header", "schema": "1.1", "tool": "cairn-hash", "version": "bench",
                            "pipeline": ["cairn-hash"], "roots": ["/photos"],
                            "server": {"url": url, "userId": user},
                            "createdAt": "2026-11-22T00:00:00.000Z"}) + "\n")
        for i, checksum in enumerate(files):
            f.write(json.dumps({"type": "file", "path": path(i), "root": "/photos", "size": 1000,
                                "mtime": "2026-11-22T00:00:00.000Z", "checksum": checksum,
                                "device": 1, "inode": i + 1}) + "\n")
        f.write(json.dumps({"type": "end", "tool": "cairn-hash", "complete": True, "errors": 0,
                            "counts": {"files": len(files)},
                            "records": {"file": len(files)} if files else {},
                            "roots": [{"path": "/photos", "complete": True,
                                       "files": len(files)}]}) + "\n")


keeper = "AAAAAAAAAAAAAAAAAAAAAAAAAAA="
scan("scan-full.ndjson", [keeper] + [a["checksum"] for a in assets])
scan("scan-gone.ndjson", [keeper])
