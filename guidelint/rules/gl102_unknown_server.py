"""GL102 unknown-server: `mcp__<server>__...` naming a server no source declares."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.rulebase import ToolRule, no_server_declared


class UnknownServer(ToolRule):
    code = "GL102"
    name = "unknown-server"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    needs = "code-spans"

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        if no_server_declared(project):
            return  # no server declared: nothing to resolve against (no catalog built)
        from guidelint.tools.load import catalog

        if not catalog(project).servers:
            return
        from guidelint.doc_kind import reading_of

        reading = reading_of(file, project)
        if reading.skip:
            return  # a plan or report names servers it proposes or has since retired
        from guidelint.catalogue import artifact_of, declares_servers

        if artifact_of(file.rel, project) is not None and not declares_servers(file.rel, project):
            return  # a skill users install names their servers: they declare them
        from guidelint.tools.context import in_prohibition  # its patterns: only now
        from guidelint.tools.resolve import ResolutionKind, did_you_mean, fix_note, rewrite_fix

        for tools, span, ref, resolution in self.qualified_with(
            ResolutionKind.UNKNOWN_SERVER, file, project
        ):
            if in_prohibition(span, file.text):
                continue  # "never call `mcp__x__y`": keeping the agent away is no defect
            fix = None
            if len(resolution.suggestions) == 1:
                fix = rewrite_fix(file, span, ref, resolution.suggestions[0], "")
            known = ", ".join(f"`{s}`" for s in sorted(tools.servers))
            hint = did_you_mean(resolution.suggestions) or (
                f" (known: {known}; one registered outside the repository goes in "
                "`external` of [tool.guidelint.tools])"
            )
            yield self.finding(
                file,
                span.span,
                f"no MCP server `{ref.server}` is declared{hint}{fix_note(fix)}{reading.note}",
                fix=fix,
                severity=Severity.WARNING if reading.note else None,
            )
