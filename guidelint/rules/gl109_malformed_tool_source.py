"""GL109 malformed-tool-source: .mcp.json or a tool snapshot that cannot be used as written."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import FileKind, SourceFile
from guidelint.spans import Span
from guidelint.tools.rulebase import ToolRule

if TYPE_CHECKING:
    from guidelint.tools.jsonfile import FileProblem


class MalformedToolSource(ToolRule):
    code = "GL109"
    name = "malformed-tool-source"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.JSON, FileKind.OTHER})  # OTHER: .codex/config.toml

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        tools = project.config.tools
        if file.kind == FileKind.JSON and (
            file.rel == tools.mcp_config
            or file.rel.startswith(f"{tools.snapshot_dir.rstrip('/')}/")
            or any(s.snapshot == file.rel for s in tools.servers.values())
        ):
            return True
        from guidelint.tools.harnesses import harness_configs

        # Other harnesses' server files (`.cursor/mcp.json`, `.vscode/mcp.json`, ...).
        return any(c.path == file.rel for c in harness_configs(project))

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.jsonpos import JSON_SPANS, KEY
        from guidelint.tools.load import problems_reported_in

        for problem in problems_reported_in(project, file.rel):
            if problem.rel == file.rel:
                yield self.finding(file, _at(file, problem), problem.message)
                continue
            # A snapshot the run does not check: reported on its server's entry.
            keys = file.derived(JSON_SPANS)
            key = keys.get(("mcpServers", problem.server, KEY))
            span = key if key is not None else _point(file, 0)
            yield self.finding(file, span, f"snapshot {problem}")


def _at(file: SourceFile, problem: FileProblem) -> Span:
    """The problem's offset; a TOML problem knows only its line (tomllib keeps no offsets)."""
    if problem.offset == 0 and problem.line > 1:
        return _point(file, file.lines.offset(problem.line))
    return _point(file, problem.offset)


def _point(file: SourceFile, offset: int) -> Span:
    start = max(0, min(offset, len(file.text)))
    return Span(start, min(start + 1, len(file.text)))
