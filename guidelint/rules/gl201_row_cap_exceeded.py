"""GL201 row-cap-exceeded: a gotchas file holds more entries than its row cap."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.gotchas import files as gfiles
from guidelint.gotchas.rulebase import GotchasRule
from guidelint.project import Project
from guidelint.sources import SourceFile

NAMED = 3  # oldest entries named in the message; the rest are counted


class RowCapExceeded(GotchasRule):
    code = "GL201"
    name = "row-cap-exceeded"
    severity = Severity.ERROR

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        document = gfiles.parsed(file, project)
        if document.cap.error and document.cap.span:
            yield self.finding(file, document.cap.span, f"bad directive: {document.cap.error}")
        cap = gfiles.row_cap(document, project)
        entries = document.entries
        if cap is None or len(entries) <= cap:
            return
        over = len(entries) - cap
        # Entries are appended, so file order is age order: the first are the oldest.
        named = entries[: min(over, NAMED)]
        oldest = ", ".join(f"'{e.headline}' (line {e.line})" for e in named)
        more = f" and {over - len(named)} more" if over > len(named) else ""
        source = "this file's row-cap" if document.cap.value is not None else "row-cap in config"
        yield self.finding(
            file,
            entries[cap].headline_span,
            f"{len(entries)} entries exceed the row cap of {cap} ({source}) by {over}; "
            f"retire or merge the oldest: {oldest}{more}",
        )
