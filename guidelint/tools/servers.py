"""Which MCP servers a project declares: `.mcp.json`, configuration, snapshots.

`.mcp.json` is Claude Code's project file: `mcpServers` -> name -> `{command, args,
env}` for stdio or `{type: "http" | "sse", url, headers}`. `${VAR}` and
`${VAR:-default}` expand in command, args, env, url and headers; an unset
`${VAR}` stays literal and a bare `$VAR` never expands, as in Claude Code.

A malformed file or server entry is a FileProblem (GL109 reports it at its line):
the other servers are still used, and the run goes on.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from guidelint.printable import printable
from guidelint.settings import unsafe_server_name
from guidelint.spans import Span
from guidelint.tools.jsonfile import FileProblem, read_json
from guidelint.tools.jsonpos import KEY, blank_jsonc, value_spans

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.tools.config import ServerConfig, ToolsSettings
    from guidelint.tools.harnesses import McpConfig

VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}")


def expand(value: str, environ: Mapping[str, str]) -> str:
    def replace(match: re.Match) -> str:
        name, has_default, default = match.group(1), match.group(2), match.group(3)
        if name in environ:
            return environ[name]
        return default if has_default is not None else match.group(0)

    return VARIABLE.sub(replace, value)


@dataclass
class ServerSpec:
    name: str
    type: str | None = None  # stdio | http | sse | None (snapshot only)
    command: str | None = None
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    snapshot: str = ""  # relative to the project root
    timeout: float = 20.0
    fallback_to_snapshot: bool = False
    declared_in: str = ""  # "file:line" for messages

    @property
    def startable(self) -> bool:
        return bool(self.command or self.url)


@dataclass
class Declared:
    """The servers a project declares, and what was wrong in the files declaring them."""

    specs: dict[str, ServerSpec] = field(default_factory=dict)
    problems: list[FileProblem] = field(default_factory=list)
    mcp_servers: set[str] = field(default_factory=set)  # the well-formed ones of .mcp.json

    def problem_of(self, server: str) -> FileProblem | None:
        """Why a server that a file names is not among the specs (None if it is)."""
        return next((p for p in self.problems if p.server == server), None)


def read_mcp_json(
    project: Project,
    rel: str,
    environ: Mapping[str, str],
    servers_key: str = "mcpServers",
    jsonc: bool = False,
) -> tuple[dict[str, dict[str, Any]], list[FileProblem]]:
    """The expanded, well-formed servers of `.mcp.json` ({} when there is no file), and
    a problem for the file or for each server that cannot be used (left out). Other
    harnesses' JSON files name their table otherwise (`servers` in `.vscode/mcp.json`)."""
    read = read_json(project, rel, jsonc=jsonc)
    if read is None:
        return {}, []
    if isinstance(read, FileProblem):
        return {}, [read]
    data = read.data
    servers = data.get(servers_key, {}) if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        return {}, [read.problem(0, f"`{servers_key}` must be an object of servers")]
    text = blank_jsonc(read.file.text) if jsonc else read.file.text
    spans = value_spans(text) if servers else {}
    result: dict[str, dict[str, Any]] = {}
    problems: list[FileProblem] = []
    for name, entry in servers.items():
        key = spans.get((servers_key, name, KEY))
        problem = _entry_problem(name, entry, spans, servers_key)
        if problem is not None:
            offset, message = problem
            problems.append(read.problem(offset if offset >= 0 else _at(key), message, name))
            continue
        result[name] = _expand_entry(entry, environ)
        result[name]["#line"] = read.file.lines.position(_at(key)).line
    for name in _declared_twice(text, servers_key):
        key = spans.get((servers_key, name, KEY))
        earlier = text.rfind(json.dumps(name), 0, _at(key))
        line = read.file.lines.position(max(earlier, 0)).line
        message = (
            f"server `{printable(name)}` is declared twice in this file (also at line {line}): "
            "JSON keeps the last entry, so the other is silently dropped"
        )
        problems.append(read.problem(_at(key), message))
    return result, problems


def _declared_twice(text: str, servers_key: str) -> list[str]:
    """Server names written twice in the servers object (JSON keeps the last)."""
    if text.count(":") < 2:
        return []

    class Pairs(dict):
        twice: list[str]

    def pairs(items: list[tuple[str, Any]]) -> Pairs:
        found = Pairs(items)
        keys = [k for k, _ in items]
        found.twice = [k for i, k in enumerate(keys) if k in keys[:i]]
        return found

    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return []
    servers = data.get(servers_key) if isinstance(data, dict) else None
    return list(dict.fromkeys(servers.twice)) if isinstance(servers, Pairs) else []


def _at(span: Span | None) -> int:
    return span.start if span is not None else 0


# The fields Claude Code reads, and the JSON type each must have.
ENTRY_FIELDS: dict[str, tuple[type, str]] = {
    "type": (str, "a string"),
    "command": (str, "a string"),
    "cwd": (str, "a string"),
    "url": (str, "a string"),
    "httpUrl": (str, "a string"),
    "args": (list, "a list"),
    "env": (dict, "an object"),
    "headers": (dict, "an object"),
}


def _entry_problem(
    name: str, entry: Any, spans: dict, servers_key: str = "mcpServers"
) -> tuple[int, str] | None:
    """(offset, message) of why a server entry cannot be used; -1: at its key."""
    shown = printable(name)
    unsafe = unsafe_server_name(name)
    if unsafe is not None:
        return -1, f"server name `{shown}` {unsafe}; the server is ignored"
    if not isinstance(entry, dict):
        return -1, f"server `{shown}` must be an object; it is ignored"
    for key, (kind, described) in ENTRY_FIELDS.items():
        value = entry.get(key)
        if value is not None and not isinstance(value, kind):
            span = spans.get((servers_key, name, key))
            return (
                span.start if span else -1,
                f"server `{shown}`: `{key}` must be {described}; the server is ignored",
            )
    return None


def _expand_entry(entry: dict[str, Any], environ: Mapping[str, str]) -> dict[str, Any]:
    out = dict(entry)
    for key in ("command", "url", "type", "cwd"):
        if isinstance(out.get(key), str):
            out[key] = expand(out[key], environ)
    if isinstance(out.get("args"), list):
        out["args"] = [expand(str(a), environ) for a in out["args"]]
    for key in ("env", "headers"):
        if isinstance(out.get(key), dict):
            out[key] = {str(k): expand(str(v), environ) for k, v in out[key].items()}
    return out


def declared_servers(project: Project, environ: Mapping[str, str] | None = None) -> Declared:
    """Every server: `.mcp.json`, then configuration (which wins), then lone snapshots."""
    environ = os.environ if environ is None else environ
    tools = project.config.tools
    declared = Declared()
    specs = declared.specs
    entries, declared.problems = read_mcp_json(project, tools.mcp_config, environ)
    for name, entry in entries.items():
        specs[name] = _from_mcp_entry(name, entry, tools)
    declared.mcp_servers = set(entries)
    from guidelint.tools.harnesses import harness_configs

    for config in harness_configs(project):
        found, problems = read_harness_config(project, config, environ)
        declared.problems += problems
        for name, entry in found.items():
            if name not in specs:  # the same server in two files: the first declares it
                specs[name] = _from_mcp_entry(name, entry, tools, config.path)
    for name, server in tools.servers.items():
        specs[name] = _merge_config(specs.get(name), name, server, tools, environ)
    for rel in lone_snapshot_files(project):
        stem = rel.rsplit("/", 1)[-1][: -len(".json")]
        if stem not in specs and declared.problem_of(stem) is None:
            specs[stem] = ServerSpec(stem, snapshot=rel, timeout=tools.timeout, declared_in=rel)
    return declared


def lone_snapshot_files(project: Project) -> list[str]:
    """The `*.json` files of the snapshot folder (none when it leads outside the root)."""
    folder = project.root / project.config.tools.snapshot_dir
    if not folder.is_dir() or not project.contains(folder):
        return []
    return [f"{project.config.tools.snapshot_dir}/{p.name}" for p in sorted(folder.glob("*.json"))]


def _from_mcp_entry(
    name: str, entry: dict[str, Any], tools: ToolsSettings, source: str = ""
) -> ServerSpec:
    kind = entry.get("type") or ("stdio" if entry.get("command") else None)
    if kind is None and entry.get("url"):
        kind = "http"
    return ServerSpec(
        name=name,
        type=kind,
        command=entry.get("command"),
        args=list(entry.get("args") or []),
        env=dict(entry.get("env") or {}),
        cwd=entry.get("cwd"),
        url=entry.get("url"),
        headers=dict(entry.get("headers") or {}),
        snapshot=f"{tools.snapshot_dir}/{name}.json",
        timeout=tools.timeout,
        fallback_to_snapshot=tools.fallback_to_snapshot,
        declared_in=f"{source or tools.mcp_config}:{entry.get('#line', 1)}",
    )


def _merge_config(
    base: ServerSpec | None,
    name: str,
    server: ServerConfig,
    tools: ToolsSettings,
    environ: Mapping[str, str],
) -> ServerSpec:
    spec = base or ServerSpec(
        name,
        snapshot=f"{tools.snapshot_dir}/{name}.json",
        timeout=tools.timeout,
        fallback_to_snapshot=tools.fallback_to_snapshot,
        declared_in=f"[tool.guidelint.tools.servers.{name}]",
    )
    if server.command or server.url:
        spec.command = expand(server.command, environ) if server.command else None
        spec.url = expand(server.url, environ) if server.url else None
        spec.args = [expand(a, environ) for a in server.args]
        spec.env = {k: expand(v, environ) for k, v in server.env.items()}
        spec.headers = {k: expand(v, environ) for k, v in server.headers.items()}
        spec.cwd = server.cwd
        spec.type = server.type or ("stdio" if server.command else "http")
        spec.declared_in = f"[tool.guidelint.tools.servers.{name}]"
    if server.snapshot:
        spec.snapshot = server.snapshot
    if server.timeout is not None:
        spec.timeout = server.timeout
    if server.fallback_to_snapshot is not None:
        spec.fallback_to_snapshot = server.fallback_to_snapshot
    return spec


# --- other harnesses' server files ---------------------------------------------------


def read_harness_config(
    project: Project, config: McpConfig, environ: Mapping[str, str]
) -> tuple[dict[str, dict[str, Any]], list[FileProblem]]:
    """The servers of one harness file, in `.mcp.json`'s shape (`type`, `command`,
    `args`, `env`, `url`, `headers`), and what is wrong in it."""
    if _empty(project, config.path):  # an empty file declares nothing, wrongly or not
        return {}, []
    if config.format == "toml":
        entries, problems = _read_toml_servers(project, config)
        entries = {n: _expand_entry(e, environ) for n, e in entries.items()}
    else:
        entries, problems = read_mcp_json(project, config.path, environ, config.servers, jsonc=True)
    for name in [n for n, e in entries.items() if _starts_nothing(e, config)]:
        entry = entries.pop(name)
        message = (
            f"server `{printable(name)}` has neither a `command` nor "
            + " nor ".join(f"`{key}`" for key, _ in config.url_keys)
            + ": it starts nothing and is ignored"
        )
        problems.append(FileProblem(config.path, 0, entry.get("#line", 1), message, name))
    return {n: _transport(e, config) for n, e in entries.items()}, problems


def _starts_nothing(entry: dict[str, Any], config: McpConfig) -> bool:
    """An entry with no command and no URL (`{}`, `"command": ""`): an empty server."""
    if isinstance(entry.get("command"), str) and entry["command"].strip():
        return False
    return not any(
        isinstance(entry.get(key), str) and entry[key].strip() for key, _ in config.url_keys
    )


def _empty(project: Project, rel: str) -> bool:
    path = project.root / rel
    try:
        return path.is_file() and path.stat().st_size == 0
    except OSError:
        return False


def _transport(entry: dict[str, Any], config: McpConfig) -> dict[str, Any]:
    """The harness's own url keys as a type and a url (Gemini: `httpUrl` is streamable
    HTTP, `url` is SSE)."""
    if entry.get("type") or entry.get("command"):
        return entry
    for key, kind in config.url_keys:
        if isinstance(entry.get(key), str):
            return {**entry, "url": entry[key], "type": kind or "http"}
    return entry


def _read_toml_servers(
    project: Project, config: McpConfig
) -> tuple[dict[str, dict[str, Any]], list[FileProblem]]:
    """`[mcp_servers.<name>]` tables of a TOML file (Codex's `.codex/config.toml`)."""
    import tomllib

    rel = config.path
    if not project.exists(rel) and not os.path.lexists(project.root / rel):
        return {}, []
    file = project.read(rel) if project.contains(project.root / rel) else None
    if file is None:
        if not os.path.isfile(project.root / rel):
            return {}, []
        return {}, [FileProblem(rel, 0, 1, "cannot be read (outside the project or too large)")]
    try:
        data = tomllib.loads(file.text)
    except tomllib.TOMLDecodeError as err:
        line = int(m.group(1)) if (m := re.search(r"line (\d+)", str(err))) else 1
        return {}, [FileProblem(rel, 0, line, f"not valid TOML ({err})")]
    servers = data.get(config.servers, {})
    if not isinstance(servers, dict):
        return {}, [FileProblem(rel, 0, 1, f"`{config.servers}` must be a table of servers")]
    result: dict[str, dict[str, Any]] = {}
    problems: list[FileProblem] = []
    for name, entry in servers.items():
        line = _toml_table_line(file.text, config.servers, name)
        problem = _entry_problem(name, entry, {}, config.servers)
        if problem is not None:
            problems.append(FileProblem(rel, 0, line, problem[1], name))
            continue
        result[name] = {**entry, "#line": line}
    return result, problems


def _toml_table_line(text: str, table: str, name: str) -> int:
    """The line of `[mcp_servers.<name>]` (quoted or not), else 1."""
    quoted = re.escape(name)
    header = re.compile(
        rf"^\s*\[\s*{re.escape(table)}\s*\.\s*(?:\"{quoted}\"|'{quoted}'|{quoted})\s*[\].]",
        re.MULTILINE,
    )
    match = header.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else 1
