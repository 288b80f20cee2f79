#!/usr/bin/env python3
"""Publish time of 80,000 findings through the language server (issue 24 item 6).

Usage, from the repository root:
    python3 benches/lsp_findings.py BINARY [--count 80000] [--runs 5]

Builds the package of `benches/gen_findings.py` (a fixture of COUNT forbidden
member names, so COUNT FD300 findings in one file), starts `BINARY lsp`,
opens the fixture and measures, per run, the wall time from the `didOpen`
(later: a `didChange` with the same text) written to the server until its
`publishDiagnostics` for the fixture is read, and that notification's size.
Prints one line per run and the median. Not a test: nothing is asserted.
"""

import tempfile
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from lsp_client import published_sized, read, send

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--count", type=int, default=80000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pkg", default=os.path.join(tempfile.gettempdir(), "lsp-findings80k"))
    a = ap.parse_args()
    subprocess.run([sys.executable, os.path.join(HERE, "gen_findings.py"), a.pkg, "--count", str(a.count)], check=True)
    fixture = os.path.join(os.path.abspath(a.pkg), "fixtures", "desired.json")
    uri = "file://" + fixture
    text = open(fixture, encoding="utf-8").read()
    p = subprocess.Popen([a.binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    send(p, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    read(p)
    send(p, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    times = []
    for run in range(a.runs):
        start = time.monotonic()
        if run == 0:
            send(p, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}})
        else:
            send(p, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": run + 1}, "contentChanges": [{"text": text}]}})
        msg, size = published_sized(p, uri)
        took = time.monotonic() - start
        times.append(took)
        n = len(msg["params"]["diagnostics"])
        print("run %d: %.3f s, %d diagnostics sent, notification %d bytes, last: %s" % (run, took, n, size, msg["params"]["diagnostics"][-1]["message"][:60]))
    send(p, {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    read(p)
    send(p, {"jsonrpc": "2.0", "method": "exit", "params": None})
    p.wait(timeout=60)
    print("median %.3f s over %d runs" % (statistics.median(times), len(times)))


if __name__ == "__main__":
    main()
