// How the extension starts `guidelint lsp` and what it tells it: plain functions of the
// settings, without `vscode`, so a test drives a real server with exactly these.
"use strict";

const path = require("path");

// The files the server checks (Markdown always; JSON and Python where the project's
// include globs take them). Files on disk are watched by the server's own request.
const LANGUAGES = ["markdown", "json", "python"];
// The settings passed to the server (docs/EDITORS.md); `path` and `trace.server` are
// the client's own.
const SERVER_SETTINGS = ["configPath", "select", "ignore", "debounceMs"];
const DEFAULTS = {
  path: ["guidelint"],
  configPath: null,
  select: null,
  ignore: [],
  debounceMs: 300,
};

/** The settings with defaults filled in (`get` reads one, as vscode's configuration does). */
function readSettings(get) {
  const settings = {};
  for (const [key, fallback] of Object.entries(DEFAULTS)) {
    const value = get(key);
    settings[key] = value === undefined ? fallback : value;
  }
  return settings;
}

/** The server process: the `path` command with `lsp`, in the first workspace folder. */
function serverOptions(settings, folder) {
  const command = settings.path && settings.path.length ? settings.path : DEFAULTS.path;
  const [program, ...args] = command;
  // A relative program path (`.venv/bin/guidelint`) starts at the workspace folder.
  const resolved =
    folder && program.includes("/") && !path.isAbsolute(program)
      ? path.join(folder, program)
      : program;
  return { command: resolved, args: [...args, "lsp"], options: folder ? { cwd: folder } : {} };
}

/** What the server reads at start (initializationOptions) and on
 * workspace/configuration: the `guidelint` section, server settings only. */
function serverSettings(settings) {
  const section = {};
  for (const key of SERVER_SETTINGS) section[key] = settings[key];
  return section;
}

/** The LanguageClient's options, less what only vscode can give. */
function clientOptions(settings) {
  return {
    documentSelector: LANGUAGES.map((language) => ({ scheme: "file", language })),
    initializationOptions: serverSettings(settings),
    // didChangeConfiguration carries the section; the server reloads every open file.
    synchronize: { configurationSection: "guidelint" },
  };
}

module.exports = {
  LANGUAGES,
  SERVER_SETTINGS,
  DEFAULTS,
  readSettings,
  serverOptions,
  serverSettings,
  clientOptions,
};
