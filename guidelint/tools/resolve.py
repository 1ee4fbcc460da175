"""Resolve references against the catalog: the shared questions GL101-GL107 ask."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from guidelint.findings import Edit, Fix
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


@dataclass(frozen=True)
class Resolution:
    kind: ResolutionKind
    tool: Tool | None = None
    others: tuple[Tool, ...] = ()  # WRONG_SERVER: where the tool really is
    suggestions: tuple[str, ...] = ()


def server_names(catalog: Catalog) -> set[str]:
    return set(catalog.servers) | {normalize_server(s) for s in catalog.servers}


def resolve_qualified(ref: Reference, catalog: Catalog) -> Resolution:
    server = catalog.server(ref.server or "")
    if server is None:
        if ref.server == "*":
            return Resolution(ResolutionKind.WHOLE_SERVER)
        return Resolution(
            ResolutionKind.UNKNOWN_SERVER,
            suggestions=tuple(close_names(ref.server or "", catalog.servers)),
        )
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
    return Resolution(ResolutionKind.UNKNOWN_TOOL, suggestions=tuple(near))


def markdown_references(file: SourceFile, catalog: Catalog) -> list[tuple[CodeSpan, Reference]]:
    """(code span, reference) for every code span that could be a tool reference.

    Five rules ask this of every file: it is computed once and kept with the file
    (one run's file, checked against that run's one catalog).
    """
    return file.derived("tools.references", lambda: _references(file, catalog))


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


def rewrite_fix(file: SourceFile, span: CodeSpan, ref: Reference, new_token: str, what: str) -> Fix:
    """Rewrite the reference inside its code span (unsafe: the name changes meaning)."""
    inner = file.text[span.span.start : span.span.end]
    at = inner.find(ref.token)
    start = span.span.start + at
    return Fix(
        (Edit(start, start + len(ref.token), new_token),),
        description=f"rewrite `{ref.token}` to {what} `{new_token}`",
        safe=False,
    )


def fix_note(fix: Fix | None) -> str:
    """Say in the message that a fix exists and that it is unsafe."""
    return f" [--unsafe-fixes: {fix.description}]" if fix is not None else ""


def qualified_token(server: str, tool: str) -> str:
    return f"mcp__{normalize_server(server)}__{tool}"


def did_you_mean(names: Iterable[str]) -> str:
    names = list(names)
    if not names:
        return ""
    return " (did you mean " + " or ".join(f"`{n}`" for n in names) + "?)"
