"""What every GL1xx rule shares: the files its findings depend on, for the cache, and
the loop over a file's qualified references."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.project import Memo
from guidelint.rule import Rule
from guidelint.sources import FileKind

if TYPE_CHECKING:
    from guidelint.markdown import CodeSpan
    from guidelint.project import Project
    from guidelint.sources import SourceFile
    from guidelint.spans import Span
    from guidelint.tools.catalog import Catalog
    from guidelint.tools.references import Reference
    from guidelint.tools.resolve import Resolution, ResolutionKind


class ToolRule(Rule):
    """A rule whose findings depend on `.mcp.json` and the snapshots, not only the file."""

    def cache_inputs(self, project: Project) -> list[str]:
        from guidelint.tools.harnesses import harness_configs

        tools = project.config.tools
        inputs = [tools.mcp_config, *(c.path for c in harness_configs(project))]
        folder = project.root / tools.snapshot_dir
        if folder.is_dir():
            inputs += [f"{tools.snapshot_dir}/{p.name}" for p in sorted(folder.glob("*.json"))]
        inputs += [s.snapshot for s in tools.servers.values() if s.snapshot]
        return inputs

    def may_qualify(self, file: SourceFile, project: Project) -> bool:
        """Whether the file may hold a `mcp__server__tool` (or Gemini's `mcp_server_tool`)
        that resolves against a declared server: without one (or without such text) no
        catalog is built."""
        return "mcp_" in file.text and not no_server_declared(project)

    def qualified_with(
        self, wanted: ResolutionKind, file: SourceFile, project: Project
    ) -> Iterator[tuple[Catalog, CodeSpan, Reference, Resolution]]:
        """(tools, span, reference, resolution) for each `mcp__server__tool` reference of
        the file that resolves the wanted way (GL101-GL103 differ only there)."""
        if not self.may_qualify(file, project):
            return
        from guidelint.tools.load import catalog
        from guidelint.tools.resolve import markdown_references, resolve_qualified

        tools = catalog(project)
        for span, ref in markdown_references(file, tools):
            if ref.kind != "qualified":
                continue
            resolution = resolve_qualified(ref, tools)
            if resolution.kind is wanted:
                yield tools, span, ref, resolution


def no_server_declared(project: Project) -> bool:
    """No `.mcp.json`, no configured or external server and no snapshot folder: the
    catalog would hold the built-in tools only, against which GL101-GL105 find nothing
    (each needs a server's tool), so they need not build it. Answered once per run (five
    rules ask it of every file with a code span); the memo notes its `exists()` lookup
    again for each file that asks, for the cache and --since."""
    return project.memo(NO_SERVER_DECLARED)


def _no_server_declared(project: Project) -> bool:
    tools = project.config.tools
    if tools.servers or tools.external:
        return False
    # project.exists first: the cache and --since then know the file's absence counts.
    if project.exists(tools.mcp_config) or os.path.lexists(project.root / tools.mcp_config):
        return False
    from guidelint.tools.harnesses import harness_configs

    for config in harness_configs(project):  # another harness's server file
        if project.exists(config.path) or os.path.lexists(project.root / config.path):
            return False
    return not (project.root / tools.snapshot_dir).is_dir()


NO_SERVER_DECLARED = Memo("tools.no_server_declared", _no_server_declared)


def server_key(file: SourceFile, name: str) -> Span:
    """Where `.mcp.json` names the server (its key), for a finding about the server."""
    from guidelint.spans import Span
    from guidelint.tools.jsonpos import JSON_SPANS, KEY

    # Walked once per file, not once per server.
    spans = file.derived(JSON_SPANS)
    span = spans.get(("mcpServers", name, KEY))
    return span or Span(0, min(1, len(file.text)))


class ServerFileRule(Rule):
    """A rule over the MCP server files of every harness (`.mcp.json`, `.cursor/mcp.json`,
    `.vscode/mcp.json`, `.gemini/settings.json`, `.codex/config.toml`), which
    `tools.mcp_files.server_file` reads one way."""

    file_kinds = frozenset({FileKind.JSON, FileKind.OTHER})  # OTHER: .codex/config.toml

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        from guidelint.tools.mcp_files import might_hold_servers

        return might_hold_servers(file, project)
