#!/usr/bin/env python3
"""Generate one Form Package with N findings, for the render benchmark.

Usage: python3 benches/gen_findings.py OUT_DIR [--count 80000]

A copy of the shipped `example-store` package whose positive fixture
`fixtures/desired.json` holds, besides its valid `name`, N members named
`password0` .. `password{N-1}`, one per line (about 20 bytes each). Each is a
forbidden payload field name, so `verify` reports exactly N findings (FD300,
one per member, each with its own pointer and span) and nothing else: the
index lists the fixture with its new size and raw-byte SHA-256. The output
is byte-for-byte reproducible.
"""

import argparse
import hashlib
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "fixtures", "packages", "v1alpha1", "example-store-1.0.0-f486d5e31632")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=80000)
    a = ap.parse_args()
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    shutil.copytree(SOURCE, a.out)
    lines = ['  "name": "x"'] + ['  "password%d": %d' % (i, i) for i in range(a.count)]
    data = ("{\n" + ",\n".join(lines) + "\n}\n").encode()
    with open(os.path.join(a.out, "fixtures", "desired.json"), "wb") as f:
        f.write(data)
    index_path = os.path.join(a.out, "package-index.json")
    with open(index_path, "rb") as f:
        index = json.loads(f.read())
    for entry in index["files"]:
        if entry["path"] == "fixtures/desired.json":
            entry["size"] = len(data)
            entry["digest"] = "sha256:" + hashlib.sha256(data).hexdigest()
    with open(index_path, "w") as f:
        json.dump(index, f, separators=(",", ":"))
    print("%s: %d forbidden names, fixture %d bytes" % (a.out, a.count, len(data)))


if __name__ == "__main__":
    main()
