#!/usr/bin/env python3
"""Generate a deterministic tree of N Form Packages for throughput benchmarks.

Usage: python3 benches/gen_tree.py OUT_DIR [--count 10000] [--seed 6]

Every generated package is a copy of a real package (the corpus under
../shared/corpus/packages and the repository's fixtures/packages), drawn
with a seeded PRNG, so all index epochs (v1alpha1..v1alpha5 package indexes,
legacy, family and current definition lanes) appear in corpus proportion.
About half of the copies are then mutated to vary their size: an extra JSON
payload `bench/extra.json` holding 0..2000 benign records (up to ~100 KB) is
written and listed in package-index.json with its exact size and SHA-256
(raw-byte digest, so no RFC 8785 step is needed; the index keeps its member
order and the files list stays sorted by path). Packages that fail by design
in the corpus fail here too; nothing else changes a verdict.

With --distinct-schemas (issue 23: an honest tree for the compiled-schema
cache), every copy's inline schemas (desiredSchema, observedSchema,
outputSchema, interfaces[].documentSchema) get a `description` naming the
copy, so no two packages share an inline schema; the definition is
rewritten (member order kept) and its size, raw SHA-256 and RFC 8785
schemaDigest are recomputed in the index. A copy is changed only when the
RFC 8785 digest computed here of its original definition equals its index's
schemaDigest (else it is left as it is and counted).

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
    "../shared/corpus/packages",
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


def es_number(x):
    """ECMAScript Number.prototype.toString of a binary64 (RFC 8785 3.2.2.3)."""
    if x == 0:
        return "0"
    r = repr(abs(float(x)))
    mant, _, exp = r.partition("e")
    exp = int(exp) if exp else 0
    if "." in mant:
        ip, fp = mant.split(".")
    else:
        ip, fp = mant, ""
    digits = (ip + fp).lstrip("0")
    lead_zeros = len(ip + fp) - len((ip + fp).lstrip("0"))
    n = len(ip) + exp - lead_zeros  # x = 0.digits * 10^n
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    sign = "-" if x < 0 else ""
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    m = digits[0] + ("." + digits[1:] if k > 1 else "")
    return sign + m + "e" + ("+" if e >= 0 else "-") + str(abs(e))


def jcs(v):
    """RFC 8785 canonical text of a parsed JSON value."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return es_number(float(v))
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ",".join(jcs(i) for i in v) + "]"
    keys = sorted(v, key=lambda k: k.encode("utf-16-be"))
    return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + jcs(v[k]) for k in keys) + "}"


def digest_of(v):
    return "sha256:" + hashlib.sha256(jcs(v).encode()).hexdigest()


def distinct_schemas(dst, tag):
    """Give every inline schema of the copy a description naming `tag`."""
    index_path = os.path.join(dst, "package-index.json")
    def_path = os.path.join(dst, "definition.json")
    try:
        with open(index_path, "rb") as f:
            index = json.loads(f.read())
        with open(def_path, "rb") as f:
            definition = json.loads(f.read())
    except (OSError, ValueError):
        return False
    if not isinstance(index, dict) or not isinstance(definition, dict):
        return False
    form_ref = index.get("formRef") if isinstance(index.get("formRef"), dict) else None
    if form_ref is None or form_ref.get("schemaDigest") != digest_of(definition):
        return False
    entries = [e for e in index.get("files", []) if isinstance(e, dict) and e.get("path") == "definition.json"]
    targets = [definition.get(m) for m in ("desiredSchema", "observedSchema", "outputSchema")]
    for iface in definition.get("interfaces", []) if isinstance(definition.get("interfaces"), list) else []:
        if isinstance(iface, dict):
            targets.append(iface.get("documentSchema"))
    changed = 0
    for t in targets:
        if isinstance(t, dict):
            t["description"] = "bench copy %s, schema %d" % (tag, changed)
            changed += 1
    if not changed:
        return False
    data = (json.dumps(definition, indent=2, ensure_ascii=False) + "\n").encode()
    with open(def_path, "wb") as f:
        f.write(data)
    form_ref["schemaDigest"] = digest_of(definition)
    for e in entries:
        if "size" in e:
            e["size"] = len(data)
        if "digest" in e:
            e["digest"] = "sha256:" + hashlib.sha256(data).hexdigest()
    os.chmod(index_path, 0o644)
    with open(index_path, "wb") as f:
        f.write((json.dumps(index, indent=2, ensure_ascii=False) + "\n").encode())
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--distinct-schemas", action="store_true")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sources = package_dirs()
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    mutated = 0
    distinct = 0
    for i in range(args.count):
        src = rng.choice(sources)
        dst = os.path.join(args.out, "p%05d" % i)
        shutil.copytree(src, dst, copy_function=shutil.copyfile)
        for root, dirs, files in os.walk(dst):
            os.chmod(root, 0o755)
        if rng.random() < 0.5 and add_extra_payload(dst, rng):
            mutated += 1
        if args.distinct_schemas and distinct_schemas(dst, "p%05d" % i):
            distinct += 1
    print(
        "wrote %d packages (%d with an extra payload, %d with distinct inline schemas) from %d sources to %s"
        % (args.count, mutated, distinct, len(sources), args.out),
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
