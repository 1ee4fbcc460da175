"""Snapshots: a server's `tools/list` answer in MCP wire format, committed for CI.

    {"tools": [{"name": ..., "description": ..., "inputSchema": {...}}, ...],
     "prompts": [...], "resources": [...]}

Reading is tolerant: a whole JSON-RPC response (`{"result": {"tools": ...}}`) or a
bare list of tools, as other MCP clients export them, works too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from guidelint.config import ConfigError
from guidelint.tools.catalog import ServerTools, Tool

KEPT_TOOL_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")


def read_snapshot(root: Path, rel: str, server: str) -> ServerTools | None:
    """The server's lists from a snapshot file, None if absent; ConfigError if broken."""
    path = root / rel
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as err:
        raise ConfigError(f"{rel}:{err.lineno}: snapshot is not valid JSON ({err.msg})") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{rel}: cannot read snapshot: {err}") from None
    return from_wire(data, server, origin=rel, where=rel)


def from_wire(data: Any, server: str, origin: str, where: str) -> ServerTools:
    if isinstance(data, dict) and isinstance(data.get("result"), dict):
        data = data["result"]
    if isinstance(data, list):
        data = {"tools": data}
    if not isinstance(data, dict) or not isinstance(data.get("tools"), list):
        raise ConfigError(f"{where}:1: snapshot needs a `tools` list (MCP tools/list result)")
    tools: dict[str, Tool] = {}
    for index, entry in enumerate(data["tools"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise ConfigError(f"{where}: tools[{index}] has no string `name`")
        schema = entry.get("inputSchema")
        tools[entry["name"]] = Tool(
            name=entry["name"],
            server=server,
            input_schema=schema if isinstance(schema, dict) else {},
            description=str(entry.get("description") or ""),
        )
    return ServerTools(
        name=server,
        tools=tools,
        prompts=[p for p in data.get("prompts") or [] if isinstance(p, dict)],
        resources=[r for r in data.get("resources") or [] if isinstance(r, dict)],
        origin=origin,
    )


def to_wire(tools: list[dict], prompts: list[dict], resources: list[dict]) -> dict[str, Any]:
    """A stable, diff-friendly snapshot: known fields only, sorted by name."""
    slim = [{k: t[k] for k in KEPT_TOOL_FIELDS if k in t} for t in tools]
    data: dict[str, Any] = {"tools": sorted(slim, key=lambda t: t["name"])}
    if prompts:
        data["prompts"] = sorted(prompts, key=lambda p: str(p.get("name")))
    if resources:
        data["resources"] = sorted(resources, key=lambda r: str(r.get("uri")))
    return data


def write_snapshot(path: Path, data: dict[str, Any]) -> None:
    from guidelint.fsio import write_atomic

    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n")
