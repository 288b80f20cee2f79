"""The language-server client framing the LSP benches share
(`lsp_workspace.py`, `lsp_findings.py`): JSON-RPC messages over stdio, each
behind a `Content-Length` header. Not a bench of its own.
"""

import json


def send(p, msg):
    """Writes `msg` to the server `p` (a `subprocess.Popen` with pipes)."""
    body = json.dumps(msg).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    p.stdin.flush()


def read_sized(p):
    """Reads the server's next message: (the message, its body's size in bytes)."""
    length = None
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("the server closed its output")
        line = line.strip()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    body = p.stdout.read(length)
    return json.loads(body), len(body)


def read(p):
    """Reads the server's next message."""
    return read_sized(p)[0]


def published_sized(p, uri):
    """Reads messages until the publishDiagnostics of `uri`: (it, its body's size)."""
    while True:
        msg, size = read_sized(p)
        if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
            return msg, size


def published(p, uri):
    """Reads messages until the publishDiagnostics of `uri`; its list."""
    return published_sized(p, uri)[0]["params"]["diagnostics"]
