'use strict';
// The end-to-end test of `form-package lsp` from a real client, out of
// process (issue 24 "done when"). Usage:
//
//   node e2e.js SCENARIO SERVER PACKAGE
//
// SERVER is the `form-package` binary, PACKAGE a corpus package directory
// (read-only: it is copied to a temporary directory first). SCENARIO:
//   diagnostics  the published diagnostics equal `verify --format json`'s
//                findings (file, code, severity, message, range); hover
//                on a finding's code gives its `explain` text; hover and
//                go to definition on a `$ref` give its target schema;
//   fd213        opening an object in the buffer (unsaved) makes FD213
//                appear, exactly as `verify` reports the edited package,
//                and undoing the edit makes every finding vanish; opened
//                again, the quick fix offered on FD213, applied, closes it
//                and every finding vanishes;
//   code-action  after an unsaved edit of the definition, the code action
//                that updates package-index.json, applied as an editor
//                does, then both files saved, makes `verify` pass;
//   completion   completion on the real definition, each checked against
//                an oracle outside the server: a member name begun in the
//                root object (half-typed, unparsable) gets the members the
//                profile's published definition schema (`form-package
//                schema definition --profile`) declares and the definition
//                lacks; a name begun in the desired schema gets keywords,
//                none present there nor refused by the profile; an item
//                begun in immutableFields gets every property pointer of
//                the desired schema not listed; a fixture path gets the
//                package's files on disk; each item applied as an editor
//                does;
//   many         (PACKAGE... : several) every package in one session: the
//                published diagnostics equal `verify --format json`'s.
//
// Exit status: 0 passed (the last line of stdout is a JSON summary of what
// was checked), 1 a check failed (stderr says what differs), 3 the server
// does not offer what the scenario needs (stderr says what): a failure too.

const fs = require('fs');
const path = require('path');
const cp = require('child_process');
const {
  Client,
  Failure,
  fail,
  copyPackage,
  verifyFindings,
  assertSameFindings,
  hoverText,
  P,
  TextDocument,
} = require('./client');

class NotOffered extends Error {}

/** `form-package explain CODE`, as the CLI prints it. */
function explain(server, code) {
  const out = cp.spawnSync(server, ['explain', code], { encoding: 'utf8' });
  if (out.status !== 0) fail(`explain ${code} exited ${out.status}: ${out.stderr}`);
  return out.stdout;
}

/** Fails unless a hover at the start of `finding`'s range names its code
 * with the `explain` text, less its `module:` line (a source path of ours,
 * which a hover never shows: issue 36 item 12; asserted absent). */
async function checkCodeHover(c, server, uri, finding) {
  const h = await c.request(P.HoverRequest.type, {
    textDocument: { uri },
    position: finding.range.start,
  });
  const text = hoverText(h);
  const lines = explain(server, finding.code)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith('module: '));
  const missing = lines.filter((l) => !text.includes(l));
  if (text.includes('module: src/')) {
    fail(`hover on ${finding.code} names a source path:\n${text}`);
  }
  if (lines.length < 3 || missing.length) {
    fail(
      `hover on ${finding.code} at ${JSON.stringify(finding.range.start)} lacks ${missing.length} ` +
        `line(s) of \`explain ${finding.code}\`, e.g. ${JSON.stringify(missing[0])}; hover was:\n${text}`,
    );
  }
  return lines.length;
}

/** Resolves a local JSON Pointer (`/$defs/x`) in `value`; `undefined`
 * when it does not resolve. */
function resolvePointer(value, pointer) {
  let v = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, key)) return undefined;
    v = v[key];
  }
  return v;
}

/** What a local `$ref` can point at in a definition: the pointer resolved
 * in each schema document it holds (a top-level member: `desiredSchema`,
 * `observedSchema`, …), as JSON texts. */
function refTargets(definition, pointer) {
  return Object.values(definition)
    .map((schema) => resolvePointer(schema, pointer))
    .filter((t) => t !== undefined)
    .map((t) => JSON.stringify(t));
}

/** Hover and go to definition on the first local `$ref` of the open
 * definition: the definition's range holds exactly the target schema, and
 * the hover shows its pointer and text. */
async function checkRef(c, uri) {
  const doc = c.docs.get(uri);
  const text = doc.getText();
  const m = /"\$ref"\s*:\s*"#([^"]*)"/.exec(text);
  if (!m) fail('the definition has no local $ref to hover');
  const pointer = m[1];
  // Inside the value string, two characters after its opening quote.
  const valueAt = m.index + m[0].lastIndexOf('"#') + 2;
  const position = doc.positionAt(valueAt);
  const targets = refTargets(JSON.parse(text), pointer);
  if (targets.length === 0) fail(`$ref ${pointer} resolves in no schema of the definition`);

  const def = await c.request(P.DefinitionRequest.type, { textDocument: { uri }, position });
  const loc = Array.isArray(def) ? def[0] : def;
  if (!loc || (loc.uri || loc.targetUri) !== uri) {
    fail(`go to definition on $ref ${pointer} gave ${JSON.stringify(def)}`);
  }
  const range = loc.range || loc.targetSelectionRange;
  const targetText = doc.getText(range);
  let parsed;
  try {
    parsed = JSON.parse(targetText);
  } catch (e) {
    fail(`go to definition on $ref ${pointer}: the range holds no JSON value: ${JSON.stringify(targetText.slice(0, 200))}`);
  }
  if (!targets.includes(JSON.stringify(parsed))) {
    fail(`go to definition on $ref ${pointer}: the range holds another schema than the pointer's target`);
  }

  const h = await c.request(P.HoverRequest.type, { textDocument: { uri }, position });
  const shown = hoverText(h);
  // The schema shown: from its first `{` to its last `}` (any fences or
  // lines around it aside), the same JSON value as the target.
  let schemaShown;
  try {
    schemaShown = JSON.stringify(JSON.parse(shown.slice(shown.indexOf('{'), shown.lastIndexOf('}') + 1)));
  } catch (e) {
    schemaShown = null;
  }
  if (!shown.includes(pointer) || schemaShown !== JSON.stringify(parsed)) {
    fail(`hover on $ref ${pointer} does not show the pointer and the target schema; hover was:\n${shown.slice(0, 2000)}`);
  }
  return { pointer, position, targetLine: range.start.line };
}

async function openPackage(c, dir, extra = []) {
  await c.initialize(dir);
  const uris = {};
  for (const f of ['definition.json', 'package-index.json', ...extra]) {
    uris[f] = await c.open(path.join(dir, f));
  }
  // After the last open, the package is verified once the queue is empty.
  await c.settle(uris['definition.json'], 0);
  return uris;
}

async function diagnostics(server, src) {
  const dir = copyPackage(src);
  const c = new Client(server);
  try {
    const fixture = fs.readdirSync(path.join(dir, 'fixtures')).sort()[0];
    const uris = await openPackage(c, dir, [`fixtures/${fixture}`]);
    const expected = verifyFindings(server, dir);
    if (expected.findings.length === 0) fail(`pick a package with findings: ${src} has none`);
    const published = c.findings(dir);
    assertSameFindings('opened package', published, expected.findings);
    const files = [...new Set(published.map((f) => f.file))];
    const spanned = published.filter((f) => f.file === 'definition.json' && f.range.end.line > 0);
    if (spanned.length === 0) fail('no finding with a range on definition.json to hover');
    const explainLines = await checkCodeHover(c, server, uris['definition.json'], spanned[0]);
    const ref = await checkRef(c, uris['definition.json']);
    const exit = await c.shutdown();
    if (exit.code !== 0) fail(`server exit status ${exit.code} (${exit.signal}) after shutdown/exit`);
    return {
      compared: published.length,
      files,
      codes: [...new Set(published.map((f) => f.code))],
      hoveredCode: spanned[0].code,
      explainLines,
      ref,
    };
  } finally {
    c.kill();
  }
}

async function fd213(server, src) {
  const dir = copyPackage(src);
  const c = new Client(server);
  try {
    const uris = await openPackage(c, dir);
    const def = uris['definition.json'];
    const clean = verifyFindings(server, dir);
    if (clean.verdict !== 'ok' || clean.findings.length !== 0) fail(`pick a clean package: ${src} is ${clean.verdict}`);
    assertSameFindings('clean package', c.findings(dir), []);

    // Open an object: the first closed one is made open, unsaved.
    const original = c.text(def);
    const closed = '"additionalProperties": false';
    const at = original.indexOf(closed);
    if (at < 0) fail('the definition has no `"additionalProperties": false` to open');
    const opened = original.slice(0, at) + '"additionalProperties": true' + original.slice(at + closed.length);
    let seq = await c.change(def, opened);
    await c.settle(def, seq);
    // The same edit saved in a second copy is what `verify` reports.
    const other = copyPackage(src);
    fs.writeFileSync(path.join(other, 'definition.json'), opened);
    const expected = verifyFindings(server, other);
    const published = c.findings(dir);
    assertSameFindings('after opening an object', published, expected.findings);
    const fd = published.filter((f) => f.code === 'FD213' && f.file === 'definition.json');
    if (fd.length === 0) fail(`no FD213 after opening an object; published: ${JSON.stringify(published)}`);
    const line = c.docs.get(def).positionAt(at).line;
    if (!fd.some((f) => f.range.start.line === line)) {
      fail(`FD213 is not on line ${line + 1} where the object was opened: ${JSON.stringify(fd)}`);
    }
    if (fs.readFileSync(path.join(dir, 'definition.json'), 'utf8') !== original) {
      fail('the server wrote into the package');
    }
    const explainLines = await checkCodeHover(c, server, def, fd[0]);

    // Undo: every finding vanishes.
    seq = await c.change(def, original);
    await c.settle(def, seq);
    assertSameFindings('after undoing the edit', c.findings(dir), []);

    // Open it again, then close it with the quick fix offered on FD213.
    seq = await c.change(def, opened);
    await c.settle(def, seq);
    const again = (c.published.get(def)?.diagnostics || []).filter((d) => d.code === 'FD213');
    if (again.length !== 1) fail(`FD213 did not appear again: ${JSON.stringify(again)}`);
    const offered = await c.request(P.CodeActionRequest.type, {
      textDocument: { uri: def },
      range: again[0].range,
      context: { diagnostics: again, only: ['quickfix'], triggerKind: 1 },
    });
    const fix = (offered || []).find((a) => !P.Command.is(a) && touches(a.edit, def));
    if (!fix) fail(`no quick fix edits definition.json on FD213; offered: ${JSON.stringify(offered)}`);
    seq = c.seq;
    await c.applyWorkspaceEdit(fix.edit);
    await c.settle(def, seq);
    assertSameFindings('after the FD213 quick fix', c.findings(dir), []);
    if (c.text(def) !== original) fail(`the FD213 quick fix "${fix.title}" did not restore \`false\``);
    const exit = await c.shutdown();
    if (exit.code !== 0) fail(`server exit status ${exit.code} after shutdown/exit`);
    return {
      appeared: published.length,
      fd213: fd.map((f) => f.range),
      codesWhileOpen: [...new Set(published.map((f) => f.code))],
      explainLines,
      vanished: true,
      quickFix: fix.title,
    };
  } finally {
    c.kill();
  }
}

/** The actions offered on `uri` over its whole text. */
async function actionsOn(c, uri) {
  const doc = c.docs.get(uri);
  const diagnostics = c.published.get(uri)?.diagnostics || [];
  const res = await c.request(P.CodeActionRequest.type, {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: doc.positionAt(doc.getText().length) },
    context: { diagnostics, triggerKind: 1 },
  });
  return res || [];
}

/** Whether a workspace edit changes `uri`. */
function touches(edit, uri) {
  if (!edit) return false;
  if (edit.changes && edit.changes[uri]) return true;
  return (edit.documentChanges || []).some((d) => d.textDocument && d.textDocument.uri === uri);
}

async function codeAction(server, src) {
  const dir = copyPackage(src);
  const c = new Client(server);
  try {
    const uris = await openPackage(c, dir);
    if (!c.capabilities.codeActionProvider) {
      throw new NotOffered(
        'the server offers no code actions (initialize: no codeActionProvider); ' +
          'the index code action of issue 24 item 4 is not there yet',
      );
    }
    const def = uris['definition.json'];
    const index = uris['package-index.json'];
    // An unsaved content edit: size, digest and schemaDigest go stale.
    const original = c.text(def);
    const m = /"description"\s*:\s*"/.exec(original);
    if (!m) fail('the definition has no description to edit');
    const edited = original.slice(0, m.index + m[0].length) + 'Edited. ' + original.slice(m.index + m[0].length);
    let seq = await c.change(def, edited);
    await c.settle(def, seq);
    const stale = c.findings(dir).filter((f) => f.file === 'package-index.json');
    if (stale.length === 0) fail('an edit of the definition left no finding on package-index.json');

    // The action that updates the index, offered on the index (or else on
    // the definition).
    let chosen = null;
    const seen = [];
    for (const uri of [index, def]) {
      for (let a of await actionsOn(c, uri)) {
        seen.push(a.title);
        if (P.Command.is(a)) {
          if (/index/i.test(a.title)) chosen = chosen || { command: a };
          continue;
        }
        if (!a.edit && !a.command && c.capabilities.codeActionProvider.resolveProvider) {
          a = await c.request(P.CodeActionResolveRequest.type, a);
        }
        if (touches(a.edit, index) || (!a.edit && a.command && /index/i.test(a.title))) {
          chosen = chosen || { action: a };
        }
      }
      if (chosen) break;
    }
    if (!chosen) {
      throw new NotOffered(`no code action updates package-index.json; offered: ${JSON.stringify(seen)}`);
    }
    seq = c.seq;
    const action = chosen.action;
    const title = action ? action.title : chosen.command.title;
    if (action && action.edit) {
      await c.applyWorkspaceEdit(action.edit);
    }
    const command = action ? action.command : chosen.command;
    if (command) {
      const applied = c.applied.length;
      await c.request(P.ExecuteCommandRequest.type, { command: command.command, arguments: command.arguments });
      if (!(action && action.edit) && c.applied.length === applied) {
        fail(`the command of "${title}" applied no edit`);
      }
    }
    await c.settle(index, seq);
    assertSameFindings('after the index code action', c.findings(dir), []);
    if (c.text(def) !== edited) fail('the index code action changed the definition');

    await c.save(def);
    seq = await c.save(index);
    await c.settle(index, seq);
    const after = verifyFindings(server, dir);
    if (after.status !== 0 || after.verdict !== 'ok') {
      fail(`verify on the saved package: exit ${after.status}, ${after.verdict}: ${JSON.stringify(after.findings)}`);
    }
    assertSameFindings('after saving', c.findings(dir), after.findings);
    const exit = await c.shutdown();
    if (exit.code !== 0) fail(`server exit status ${exit.code} after shutdown/exit`);
    return { staleBefore: stale.map((f) => f.code), action: title, verifyExit: after.status };
  } finally {
    c.kill();
  }
}

/** Whether `file` is a regular file whose bytes are UTF-8 (an editor
 * buffer holds exactly them). */
function openable(file) {
  try {
    if (!fs.lstatSync(file).isFile()) return false;
    const bytes = fs.readFileSync(file);
    return Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
  } catch (_) {
    return false;
  }
}

/** Many packages in one session (`node e2e.js many SERVER PKG...`): each
 * is copied, its definition.json and package-index.json opened (those
 * that are UTF-8 files), and every diagnostic published under it must
 * equal `verify --format json`'s findings. A package without a
 * package-index.json, or with neither file openable, is counted, not
 * compared. */
async function many(server, first, rest) {
  const c = new Client(server);
  try {
    await c.initialize(path.dirname(first));
    let compared = 0;
    let findings = 0;
    const codes = new Set();
    const notCompared = [];
    for (const src of [first, ...rest]) {
      const dir = copyPackage(src);
      const files = ['definition.json', 'package-index.json'].filter((f) => openable(path.join(dir, f)));
      if (!fs.existsSync(path.join(dir, 'package-index.json')) || files.length === 0) {
        notCompared.push(path.basename(path.dirname(src)));
        continue;
      }
      let last = null;
      for (const f of files) last = await c.open(path.join(dir, f));
      await c.settle(last, 0);
      const expected = verifyFindings(server, dir);
      assertSameFindings(src, c.findings(dir), expected.findings);
      compared += 1;
      findings += expected.findings.length;
      for (const f of expected.findings) codes.add(f.code);
    }
    const exit = await c.shutdown();
    if (exit.code !== 0) fail(`server exit status ${exit.code} after shutdown/exit`);
    return { compared, findings, codes: [...codes].sort(), notCompared };
  } finally {
    c.kill();
  }
}


/** A completion request at character offset `at` of the open document;
 * its items (`[]` for none). */
async function completeAt(c, uri, at) {
  const position = c.docs.get(uri).positionAt(at);
  const res = await c.request(P.CompletionRequest.type, {
    textDocument: { uri },
    position,
    context: { triggerKind: 2, triggerCharacter: '"' },
  });
  if (!res) return [];
  return Array.isArray(res) ? res : res.items;
}

/** The text after applying a completion item's edit, as an editor does. */
function applyItem(c, uri, item) {
  if (!item.textEdit) fail(`item ${item.label} has no text edit`);
  const range = item.textEdit.range || item.textEdit.replace;
  return TextDocument.applyEdits(c.docs.get(uri), [{ range, newText: item.textEdit.newText }]);
}

function sameSet(label, got, want) {
  const g = [...got].sort();
  const w = [...want].sort();
  if (JSON.stringify(g) !== JSON.stringify(w)) {
    fail(`${label}: offered ${JSON.stringify(g)}, expected ${JSON.stringify(w)}`);
  }
}

/** Every property pointer of a desired schema through `properties`
 * members whose value is an object (the walk of immutableFields). */
function propertyPointers(schema, at = '', out = []) {
  for (const [name, child] of Object.entries((schema && schema.properties) || {})) {
    if (child === null || typeof child !== 'object' || Array.isArray(child)) continue;
    const p = `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    out.push(p);
    propertyPointers(child, p, out);
  }
  return out;
}

/** Every file under `dir` as a package path. */
function packageFiles(dir, rel = '') {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...packageFiles(dir, r));
    else if (e.isFile()) out.push(r);
  }
  return out;
}

async function completion(server, src) {
  const dir = copyPackage(src);
  const c = new Client(server);
  try {
    const uris = await openPackage(c, dir);
    const trigger = c.capabilities.completionProvider?.triggerCharacters || [];
    if (!trigger.includes('"')) {
      throw new NotOffered(`no completion with trigger character '"': ${JSON.stringify(c.capabilities.completionProvider)}`);
    }
    const def = uris['definition.json'];
    const original = c.text(def);
    const definition = JSON.parse(original);
    const index = JSON.parse(fs.readFileSync(path.join(dir, 'package-index.json'), 'utf8'));
    const out = cp.spawnSync(server, ['schema', 'definition', '--profile', index.apiVersion], { encoding: 'utf8' });
    if (out.status !== 0) fail(`schema definition --profile ${index.apiVersion}: ${out.stderr}`);
    const published = JSON.parse(out.stdout);

    // Members: a name begun on a new line of the root object.
    const open = original.indexOf('{') + 1;
    let text = `${original.slice(0, open)}\n  "${original.slice(open)}`;
    await c.change(def, text);
    let items = await completeAt(c, def, open + 4);
    const lacking = Object.keys(published.properties).filter((k) => !(k in definition));
    sameSet('members', items.map((i) => i.label), lacking);
    if (lacking.length === 0) fail('pick a definition that lacks an optional member');
    const member = items[0];
    const applied = applyItem(c, def, member);
    if (!applied.includes(`\n  "${member.label}": \n`)) fail(`member ${member.label} applied: ${JSON.stringify(applied.slice(0, 120))}`);

    // Keywords: a name begun in the desired schema.
    const ds = original.indexOf('"desiredSchema": {') + '"desiredSchema": {'.length;
    text = `${original.slice(0, ds)}"", ${original.slice(ds)}`;
    await c.change(def, text);
    items = await completeAt(c, def, ds + 1);
    const keywords = items.map((i) => i.label);
    for (const k of Object.keys(definition.desiredSchema)) {
      if (keywords.includes(k)) fail(`keyword ${k} is offered but present`);
    }
    for (const k of ['patternProperties', 'dependencies', '$id', '$anchor', 'contentMediaType', '$dynamicRef']) {
      if (keywords.includes(k)) fail(`keyword ${k} is offered but the profile refuses it`);
    }
    for (const k of ['allOf', 'minProperties', 'x-takoform-binding']) {
      if (!keywords.includes(k)) fail(`keyword ${k} is not offered: ${JSON.stringify(keywords)}`);
    }
    if (items.some((i) => i.kind !== P.CompletionItemKind.Keyword)) fail('a keyword item is not of kind Keyword');

    // immutableFields: an item begun first in the list.
    if (!Array.isArray(definition.immutableFields)) fail('pick a definition with immutableFields');
    const list = original.indexOf('"immutableFields": [') + '"immutableFields": ['.length;
    text = `${original.slice(0, list)}"", ${original.slice(list)}`;
    await c.change(def, text);
    items = await completeAt(c, def, list + 1);
    const pointers = propertyPointers(definition.desiredSchema).filter((p) => !definition.immutableFields.includes(p));
    sameSet('immutableFields pointers', items.map((i) => i.label), pointers);
    const pointer = items[0];
    if (!applyItem(c, def, pointer).includes(`"immutableFields": ["${pointer.label}", `)) fail(`pointer ${pointer.label} applied wrongly`);

    // A fixture path: the package's files.
    await c.change(def, original);
    const fx = definition.conformanceFixtures[0].desiredPath;
    const at = original.indexOf(`"desiredPath": "${fx}"`) + `"desiredPath": "`.length + 1;
    items = await completeAt(c, def, at);
    const files = packageFiles(dir).filter((f) => f !== 'package-index.json' && f !== 'definition.json');
    sameSet('fixture paths', items.map((i) => i.label), files);
    const file = items.find((i) => i.label !== fx);
    if (!applyItem(c, def, file).includes(`"desiredPath": "${file.label}"`)) fail(`file ${file.label} applied wrongly`);

    // Near miss: inside the title string, nothing.
    const title = original.indexOf(JSON.stringify(definition.title)) + 2;
    const none = await completeAt(c, def, title);
    if (none.length) fail(`completion inside the title offered ${JSON.stringify(none.map((i) => i.label))}`);

    const exit = await c.shutdown();
    if (exit.code !== 0) fail(`server exit status ${exit.code} after shutdown/exit`);
    return {
      members: lacking,
      keywords: keywords.length,
      pointers: pointers.length,
      files: files.length,
    };
  } finally {
    c.kill();
  }
}

const SCENARIOS = { diagnostics, fd213, 'code-action': codeAction, completion };

async function main() {
  const [scenario, server, src, ...more] = process.argv.slice(2);
  const run = scenario === 'many' ? (b, p) => many(b, p, more.map((m) => path.resolve(m))) : SCENARIOS[scenario];
  if (!run || !server || !src) {
    process.stderr.write(`usage: node e2e.js {${Object.keys(SCENARIOS).join('|')}} SERVER PACKAGE | many SERVER PACKAGE...\n`);
    process.exit(2);
  }
  try {
    const facts = await run(path.resolve(server), path.resolve(src));
    process.stdout.write(JSON.stringify({ scenario, passed: true, ...facts }) + '\n');
    process.exit(0);
  } catch (e) {
    if (e instanceof NotOffered) {
      process.stderr.write(`NOT OFFERED (${scenario}): ${e.message}\n`);
      process.exit(3);
    }
    process.stderr.write(`FAILED (${scenario}): ${e instanceof Failure ? e.message : e.stack}\n`);
    process.exit(1);
  }
}

main();
