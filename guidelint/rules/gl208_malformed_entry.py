"""GL208 malformed-entry: a top-level list item in a gotchas file that is not an entry."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.gotchas import files as gfiles
from guidelint.gotchas.rulebase import GotchasRule
from guidelint.project import Project
from guidelint.sources import SourceFile
from guidelint.spans import Span


class MalformedEntry(GotchasRule):
    code = "GL208"
    name = "malformed-entry"
    severity = Severity.WARNING

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        for item in gfiles.parsed(file, project).not_entries:
            first_line = Span(item.span.start, file.lines.line_end(item.line))
            yield self.finding(
                file,
                first_line,
                f"list item is not a gotcha entry ({item.reason}): it escapes the row cap "
                f"and the index; start it with a **bold headline**",
            )
