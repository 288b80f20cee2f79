'use strict';
// The latency and memory benchmark of `form-package lsp` through the
// protocol, from the real client of client.js (issue 24; not a test: the
// figures go to docs/src/benchmarks.md with the machine and its load). Usage:
//
//   node bench.js SERVER PACKAGE [EDITS]
//
// On a temporary copy of PACKAGE, opens definition.json and
// package-index.json, then makes EDITS (default 1000) unsaved edits of the
// definition, one at a time: each inserts one more character into its
// first description, as typing does (so every edit leaves the index's
// size, digest and schemaDigest stale: three findings). For each edit it
// times didChange → the publishDiagnostics of definition.json (the file
// edited) and → that of package-index.json (the last file of the batch),
// and waits for both before the next edit. RSS of the server from
// /proc/PID/status every 50 edits. Prints one JSON document.

const os = require('os');
const path = require('path');
const { Client, copyPackage } = require('./client');

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
  const r = (x) => Math.round(x * 100) / 100;
  return { n: s.length, min: r(s[0]), median: r(at(0.5)), p95: r(at(0.95)), max: r(s[s.length - 1]) };
}

async function main() {
  const [server, src, editsArg] = process.argv.slice(2);
  if (!server || !src) {
    process.stderr.write('usage: node bench.js SERVER PACKAGE [EDITS]\n');
    process.exit(2);
  }
  const edits = Number(editsArg || 1000);
  const dir = copyPackage(path.resolve(src));
  const load0 = os.loadavg();
  const c = new Client(path.resolve(server));
  await c.initialize(dir);
  const def = await c.open(path.join(dir, 'definition.json'));
  const index = await c.open(path.join(dir, 'package-index.json'));
  await c.settle(def, 0);
  const original = c.text(def);
  const m = /"description"\s*:\s*"/.exec(original);
  const at = m.index + m[0].length;
  const typed = 'abcdefghijklmnopqrstuvwxyz ';
  const toDef = [];
  const toIndex = [];
  const rss = [];
  const rssStart = c.rssKb();
  for (let i = 1; i <= edits; i += 1) {
    // Typing: the i-th edit holds the first i characters (cycling), so
    // every text differs from the last.
    let insert = '';
    for (let k = 0; k < i % 200; k += 1) insert += typed[k % typed.length];
    const text = original.slice(0, at) + insert + 'x' + original.slice(at);
    const seq = c.seq;
    const t0 = performance.now();
    await c.change(def, text);
    await c.until('definition.json', () => (c.published.get(def)?.seq ?? 0) > seq);
    await c.until('package-index.json', () => (c.published.get(index)?.seq ?? 0) > seq);
    toDef.push(c.published.get(def).at - t0);
    toIndex.push(c.published.get(index).at - t0);
    if (c.published.get(index).diagnostics.length === 0) {
      throw new Error(`edit ${i}: no finding on the stale index`);
    }
    if (i % 50 === 0) rss.push({ edit: i, rssKb: c.rssKb() });
  }
  const load1 = os.loadavg();
  const exit = await c.shutdown();
  const firstN = Math.min(200, edits);
  const out = {
    server: path.resolve(server),
    package: path.resolve(src),
    definitionBytes: Buffer.byteLength(original),
    edits,
    latencyMs: {
      [`toDefinitionFirst${firstN}`]: stats(toDef.slice(0, firstN)),
      toDefinitionAll: stats(toDef),
      toIndexAll: stats(toIndex),
    },
    rssKb: { start: rssStart, samples: rss },
    machine: {
      cpu: os.cpus()[0].model,
      cpus: os.cpus().length,
      memGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      loadavgBefore: load0.map((x) => Math.round(x * 100) / 100),
      loadavgAfter: load1.map((x) => Math.round(x * 100) / 100),
    },
    serverExit: exit.code,
  };
  process.stdout.write(JSON.stringify(out, null, 2) + '\n');
}

main().catch((e) => {
  process.stderr.write(`bench failed: ${e.stack || e}\n`);
  process.exit(1);
});
