// Starts `stpc lsp` for .stpc files. Highlighting comes from the TextMate
// grammar alone, so it works without the server; everything else
// (diagnostics, hover, definitions, completion, formatting, quick fixes)
// is the server's.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("stpc").get("server.path", "stpc");
  const server = { command, args: ["lsp"], transport: TransportKind.stdio };
  client = new LanguageClient(
    "stpc",
    "stpc language server",
    { run: server, debug: server },
    { documentSelector: [{ language: "stpc" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
