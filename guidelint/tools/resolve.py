"""Resolve references against the catalog: the shared questions GL101-GL107 ask."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from guidelint.findings import Edit, Fix
from guidelint.sources import Derived
from guidelint.tools.catalog import Catalog, Tool, close_names, normalize_server, same_family
from guidelint.tools.references import Reference, parse_reference

if TYPE_CHECKING:
    from guidelint.markdown import CodeSpan
    from guidelint.sources import SourceFile


class ResolutionKind(enum.Enum):
    RESOLVED = "resolved"
    WHOLE_SERVER = "whole-server"  # mcp__lab, mcp__lab__*
    UNLISTED = "unlisted"  # the server is declared but its list is unknown here
    UNKNOWN_SERVER = "unknown-server"
    UNKNOWN_TOOL = "unknown-tool"
    WRONG_SERVER = "wrong-server"
    NOT_A_REFERENCE = "not-a-reference"  # a placeholder, or a wildcard of another server


# `mcp__server__tool`, `mcp__your-server__tool_name`: how docs write "some tool".
PLACEHOLDER_SERVERS = frozenset(
    {
        "server",
        "servername",
        "server_name",
        "server-name",
        "your_server",
        "your-server",
        "yourserver",
        "my_server",
        "my-server",
        "myserver",
        "some_server",
        "example",
        "foo",
        "xxx",
        "name",
        "srv",
        "x",
        "mcp",
        "plugin",
        "provider",
        "tool",
    }
)
PLACEHOLDER_TOOLS = frozenset(
    {
        "tool",
        "toolname",
        "tool_name",
        "tool-name",
        "your_tool",
        "my_tool",
        "name",
        "bar",
        "foo",
        "xxx",
        "x",
        "method",
        "action",
    }
)


@dataclass(frozen=True)
class Resolution:
    kind: ResolutionKind
    tool: Tool | None = None
    others: tuple[Tool, ...] = ()  # WRONG_SERVER: where the tool really is
    suggestions: tuple[str, ...] = ()


def server_names(catalog: Catalog) -> set[str]:
    return set(catalog.servers) | {normalize_server(s) for s in catalog.servers}


def resolve_qualified(ref: Reference, catalog: Catalog, prose: bool = True) -> Resolution:
    """How a reference resolves. In prose (not a permission list) a wildcard of an
    undeclared server and a placeholder such as `mcp__server__tool` are no references."""
    server = catalog.server(ref.server or "")
    if server is None:
        return _unknown_server(ref, catalog, prose)
    if ref.name in ("", "*"):
        return Resolution(ResolutionKind.WHOLE_SERVER)
    if server.tools is None:
        return Resolution(ResolutionKind.UNLISTED)
    if ref.name in server.tools:
        return Resolution(ResolutionKind.RESOLVED, tool=server.tools[ref.name])
    others = tuple(t for t in catalog.tools_named(ref.name) if t.server != server.name)
    if others:
        return Resolution(ResolutionKind.WRONG_SERVER, others=others)
    near = close_names(ref.name, server.tools) or same_family(ref.name, server.tools)
    if not near:  # nothing close here: a close tool of another server, with its server
        near = [qualified_token(t.server, t.name) for t in _close_elsewhere(ref.name, catalog)]
    return Resolution(ResolutionKind.UNKNOWN_TOOL, suggestions=tuple(near))


def _unknown_server(ref: Reference, catalog: Catalog, prose: bool) -> Resolution:
    """An undeclared server: the full corrected names when its tool is known elsewhere."""
    written = ref.server or ""
    if written == "*":
        return Resolution(ResolutionKind.WHOLE_SERVER)  # `mcp__*`: every server
    if prose and _placeholder_or_wildcard(written, ref.name, catalog):
        return Resolution(ResolutionKind.NOT_A_REFERENCE)
    if ref.name and ref.name != "*":
        homes = catalog.tools_named(ref.name)
        if not homes:
            homes = [
                tool
                for name in close_names(written, catalog.servers)
                for tool in _closest_on(ref.name, catalog, name)
            ]
        if not homes:
            homes = _close_elsewhere(ref.name, catalog)
        if homes:
            full = tuple(qualified_token(t.server, t.name) for t in homes)
            return Resolution(ResolutionKind.UNKNOWN_SERVER, suggestions=full)
    tail = f"__{ref.name}" if ref.name else ""
    servers = close_names(written, catalog.servers)
    return Resolution(
        ResolutionKind.UNKNOWN_SERVER,
        suggestions=tuple(f"mcp__{normalize_server(s)}{tail}" for s in servers),
    )


def _placeholder_or_wildcard(server: str, tool: str, catalog: Catalog) -> bool:
    """`mcp__server__tool`, `mcp__x__*` (x not close to a declared server)."""
    if tool == "*":
        return not close_names(server, catalog.servers)
    return server.lower() in PLACEHOLDER_SERVERS or tool.lower() in PLACEHOLDER_TOOLS


def _closest_on(name: str, catalog: Catalog, server: str) -> list[Tool]:
    tools = catalog.servers[server].tools
    if not tools:
        return []
    return [tools[n] for n in close_names(name, tools)]


def _close_elsewhere(name: str, catalog: Catalog) -> list[Tool]:
    """The tools closest to `name` on any server (one did-you-mean list)."""
    by_name = catalog.tools_by_name
    return [t for n in close_names(name, by_name, 2, 0.75) for t in by_name[n]][:3]


def markdown_references(file: SourceFile, catalog: Catalog) -> list[tuple[CodeSpan, Reference]]:
    """(code span, reference) for every code span that could be a tool reference.

    Five rules ask this of every file: it is computed once and kept with the file
    (one run's file, checked against that run's one catalog).
    """
    return file.derived(REFERENCES, catalog)


def _references(file: SourceFile, catalog: Catalog) -> list[tuple[CodeSpan, Reference]]:
    from guidelint.markdown import may_hold_code_spans

    if not may_hold_code_spans(file.text):
        return []
    known = server_names(catalog)
    found = []
    for span in file.markdown.code_spans:
        ref = parse_reference(span.content, known)
        if ref is not None:
            found.append((span, ref))
    return found


REFERENCES = Derived("tools.references", _references)


def rewrite_fix(file: SourceFile, span: CodeSpan, ref: Reference, new_token: str, what: str) -> Fix:
    """Rewrite the reference inside its code span (unsafe: the name changes meaning)."""
    inner = file.text[span.span.start : span.span.end]
    at = inner.find(ref.token)
    start = span.span.start + at
    return Fix(
        (Edit(start, start + len(ref.token), new_token),),
        description=f"rewrite `{ref.token}` to {what + ' ' if what else ''}`{new_token}`",
        safe=False,
    )


def fix_note(fix: Fix | None) -> str:
    """Say in the message that a fix exists and that it is unsafe."""
    return f" [--unsafe-fixes: {fix.description}]" if fix is not None else ""


def qualified_token(server: str, tool: str, style: str = "claude") -> str:
    """A tool's full name as the harness writes it: `mcp__server__tool` (Claude Code,
    Codex) or `mcp_server_tool` (Gemini CLI)."""
    if style == "gemini":
        return f"mcp_{server}_{tool}"
    return f"mcp__{normalize_server(server)}__{tool}"


def with_servers(names: Iterable[str], catalog: Catalog) -> str:
    """`(did you mean `a` or `b` of server `lab`?)`: each bare name with its home."""
    names = list(names)
    if not names:
        return ""
    homes = {n: sorted({t.server for t in catalog.tools_named(n)}) for n in names}
    servers = {s for h in homes.values() for s in h}
    if len(servers) == 1 and all(homes.values()):
        return f"{did_you_mean(names)[:-2]} of server `{servers.pop()}`?)"
    parts = [
        f"`{n}`" + (f" of server `{homes[n][0]}`" if len(homes[n]) == 1 else "") for n in names
    ]
    return " (did you mean " + " or ".join(parts) + "?)"


def did_you_mean(names: Iterable[str]) -> str:
    names = list(names)
    if not names:
        return ""
    return " (did you mean " + " or ".join(f"`{n}`" for n in names) + "?)"
