#!/usr/bin/env python3
"""Writes synthetic cairn streams for the reconcile benchmark.

gen-streams.py OUT N_LOCAL N_SERVER DELETED
  OUT/scan-1.ndjson   N_LOCAL file records (the first scan: seeds the observed store)
  OUT/scan-2.ndjson   the same minus DELETED files (the run that is measured)
  OUT/server.ndjson   N_SERVER asset records: every local checksum, then server-only ones
  OUT/local.txt, OUT/server.txt   the bare checksums, for the sort+comm baseline
"""
import base64, hashlib, os, sys

out, n_local, n_server, deleted = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
os.makedirs(out, exist_ok=True)
URL, USER = "http://bench.invalid/api", "00000000-0000-4000-8000-000000000001"
root = "/bench/Photos"

def checksum(i):
    return base64.b64encode(hashlib.sha1(b"photo-%d" % i).digest()).decode()

def header(tool, server):
    s = ',"server":{"url":"%s","userId":"%s","version":"2.7.0"}' % (URL, USER) if server else ""
    return ('{"type":"header","schema":"1.1","tool":"%s","version":"bench","pipeline":["%s"],'
            '"roots":["%s"]%s,"createdAt":"2026-11-22T00:00:00.000Z"}\n' % (tool, tool, root, s))

sums = [checksum(i) for i in range(max(n_local, n_server))]
gone = set(range(0, n_local, max(1, n_local // max(1, deleted)))[:deleted]) if deleted else set()

for name, skip in (("scan-1", set()), ("scan-2", gone)):
    with open(os.path.join(out, name + ".ndjson"), "w") as f, \
         open(os.path.join(out, "local.txt") if name == "scan-2" else os.devnull, "w") as bare:
        f.write(header("cairn-hash", False))
        count = 0
        for i in range(n_local):
            if i in skip:
                continue
            count += 1
            f.write('{"type":"file","path":"%s/%04d/IMG_%07d.jpg","root":"%s","size":2500000,'
                    '"mtime":"2026-01-01T00:00:00.000Z","checksum":"%s","dev":2049,"ino":%d}\n'
                    % (root, i // 1000, i, root, sums[i], 1000 + i))
            bare.write(sums[i] + "\n")
        f.write('{"type":"end","tool":"cairn-hash","complete":true,"errors":0,"counts":{"files":%d},'
                '"records":{"file":%d},"roots":[{"path":"%s","complete":true,"files":%d}]}\n'
                % (count, count, root, count))

with open(os.path.join(out, "server.ndjson"), "w") as f, open(os.path.join(out, "server.txt"), "w") as bare:
    f.write(header("cairn-fetch", True))
    for i in range(n_server):
        f.write('{"type":"asset","id":"%08x-0000-4000-8000-%012x","checksum":"%s",'
                '"originalFileName":"IMG_%07d.jpg","assetType":"IMAGE","visibility":"timeline",'
                '"livePhotoVideoId":null,"isTrashed":false,"ownerId":"%s",'
                '"fileCreatedAt":"2026-01-01T00:00:00.000Z"}\n' % (i, i, sums[i], i, USER))
        bare.write(sums[i] + "\n")
    f.write('{"type":"end","tool":"cairn-fetch","complete":true,"errors":0,"counts":{"assets":%d},'
            '"records":{"asset":%d}}\n' % (n_server, n_server))
