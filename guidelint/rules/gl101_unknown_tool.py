"""GL101 unknown-tool: `mcp__<server>__<tool>` where the server has no such tool."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.rulebase import ToolRule


class UnknownTool(ToolRule):
    code = "GL101"
    name = "unknown-tool"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    needs = "code-spans"

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        if not self.may_qualify(file, project):
            return
        from guidelint.tools.resolve import (
            ResolutionKind,
            did_you_mean,
            fix_note,
            qualified_token,
            rewrite_fix,
        )

        for tools, span, ref, resolution in self.qualified_with(
            ResolutionKind.UNKNOWN_TOOL, file, project
        ):
            home = tools.server(ref.server or "")
            assert home is not None  # an unknown tool is one of a known server
            server = home.name
            fix = None
            if len(resolution.suggestions) == 1:  # only a single, clear candidate
                best = resolution.suggestions[0]  # a bare name here, or another server's tool
                if not best.startswith("mcp__"):
                    best = qualified_token(server, best, ref.style)
                fix = rewrite_fix(file, span, ref, best, "the closest tool")
            yield self.finding(
                file,
                span.span,
                f"server `{server}` has no tool `{ref.name}`"
                f"{did_you_mean(resolution.suggestions)}{fix_note(fix)}",
                fix=fix,
            )
