'use strict';
// A minimal VS Code client for `form-package lsp` (issue 24): it starts the
// server on standard input and output for the files of a Form Package
// (`definition.json`, `package-index.json`, fixtures) and leaves the rest
// to the language client. The server decides what a file belongs to: a
// JSON file in no package gets no findings.

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

/** The files the server is started for (JSON files of a package). */
const DOCUMENTS = [
  { scheme: 'file', language: 'json', pattern: '**/definition.json' },
  { scheme: 'file', language: 'json', pattern: '**/package-index.json' },
  { scheme: 'file', language: 'json', pattern: '**/fixtures/**/*.json' },
];

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('formPackage').get('path') || 'form-package';
  const serverOptions = { command, args: ['lsp'] };
  const clientOptions = {
    documentSelector: DOCUMENTS,
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher('**/package-index.json'),
    },
  };
  client = new LanguageClient('formPackage', 'Form Package', serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
