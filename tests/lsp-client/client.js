'use strict';
// A real LSP client for `form-package lsp`, out of process, on npm's
// `vscode-languageserver-protocol` (the JSON-RPC and protocol layer VS Code's
// own client is built on) and `vscode-languageserver-textdocument` (how VS
// Code's libraries apply text edits with UTF-16 positions). Used by
// `e2e.js` (the end-to-end test, run by tests/lsp/lsp_e2e.rs) and `bench.js`
// (the latency and memory benchmark, docs/src/benchmarks.md).

const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const url = require('url');
const P = require('vscode-languageserver-protocol/node');
const { TextDocument } = require('vscode-languageserver-textdocument');

/** How long any one wait for the server may take (ms). */
const TIMEOUT_MS = Number(process.env.FORM_PACKAGE_LSP_TIMEOUT_MS || 120000);

/** The LSP severity (1..4) as `verify --format json` names it. */
const SEVERITY = { 1: 'error', 2: 'warning', 3: 'note', 4: 'hint' };

/** A failed check: the message says what differs. */
class Failure extends Error {}

function fail(message) {
  throw new Failure(message);
}

/** Temporary copies, removed when the process exits. */
const copies = [];
process.on('exit', () => {
  if (process.env.FORM_PACKAGE_LSP_KEEP) return;
  for (const d of copies) fs.rmSync(d, { recursive: true, force: true });
});

/** Copies a (read-only) corpus package to a fresh temporary directory and
 * makes the copy writable; returns the copy's path. */
function copyPackage(src) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'form-package-lsp-'));
  copies.push(base);
  const dst = path.join(base, path.basename(src));
  fs.cpSync(src, dst, { recursive: true });
  const walk = (p) => {
    const st = fs.lstatSync(p);
    fs.chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
    if (st.isDirectory()) for (const n of fs.readdirSync(p)) walk(path.join(p, n));
  };
  walk(dst);
  return dst;
}

/** The LSP position (0-based line, UTF-16 column) of byte `offset` in
 * `bytes`; lines end at CR LF, LF or a lone CR. Computed here, apart from
 * the server's own conversion. */
function positionAt(bytes, offset) {
  const before = bytes.subarray(0, Math.min(offset, bytes.length)).toString('utf8');
  const lines = before.split(/\r\n|\r|\n/);
  return { line: lines.length - 1, character: lines[lines.length - 1].length };
}

/** The findings `form-package verify --format json DIR` reports, in the
 * shape the client compares: file (package path; a finding without a file
 * is shown on package-index.json), code, severity, message and the LSP
 * range of its span (the start of the file without one). */
function verifyFindings(server, dir) {
  const out = cp.spawnSync(server, ['verify', '--format', 'json', dir], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (out.status !== 0 && out.status !== 1) {
    fail(`verify --format json exited ${out.status}: ${out.stderr}`);
  }
  const pkg = JSON.parse(out.stdout).packages[0];
  const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const found = pkg.diagnostics.map((d) => {
    const file = d.file == null ? 'package-index.json' : d.file;
    let range = zero;
    if (d.file != null && d.span) {
      const bytes = fs.readFileSync(path.join(dir, file));
      range = { start: positionAt(bytes, d.span.start), end: positionAt(bytes, d.span.end) };
    }
    return { file, code: d.code, severity: d.severity, message: d.message, range };
  });
  return { verdict: pkg.verdict, status: out.status, findings: sortFindings(found) };
}

function sortFindings(list) {
  return list
    .map((f) => [JSON.stringify(f), f])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map((p) => p[1]);
}

/** Fails unless the two finding lists are equal, naming the differences. */
function assertSameFindings(label, published, expected) {
  const a = published.map((f) => JSON.stringify(f));
  const b = expected.map((f) => JSON.stringify(f));
  const onlyA = a.filter((x) => !b.includes(x));
  const onlyB = b.filter((x) => !a.includes(x));
  if (onlyA.length || onlyB.length || a.length !== b.length) {
    fail(
      `${label}: published diagnostics differ from verify --format json\n` +
        `  published only (${onlyA.length}):\n    ${onlyA.join('\n    ')}\n` +
        `  verify only (${onlyB.length}):\n    ${onlyB.join('\n    ')}\n` +
        `  counts: published ${a.length}, verify ${b.length}`,
    );
  }
}

/** One `form-package lsp` process and the client state around it. */
class Client {
  /** Starts `server lsp`. */
  constructor(server) {
    this.server = server;
    this.proc = cp.spawn(server, ['lsp'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.proc.stderr.on('data', (b) => {
      this.stderr += b.toString('utf8');
    });
    this.exited = new Promise((resolve) => {
      this.proc.on('exit', (code, signal) => resolve({ code, signal }));
    });
    this.conn = P.createProtocolConnection(
      new P.StreamMessageReader(this.proc.stdout),
      new P.StreamMessageWriter(this.proc.stdin),
    );
    /** uri → { seq, diagnostics, at } of the last publication. */
    this.published = new Map();
    this.seq = 0;
    this.waiters = [];
    /** uri → TextDocument of every open document. */
    this.docs = new Map();
    /** Workspace edits the server asked us to apply (workspace/applyEdit). */
    this.applied = [];
    this.logs = [];
    this.conn.onNotification(P.PublishDiagnosticsNotification.type, (p) => {
      this.seq += 1;
      this.published.set(p.uri, { seq: this.seq, diagnostics: p.diagnostics, at: performance.now() });
      this.poke();
    });
    this.conn.onNotification((method, params) => {
      this.logs.push({ method, params });
    });
    this.conn.onRequest(P.ApplyWorkspaceEditRequest.type, async (p) => {
      this.applied.push(p.edit);
      await this.applyWorkspaceEdit(p.edit);
      return { applied: true };
    });
    // client/registerCapability, window/workDoneProgress/create, …
    this.conn.onRequest(() => null);
    this.conn.onError((e) => this.logs.push({ method: 'error', params: String(e) }));
    this.conn.listen();
  }

  poke() {
    const keep = [];
    for (const w of this.waiters) {
      if (w.test()) w.resolve();
      else keep.push(w);
    }
    this.waiters = keep;
  }

  /** Resolves when `test()` holds (checked on each publication). */
  until(what, test, ms = TIMEOUT_MS) {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Failure(`timed out after ${ms} ms waiting for ${what}\nserver stderr:\n${this.stderr}`));
      }, ms);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push({ test, resolve: done });
    });
  }

  /** Resolves after the first publication for `uri` later than `seq`,
   * then no publication for `quietMs`. A hover request first is a barrier:
   * the server answers it after the messages sent before it, and brings
   * its findings up to date before a hover, so a publication of an earlier
   * verification is not taken for the latest. */
  async settle(uri, seq, quietMs = 300) {
    await this.conn
      .sendRequest(P.HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } })
      .catch(() => null);
    await this.until(`diagnostics for ${uri}`, () => (this.published.get(uri)?.seq ?? 0) > seq);
    for (;;) {
      const last = this.seq;
      await new Promise((r) => setTimeout(r, quietMs));
      if (this.seq === last) return;
    }
  }

  async initialize(rootDir) {
    const res = await this.conn.sendRequest(P.InitializeRequest.type, {
      processId: process.pid,
      clientInfo: { name: 'form-package-e2e', version: '1' },
      rootUri: url.pathToFileURL(rootDir).href,
      workspaceFolders: [{ uri: url.pathToFileURL(rootDir).href, name: path.basename(rootDir) }],
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        workspace: {
          applyEdit: true,
          workspaceEdit: { documentChanges: true },
        },
        textDocument: {
          synchronization: { didSave: true, dynamicRegistration: false },
          publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          definition: { linkSupport: false },
          codeAction: {
            codeActionLiteralSupport: {
              codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source', 'source.fixAll'] },
            },
            resolveSupport: { properties: ['edit'] },
            dataSupport: true,
          },
          completion: { completionItem: { snippetSupport: false } },
        },
      },
    });
    this.capabilities = res.capabilities;
    await this.conn.sendNotification(P.InitializedNotification.type, {});
    return res;
  }

  /** Opens `file` (its text from disk); returns its URI. */
  async open(file) {
    const uri = url.pathToFileURL(file).href;
    const text = fs.readFileSync(file, 'utf8');
    const doc = TextDocument.create(uri, 'json', 1, text);
    this.docs.set(uri, doc);
    await this.conn.sendNotification(P.DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'json', version: 1, text },
    });
    return uri;
  }

  text(uri) {
    return this.docs.get(uri).getText();
  }

  /** Replaces the whole text of an open document (unsaved); returns the
   * publication sequence number before the change. */
  async change(uri, text) {
    const before = this.seq;
    const old = this.docs.get(uri);
    const doc = TextDocument.create(uri, 'json', old.version + 1, text);
    this.docs.set(uri, doc);
    await this.conn.sendNotification(P.DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: doc.version },
      contentChanges: [{ text }],
    });
    return before;
  }

  /** Writes an open document to disk and tells the server. */
  async save(uri) {
    fs.writeFileSync(url.fileURLToPath(uri), this.text(uri));
    const before = this.seq;
    await this.conn.sendNotification(P.DidSaveTextDocumentNotification.type, {
      textDocument: { uri },
    });
    return before;
  }

  /** Applies a WorkspaceEdit (`changes` or `documentChanges`) to the open
   * documents, as an editor does, and sends the changes; returns the URIs
   * it touched. A file that is not open is opened first. */
  async applyWorkspaceEdit(edit) {
    const perUri = new Map();
    for (const [uri, edits] of Object.entries(edit.changes || {})) perUri.set(uri, edits);
    for (const dc of edit.documentChanges || []) {
      if (!dc.textDocument) fail(`unsupported resource operation in a workspace edit: ${JSON.stringify(dc)}`);
      perUri.set(dc.textDocument.uri, (perUri.get(dc.textDocument.uri) || []).concat(dc.edits));
    }
    for (const [uri, edits] of perUri) {
      if (!this.docs.has(uri)) await this.open(url.fileURLToPath(uri));
      await this.change(uri, TextDocument.applyEdits(this.docs.get(uri), edits));
    }
    return [...perUri.keys()];
  }

  /** Every published diagnostic on files under `dir`, in the shape of
   * [`verifyFindings`]. */
  findings(dir) {
    const out = [];
    for (const [uri, { diagnostics }] of this.published) {
      const file = path.relative(dir, url.fileURLToPath(uri)).split(path.sep).join('/');
      if (file.startsWith('..')) continue;
      for (const d of diagnostics) {
        out.push({
          file,
          code: typeof d.code === 'string' ? d.code : String(d.code),
          severity: SEVERITY[d.severity] || `?${d.severity}`,
          message: d.message,
          range: d.range,
        });
      }
    }
    return sortFindings(out);
  }

  request(type, params) {
    return this.conn.sendRequest(type, params);
  }

  /** The resident set size of the server (kB), from /proc. */
  rssKb() {
    const status = fs.readFileSync(`/proc/${this.proc.pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return m ? Number(m[1]) : NaN;
  }

  /** `shutdown`, then `exit`; returns the server's exit status. */
  async shutdown() {
    await this.conn.sendRequest(P.ShutdownRequest.type);
    await this.conn.sendNotification(P.ExitNotification.type);
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 10000);
    const res = await this.exited;
    clearTimeout(timer);
    this.conn.dispose();
    return res;
  }

  kill() {
    try {
      this.proc.kill('SIGKILL');
    } catch (_) {
      // already gone
    }
  }
}

/** The text of a Hover's contents, whatever its shape. */
function hoverText(h) {
  if (!h) return '';
  const one = (c) => (typeof c === 'string' ? c : c.value);
  return Array.isArray(h.contents) ? h.contents.map(one).join('\n') : one(h.contents);
}

module.exports = {
  Client,
  Failure,
  fail,
  copyPackage,
  positionAt,
  verifyFindings,
  assertSameFindings,
  hoverText,
  TIMEOUT_MS,
  P,
  TextDocument,
};
