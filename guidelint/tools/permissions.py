"""Permission rules (`Tool`, `Tool(specifier)`, `mcp__srv`, `mcp__srv__tool`) and
agent tool lists, checked against the catalog.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from guidelint.findings import Severity
from guidelint.tools.catalog import Catalog, close_names
from guidelint.tools.references import QUALIFIED, Reference, split_qualified
from guidelint.tools.resolve import (
    ResolutionKind,
    did_you_mean,
    qualified_token,
    resolve_qualified,
    server_names,
)

RULE = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_\-]*)\s*(\((?P<spec>.*)\))?$", re.DOTALL)


@dataclass(frozen=True)
class Problem:
    message: str
    severity: Severity


def check_tool_name(entry: str, catalog: Catalog, permission: bool = False) -> Problem | None:
    """What is wrong with a permission entry or agent tool name, or None. A permission
    (`permission`) for a server this repository does not declare, named like none it
    does, is for one registered per user or by a plugin: not a defect here."""
    entry = entry.strip()
    if entry in ("*", "") or entry.startswith("mcp__*"):
        return None
    match = QUALIFIED.match(entry)
    if match:
        return _check_mcp(entry, match.group("rest"), catalog, permission)
    match = RULE.match(entry)
    if not match:
        return Problem(
            f"`{entry}` is not a permission rule (`Tool` or `Tool(specifier)`)", Severity.WARNING
        )
    return _check_builtin(match.group("name"), catalog)


def _check_mcp(entry: str, rest: str, catalog: Catalog, permission: bool) -> Problem | None:
    if not catalog.servers:
        return None  # no server declared here: user-scope servers are out of sight
    server, tool = split_qualified(rest, server_names(catalog))
    ref = Reference("qualified", tool, server, None, entry)
    resolution = resolve_qualified(ref, catalog, prose=False)
    if resolution.kind is ResolutionKind.UNKNOWN_SERVER:
        if permission and not resolution.suggestions:
            return None  # Spotlight, registered per user: allowing its tools is intended
        hint = did_you_mean(resolution.suggestions) or (
            " (one registered outside the repository goes in `external` of [tool.guidelint.tools])"
        )
        return Problem(
            f"`{entry}` names MCP server `{server}`, which is not declared{hint}", Severity.ERROR
        )
    if resolution.kind is ResolutionKind.UNKNOWN_TOOL:
        hint = did_you_mean(
            s if s.startswith("mcp__") else qualified_token(server, s)
            for s in resolution.suggestions
        )
        return Problem(f"`{entry}`: server `{server}` has no tool `{tool}`{hint}", Severity.ERROR)
    if resolution.kind is ResolutionKind.WRONG_SERVER:
        homes = " or ".join(f"`{qualified_token(t.server, tool)}`" for t in resolution.others)
        return Problem(
            f"`{entry}`: `{tool}` is not on `{server}` (did you mean {homes}?)", Severity.ERROR
        )
    return None


def _check_builtin(name: str, catalog: Catalog) -> Problem | None:
    builtins = catalog.builtins
    if builtins.known(name):
        return None
    retired = builtins.retired_hint(name)
    if retired:
        return Problem(f"`{name}` is a retired built-in tool ({retired})", Severity.WARNING)
    mcp_homes = catalog.tools_named(name)
    if mcp_homes:
        forms = " or ".join(f"`{qualified_token(t.server, name)}`" for t in mcp_homes)
        return Problem(f"`{name}` is an MCP tool: name it {forms}", Severity.ERROR)
    hint = did_you_mean(close_names(name, builtins.current | set(builtins.aliases), 2))
    if name[:1].isupper():
        # New built-ins ship every few weeks: an unknown PascalCase name is a warning.
        return Problem(f"`{name}` is not a known built-in tool{hint}", Severity.WARNING)
    return Problem(f"`{name}` is neither a built-in tool nor an MCP tool{hint}", Severity.ERROR)


def check_copilot_tool(entry: str, catalog: Catalog, aliases: bool = False) -> Problem | None:
    """What is wrong with one `tools` entry of a GitHub Copilot custom agent: an MCP
    tool, written `<server>/<tool>` (or `<server>/*`), resolves against the servers. A
    bare name is checked against GitHub's tool aliases only when `aliases` is asked for
    (`copilot-tool-aliases`): VS Code's and extensions' own names have no complete list."""
    entry = entry.strip()
    server, slash, tool = entry.partition("/")
    if not slash:
        return _copilot_alias(entry) if aliases else None
    if not server or not catalog.servers:
        return None
    if catalog.server(server) is None:
        return None  # Copilot's built-in servers (`github`, `playwright`) are not declared
    ref = Reference("qualified", "" if tool == "*" else tool, server, None, entry)
    resolution = resolve_qualified(ref, catalog, prose=False)
    if resolution.kind is ResolutionKind.UNKNOWN_TOOL:
        hint = did_you_mean(f"{server}/{s.rsplit('__', 1)[-1]}" for s in resolution.suggestions)
        return Problem(f"`{entry}`: server `{server}` has no tool `{tool}`{hint}", Severity.ERROR)
    if resolution.kind is ResolutionKind.WRONG_SERVER:
        homes = " or ".join(f"`{t.server}/{tool}`" for t in resolution.others)
        return Problem(
            f"`{entry}`: `{tool}` is not on `{server}` (did you mean {homes}?)", Severity.ERROR
        )
    return None


def _copilot_alias(name: str) -> Problem | None:
    """A bare name that is none of GitHub's tool aliases (case does not matter)."""
    known = copilot_aliases()
    if not name or name == "*" or name.lower() in known:
        return None
    close = close_names(name.lower(), sorted(known), 1)
    hint = did_you_mean(known[c] for c in close)
    return Problem(
        f"`{name}` is none of GitHub's tool aliases: the Copilot cloud agent ignores it{hint}",
        Severity.WARNING,
    )


@lru_cache(maxsize=1)
def copilot_aliases() -> dict[str, str]:
    """GitHub's aliases and their compatible names, lowercased, each to the name as
    GitHub writes it (a primary alias first: `read`, not `Read`) (`copilot_tools.json`)."""
    data = json.loads(Path(__file__).with_name("copilot_tools.json").read_text(encoding="utf-8"))
    names = [*data["aliases"], *(n for compatible in data["aliases"].values() for n in compatible)]
    shown: dict[str, str] = {}
    for name in names:
        shown.setdefault(name.lower(), name)
    return shown
