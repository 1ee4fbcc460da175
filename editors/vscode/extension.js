// A thin client over `guidelint lsp` (docs/EDITORS.md): diagnostics (pulled), code
// actions, hover, and the server's own watchers for configuration and snapshots.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");
const { readSettings, serverOptions, clientOptions, serverSettings } = require("./config");

let client;

function settings() {
  const configuration = vscode.workspace.getConfiguration("guidelint");
  return readSettings((key) => configuration.get(key));
}

async function start() {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const current = settings();
  const options = clientOptions(current);
  // workspace/configuration: the server settings of the section, as the server reads them.
  options.middleware = {
    workspace: {
      configuration: (params) => params.items.map(() => serverSettings(settings())),
    },
  };
  client = new LanguageClient("guidelint", "guidelint", serverOptions(current, folder), options);
  await client.start();
}

async function restart() {
  if (client) await client.stop();
  client = undefined;
  await start();
}

exports.activate = async (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand("guidelint.restart", restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("guidelint.path")) restart();
    }),
  );
  await start();
};

exports.deactivate = () => (client ? client.stop() : undefined);
