// The extension's client configuration against the real `guidelint lsp`, with a real
// LSP client (vscode-languageserver-protocol, which vscode-languageclient is built on)
// announcing what VS Code announces. The VS Code test runner (@vscode/test-electron)
// downloads VS Code itself, which a CI without network cannot; this drives everything
// but the editor window. GUIDELINT_PYTHON: the Python with guidelint (default: the
// repository's .venv, else python3).
"use strict";

const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawn } = require("child_process");
const {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} = require("vscode-languageserver-protocol/node");

const config = require("../config");
const manifest = require("../package.json");

const REPO = path.resolve(__dirname, "..", "..", "..");
const VENV_PYTHON = path.join(REPO, ".venv", "bin", "python");
const PYTHON =
  process.env.GUIDELINT_PYTHON || (fs.existsSync(VENV_PYTHON) ? VENV_PYTHON : "python3");

const GUIDE = "# Guide\n\nRun `scripts/train.py`, then call `mcp__lab__job_stat`.\n";

function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "guidelint-vscode-"));
  fs.writeFileSync(path.join(root, "pyproject.toml"), "[tool.guidelint]\n");
  fs.writeFileSync(
    path.join(root, ".mcp.json"),
    '{"mcpServers": {"lab": {"command": "python3", "args": []}}}\n',
  );
  fs.mkdirSync(path.join(root, ".guidelint", "tools"), { recursive: true });
  fs.writeFileSync(
    path.join(root, ".guidelint", "tools", "lab.json"),
    '{"tools": [{"name": "job_status", "inputSchema": {"type": "object"}}]}',
  );
  fs.mkdirSync(path.join(root, "scripts"));
  fs.writeFileSync(path.join(root, "scripts", "report.py"), "print(1)\n");
  fs.mkdirSync(path.join(root, "docs"));
  fs.writeFileSync(path.join(root, "docs", "guide.md"), GUIDE);
  return root;
}

// What VS Code 1.82+ announces for the features the server uses.
const VSCODE_CAPABILITIES = {
  workspace: {
    configuration: true,
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    diagnostics: { refreshSupport: true },
    workspaceFolders: true,
  },
  textDocument: {
    synchronization: { didSave: true, dynamicRegistration: true },
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix"] } } },
    hover: { contentFormat: ["markdown", "plaintext"] },
  },
};

/** Start the server as the extension would, with these settings; a connection and
 * what the server asked of the client. */
function startServer(root, settings) {
  const server = config.serverOptions(settings, root);
  const child = spawn(server.command, server.args, {
    ...server.options,
    env: { ...process.env, PYTHONPATH: REPO },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const asked = { registrations: [], configurations: 0, refreshes: [] };
  connection.onRequest("client/registerCapability", (params) => {
    asked.registrations.push(...params.registrations);
    return null;
  });
  connection.onRequest("workspace/configuration", (params) => {
    asked.configurations += 1;
    return params.items.map(() => config.serverSettings(settings));
  });
  // Each workspace/diagnostic/refresh resolves the promise waiting for it.
  const waiting = [];
  asked.refreshes = 0;
  asked.nextRefresh = () => new Promise((resolve) => waiting.push(resolve));
  asked.refreshed = asked.nextRefresh();
  connection.onRequest("workspace/diagnostic/refresh", () => {
    asked.refreshes += 1;
    const resolve = waiting.shift();
    if (resolve) resolve();
    return null;
  });
  connection.onNotification("window/showMessage", (params) => {
    throw new Error(`the server complained: ${params.message}`);
  });
  connection.listen();
  return { child, connection, asked };
}

async function session(settings, steps) {
  const root = workspace();
  const { child, connection, asked } = startServer(root, settings);
  try {
    const options = config.clientOptions(settings);
    const uri = (rel) => "file://" + path.join(root, rel);
    const init = await connection.sendRequest("initialize", {
      processId: process.pid,
      rootUri: uri(""),
      workspaceFolders: [{ uri: uri(""), name: "ws" }],
      capabilities: VSCODE_CAPABILITIES,
      initializationOptions: options.initializationOptions,
    });
    await connection.sendNotification("initialized", {});
    await steps({ root, uri, init, connection, asked, options });
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
  } finally {
    connection.dispose();
    child.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function pull(connection, uri) {
  const report = await connection.sendRequest("textDocument/diagnostic", {
    textDocument: { uri },
  });
  return report.items.map((d) => d.code).sort();
}

test("the manifest contributes every setting the client passes, and the commands", () => {
  const properties = Object.keys(manifest.contributes.configuration.properties);
  for (const key of [...config.SERVER_SETTINGS, "path"]) {
    assert.ok(properties.includes(`guidelint.${key}`), `guidelint.${key} not contributed`);
    const declared = manifest.contributes.configuration.properties[`guidelint.${key}`];
    assert.deepStrictEqual(declared.default, config.DEFAULTS[key], `default of ${key}`);
  }
  const commands = manifest.contributes.commands.map((c) => c.command);
  assert.deepStrictEqual(commands.sort(), ["guidelint.reload", "guidelint.restart"]);
  const languages = manifest.activationEvents.filter((e) => e.startsWith("onLanguage:"));
  assert.deepStrictEqual(
    languages.map((e) => e.split(":")[1]),
    config.LANGUAGES,
  );
});

test("the server command: guidelint lsp, or the configured one in the folder", () => {
  const plain = config.serverOptions(config.readSettings(() => undefined), "/ws");
  assert.deepStrictEqual(plain, { command: "guidelint", args: ["lsp"], options: { cwd: "/ws" } });
  const venv = config.serverOptions({ path: [".venv/bin/guidelint"] }, "/ws");
  assert.strictEqual(venv.command, "/ws/.venv/bin/guidelint");
  const module = config.serverOptions({ path: ["python3", "-m", "guidelint"] }, "/ws");
  assert.deepStrictEqual([module.command, ...module.args], ["python3", "-m", "guidelint", "lsp"]);
});

test("a real server under the extension's settings: capabilities, watchers, pulled diagnostics", async () => {
  const settings = {
    ...config.readSettings(() => undefined),
    path: [PYTHON, "-m", "guidelint"],
    ignore: ["GL101"],
  };
  await session(settings, async ({ uri, init, connection, asked }) => {
    const capabilities = init.capabilities;
    assert.strictEqual(capabilities.diagnosticProvider.identifier, "guidelint");
    assert.ok(capabilities.executeCommandProvider.commands.includes("guidelint.reload"));
    assert.ok(capabilities.codeActionProvider && capabilities.hoverProvider);
    await asked.refreshed; // settings asked for (workspace/configuration), pull again
    assert.strictEqual(asked.configurations, 1);
    const watchers = asked.registrations
      .filter((r) => r.method === "workspace/didChangeWatchedFiles")
      .flatMap((r) => r.registerOptions.watchers.map((w) => w.globPattern));
    assert.ok(watchers.some((g) => g.includes("pyproject.toml") && g.includes(".mcp.json")));
    assert.ok(watchers.includes("**/.guidelint/tools/*.json"));
    const guide = uri("docs/guide.md");
    await connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri: guide, languageId: "markdown", version: 1, text: GUIDE },
    });
    assert.deepStrictEqual(await pull(connection, guide), ["GL501"]); // GL101 ignored
    // The settings change (didChangeConfiguration, as synchronize sends it).
    await connection.sendNotification("workspace/didChangeConfiguration", {
      settings: { guidelint: config.serverSettings({ ...settings, ignore: [] }) },
    });
    assert.deepStrictEqual(await pull(connection, guide), ["GL101", "GL501"]);
  });
});

test("a pulling client is told to pull again when pyproject.toml changes on disk", async () => {
  const settings = {
    ...config.readSettings(() => undefined),
    path: [PYTHON, "-m", "guidelint"],
    debounceMs: 10,
  };
  await session(settings, async ({ root, uri, connection, asked }) => {
    await asked.refreshed; // the settings asked for at start
    const guide = uri("docs/guide.md");
    await connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri: guide, languageId: "markdown", version: 1, text: GUIDE },
    });
    assert.deepStrictEqual(await pull(connection, guide), ["GL101", "GL501"]);
    fs.writeFileSync(path.join(root, "pyproject.toml"), '[tool.guidelint]\nignore = ["GL501"]\n');
    const refreshed = asked.nextRefresh();
    // What VS Code sends for the watcher the server registered (FileChangeType.Changed).
    await connection.sendNotification("workspace/didChangeWatchedFiles", {
      changes: [{ uri: uri("pyproject.toml"), type: 2 }],
    });
    await refreshed;
    assert.deepStrictEqual(await pull(connection, guide), ["GL101"]);
  });
});
