#!/usr/bin/env python3
"""Generate a deterministic tree of N Form Packages for throughput benchmarks.

Usage: python3 benches/gen_tree.py OUT_DIR [--count 10000] [--seed 6]

Every generated package is a copy of a real package (the corpus under
/work/shared/corpus/packages and the repository's fixtures/packages), drawn
with a seeded PRNG, so all index epochs (v1alpha1..v1alpha5 package indexes,
legacy, family and current definition lanes) appear in corpus proportion.
About half of the copies are then mutated to vary their size: an extra JSON
payload `bench/extra.json` holding 0..2000 benign records (up to ~100 KB) is
written and listed in package-index.json with its exact size and SHA-256
(raw-byte digest, so no RFC 8785 step is needed; the index keeps its member
order and the files list stays sorted by path). Packages that fail by design
in the corpus fail here too; nothing else changes a verdict.

The output is byte-for-byte reproducible for a given seed and count.
"""

import argparse
import hashlib
import json
import os
import random
import shutil
import sys

SOURCES = [
    "/work/shared/corpus/packages",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "packages"),
]


def package_dirs():
    found = []
    for src in SOURCES:
        for root, dirs, files in os.walk(src):
            dirs.sort()
            if "package-index.json" in files:
                found.append(root)
                dirs[:] = []
    return sorted(found)


def add_extra_payload(dst, rng):
    index_path = os.path.join(dst, "package-index.json")
    with open(index_path, "rb") as f:
        raw = f.read()
    try:
        index = json.loads(raw)
    except ValueError:
        return False
    files = index.get("files") if isinstance(index, dict) else None
    if not isinstance(files, list) or any(
        not isinstance(e, dict) or e.get("path") == "bench/extra.json" for e in files
    ):
        return False
    n = rng.randrange(0, 2001)
    doc = {
        "note": "benchmark padding",
        "records": [
            {"seq": i, "label": "r%05d" % rng.randrange(100000), "weight": rng.randrange(1000)}
            for i in range(n)
        ],
    }
    data = (json.dumps(doc, indent=1) + "\n").encode()
    os.makedirs(os.path.join(dst, "bench"), exist_ok=True)
    with open(os.path.join(dst, "bench", "extra.json"), "wb") as f:
        f.write(data)
    files.append(
        {
            "path": "bench/extra.json",
            "mediaType": "application/json",
            "size": len(data),
            "digest": "sha256:" + hashlib.sha256(data).hexdigest(),
        }
    )
    files.sort(key=lambda e: str(e.get("path", "")).encode())
    os.chmod(index_path, 0o644)
    with open(index_path, "wb") as f:
        f.write((json.dumps(index, indent=2, ensure_ascii=False) + "\n").encode())
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=6)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sources = package_dirs()
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    mutated = 0
    for i in range(args.count):
        src = rng.choice(sources)
        dst = os.path.join(args.out, "p%05d" % i)
        shutil.copytree(src, dst, copy_function=shutil.copyfile)
        for root, dirs, files in os.walk(dst):
            os.chmod(root, 0o755)
        if rng.random() < 0.5 and add_extra_payload(dst, rng):
            mutated += 1
    print(
        "wrote %d packages (%d with an extra payload) from %d sources to %s"
        % (args.count, mutated, len(sources), args.out),
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
