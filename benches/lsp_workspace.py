#!/usr/bin/env python3
"""Language-server publish latency in a big workspace (issue 38 item 3's figure).

Usage, from the repository root:
    python3 benches/lsp_workspace.py BINARY [--files 20000] [--edits 300] [--warmup 20]

Builds two workspaces in a temporary directory (removed at the end):

- `stray`: the issue's case. A tree of FILES small files (`src/dNNN/fNNNNN.txt`,
  100 per directory) under a stray `package-index.json` at its top (a copy of
  the fixture package's index), and `schemas/forms/definition.json` (a copy of
  the fixture package's definition) in no package of its own: the server's
  package for it is the whole tree, which the walk refuses for too many files.
- `package`: a normal package, a copy of
  `fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7`.

For each, starts `BINARY lsp`, opens `definition.json` (timing didOpen to its
first publishDiagnostics, which reads the disk), then makes WARMUP + EDITS
unsaved full-text edits, one at a time, each inserting one more character into
the definition's first `description` string (as typing does), and times each
from writing the didChange to reading the publishDiagnostics of
`definition.json`. The first WARMUP edits are not counted. A third run,
`stray_index`, edits the stray `package-index.json` itself instead (typing
into its `kind`), the file of that tree every verification reads: each edit
verifies the whole tree. Prints one JSON
document: per workspace the open time and the edits' min, median, p95 (the
nearest-rank 95th percentile) and max in milliseconds, plus the machine's load
average before and after. Not a test: nothing is asserted.
"""

import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from lsp_client import published, read, send

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SMALL = os.path.join(REPO, "fixtures", "packages", "v1alpha1", "example-store-1.0.0-f486d5e31632")
PACKAGE = os.path.join(REPO, "fixtures", "packages", "v1beta1", "worker-version-0.1.0-54e6d25738e7")


def stray_workspace(top, files):
    os.makedirs(top)
    shutil.copy(os.path.join(SMALL, "package-index.json"), os.path.join(top, "package-index.json"))
    for i in range(files):
        d = os.path.join(top, "src", "d%03d" % (i // 100))
        if i % 100 == 0:
            os.makedirs(d)
        with open(os.path.join(d, "f%05d.txt" % i), "w") as f:
            f.write("file %d\n" % i)
    forms = os.path.join(top, "schemas", "forms")
    os.makedirs(forms)
    shutil.copy(os.path.join(SMALL, "definition.json"), forms)
    return os.path.join(forms, "definition.json")


def package_workspace(top):
    shutil.copytree(PACKAGE, top)
    return os.path.join(top, "definition.json")


def with_description(text):
    """The text with a string to type into: a definition's first
    `description` (one added to the desired schema if it has none), an
    index's `kind`."""
    if re.search(r'"(description|kind)"\s*:\s*"', text):
        return text
    return text.replace('"desiredSchema":{', '"desiredSchema":{"description":"",', 1)


def stats(xs):
    s = sorted(xs)
    rank = lambda q: s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]
    r = lambda x: round(x, 2)
    return {"n": len(s), "min": r(s[0]), "median": r(statistics.median(s)), "p95": r(rank(0.95)), "max": r(s[-1])}


def measure(binary, definition, edits, warmup):
    uri = "file://" + definition
    text = with_description(open(definition, encoding="utf-8").read())
    p = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    send(p, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    read(p)
    send(p, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    start = time.monotonic()
    send(p, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
             "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}})
    first = published(p, uri)
    opened = (time.monotonic() - start) * 1000
    at = (re.search(r'"description"\s*:\s*"', text) or re.search(r'"kind"\s*:\s*"', text)).end()
    typed = "abcdefghijklmnopqrstuvwxyz "
    times = []
    last = first
    for i in range(warmup + edits):
        text = text[:at] + typed[i % len(typed)] + text[at:]
        start = time.monotonic()
        send(p, {"jsonrpc": "2.0", "method": "textDocument/didChange",
                 "params": {"textDocument": {"uri": uri, "version": i + 2}, "contentChanges": [{"text": text}]}})
        last = published(p, uri)
        if i >= warmup:
            times.append((time.monotonic() - start) * 1000)
    send(p, {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    while read(p).get("id") != 2:
        pass
    send(p, {"jsonrpc": "2.0", "method": "exit", "params": None})
    p.wait(timeout=60)
    codes = sorted({d.get("code", "") for d in last})
    return {"open_ms": round(opened, 2), "edits_ms": stats(times),
            "definition_findings_after_last_edit": len(last), "codes": codes}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--files", type=int, default=20000)
    ap.add_argument("--edits", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--index-edits", type=int, default=30)
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    load_before = os.getloadavg()
    tmp = tempfile.mkdtemp(prefix="lsp-workspace-")
    try:
        out = {"binary": a.binary, "files": a.files, "edits": a.edits, "warmup": a.warmup,
               "load_before": [round(x, 2) for x in load_before]}
        stray = stray_workspace(os.path.join(tmp, "stray"), a.files)
        out["stray"] = measure(binary, stray, a.edits, a.warmup)
        index = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(stray))), "package-index.json")
        out["stray_index"] = measure(binary, index, a.index_edits, 2)
        out["package"] = measure(binary, package_workspace(os.path.join(tmp, "package")), a.edits, a.warmup)
        out["load_after"] = [round(x, 2) for x in os.getloadavg()]
        json.dump(out, sys.stdout, indent=2)
        print()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
