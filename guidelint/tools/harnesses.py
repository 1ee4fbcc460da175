"""The coding agents (harnesses) a repository may steer: the files each reads, where it
keeps its MCP servers and how it names their tools, from the bundled `harnesses.json`
(every fact with its sources and the version it describes).

A fact marked `"certain": false` is kept for people (`guidelint harnesses`), never used
to report anything.
"""

from __future__ import annotations

import json
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from guidelint.project import Project


@dataclass(frozen=True)
class McpConfig:
    """One file where a harness declares MCP servers."""

    harness: str
    path: str  # relative to the project root
    format: str  # "json" | "toml"
    servers: str  # the key of the servers table
    url_keys: tuple[tuple[str, str | None], ...]  # url key -> transport it implies


@dataclass(frozen=True)
class ToolNaming:
    form: str | None  # "mcp__<server>__<tool>", "mcp_<server>_<tool>", ... or None
    certain: bool
    note: str = ""


@dataclass(frozen=True)
class Harness:
    key: str
    title: str
    version: str
    instructions: tuple[str, ...]
    config: tuple[str, ...]
    mcp: tuple[McpConfig, ...]
    tool_names: ToolNaming
    rules: tuple[str, ...]  # rule codes or prefixes that concern this harness
    sources: tuple[str, ...]
    uncertain: tuple[str, ...]
    instruction_limit: int | None  # bytes, where the harness documents a cap
    components: tuple[str, ...] = ()  # agent and skill files it loads (globs)

    def concerns(self, code: str) -> bool:
        return any(code.startswith(prefix) for prefix in self.rules)


@lru_cache(maxsize=1)
def harnesses() -> dict[str, Harness]:
    """Every known harness, by key (`codex`, `cursor`, ...), in the data file's order."""
    # Beside this module (not importlib.resources: it pulls tempfile and shutil into
    # every cached check, whose key asks for the harnesses' server files).
    text = Path(__file__).with_name("harnesses.json").read_text(encoding="utf-8")
    data = json.loads(text)["harnesses"]
    return {key: _harness(key, entry) for key, entry in data.items()}


def _harness(key: str, entry: dict[str, Any]) -> Harness:
    naming = entry.get("mcp_tool_names") or {}
    limit = entry.get("instruction_limit") or {}
    return Harness(
        key=key,
        title=entry["title"],
        version=entry.get("version", "unknown"),
        instructions=tuple(entry.get("instructions", ())),
        config=tuple(entry.get("config", ())),
        mcp=tuple(
            McpConfig(
                key,
                m["path"],
                m["format"],
                m["servers"],
                tuple((k, v) for k, v in m.get("url_keys", {}).items()),
            )
            for m in entry.get("mcp", ())
        ),
        tool_names=ToolNaming(
            naming.get("form"), bool(naming.get("certain")), naming.get("note", "")
        ),
        rules=tuple(entry.get("rules", ())),
        sources=tuple(entry.get("sources", ())),
        uncertain=tuple(entry.get("uncertain", ())),
        instruction_limit=limit.get("bytes") if limit.get("certain") else None,
        components=(*entry.get("agents", ()), *entry.get("skills", ())),
    )


def harness_keys() -> list[str]:
    return list(harnesses())


def mcp_configs() -> list[McpConfig]:
    """The MCP server files of every harness but Claude Code's `.mcp.json` (which the
    `mcp-config` option names), in the data file's order."""
    return [m for h in harnesses().values() for m in h.mcp if h.key != "claude-code"]


def harness_configs(project: Project) -> list[McpConfig]:
    """The MCP server files of other harnesses (`.cursor/mcp.json`, `.vscode/mcp.json`,
    `.gemini/settings.json`, `.codex/config.toml`) of the harnesses the configuration
    selects (every one by default)."""
    selected = project.config.harnesses
    return [c for c in mcp_configs() if not selected or c.harness in selected]


def codes_for(selected: list[str] | tuple[str, ...], codes: list[str]) -> list[str]:
    """The rule codes that concern at least one of the selected harnesses."""
    chosen = [harnesses()[key] for key in selected]
    return [code for code in codes if any(h.concerns(code) for h in chosen)]


def unknown_harness(key: str) -> str | None:
    """Why a harness key is not one guidelint knows (None when it is), with a did-you-mean."""
    known = harnesses()
    if key in known:
        return None
    from difflib import get_close_matches

    close = get_close_matches(key, list(known), n=1)
    hint = f" (did you mean `{close[0]}`?)" if close else ""
    return f"unknown harness `{key}`{hint}; known: {', '.join(known)}"


def gemini_tool(token: str, servers: AbstractSet[str]) -> tuple[str, str] | None:
    """`mcp_<server>_<tool>` (Gemini CLI's name for an MCP tool) -> (server, tool) when it
    starts with a declared server; the longest server wins (`mcp_git_hub_x`). Gemini's
    single underscore cannot be split otherwise, so an undeclared server is no reference."""
    if not token.startswith("mcp_") or token.startswith("mcp__"):
        return None
    rest = token[len("mcp_") :]
    best: tuple[str, str] | None = None
    longest = 0
    for server in sorted(servers):
        for written in (server, server.replace("-", "_")):
            if rest.startswith(written + "_") and len(rest) > len(written) + 1:
                if len(written) > longest:
                    best, longest = (server, rest[len(written) + 1 :]), len(written)
    return best
