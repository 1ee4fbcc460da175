"""GL103 wrong-server: the tool exists, but on another server than the one named."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.rulebase import ToolRule


class WrongServer(ToolRule):
    code = "GL103"
    name = "wrong-server"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    needs = "code-spans"

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        if not self.may_qualify(file, project):
            return
        from guidelint.tools.resolve import ResolutionKind, fix_note, qualified_token, rewrite_fix

        for _, span, ref, resolution in self.qualified_with(
            ResolutionKind.WRONG_SERVER, file, project
        ):
            homes = [t.server for t in resolution.others]
            fix = None
            if len(homes) == 1:
                new = qualified_token(homes[0], ref.name, ref.style)
                fix = rewrite_fix(file, span, ref, new, "the server that has it,")
            where = " and ".join(f"`{h}`" for h in homes)
            yield self.finding(
                file,
                span.span,
                f"tool `{ref.name}` is not on server `{ref.server}` but on {where}{fix_note(fix)}",
                fix=fix,
            )
