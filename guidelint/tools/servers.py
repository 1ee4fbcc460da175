"""Which MCP servers a project declares: `.mcp.json`, configuration, snapshots.

`.mcp.json` is Claude Code's project file: `mcpServers` -> name -> `{command, args,
env}` for stdio or `{type: "http" | "sse", url, headers}`. `${VAR}` and
`${VAR:-default}` expand in command, args, env, url and headers; an unset
`${VAR}` stays literal and a bare `$VAR` never expands, as in Claude Code.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from guidelint.config import ConfigError
from guidelint.tools.config import ServerConfig, ToolsConfig
from guidelint.tools.jsonpos import value_spans

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


def read_mcp_json(root: Path, rel: str, environ: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """The expanded `mcpServers` table of `.mcp.json`, or {} when there is none."""
    path = root / rel
    if not path.is_file():
        return {}
    try:
        text = path.read_text(encoding="utf-8-sig")
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ConfigError(f"{rel}:{err.lineno}: not valid JSON ({err.msg})") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{rel}: cannot read: {err}") from None
    servers = data.get("mcpServers", {}) if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise ConfigError(f"{rel}:1: `mcpServers` must be an object of servers")
    spans = value_spans(text)
    result = {}
    for name, entry in servers.items():
        key = spans.get(("mcpServers", name, "#key"))
        line = text.count("\n", 0, key.start) + 1 if key else 1
        if not isinstance(entry, dict):
            raise ConfigError(f"{rel}:{line}: server `{name}` must be an object")
        result[name] = _expand_entry(entry, environ)
        result[name]["#line"] = line
    return result


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


def declared_servers(
    root: Path, tools: ToolsConfig, environ: Mapping[str, str] | None = None
) -> dict[str, ServerSpec]:
    """Every server: `.mcp.json`, then configuration (which wins), then lone snapshots."""
    environ = os.environ if environ is None else environ
    specs: dict[str, ServerSpec] = {}
    for name, entry in read_mcp_json(root, tools.mcp_config, environ).items():
        specs[name] = _from_mcp_entry(name, entry, tools)
    for name, server in tools.servers.items():
        specs[name] = _merge_config(specs.get(name), name, server, tools, environ)
    snapshot_dir = root / tools.snapshot_dir
    if snapshot_dir.is_dir():
        for path in sorted(snapshot_dir.glob("*.json")):
            if path.stem not in specs:
                rel = f"{tools.snapshot_dir}/{path.name}"
                specs[path.stem] = ServerSpec(
                    path.stem, snapshot=rel, timeout=tools.timeout, declared_in=rel
                )
    return specs


def _from_mcp_entry(name: str, entry: dict[str, Any], tools: ToolsConfig) -> ServerSpec:
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
        declared_in=f"{tools.mcp_config}:{entry.get('#line', 1)}",
    )


def _merge_config(
    base: ServerSpec | None,
    name: str,
    server: ServerConfig,
    tools: ToolsConfig,
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
