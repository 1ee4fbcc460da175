"""GL207 entry-too-long: a gotcha entry over the configured character budget."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.gotchas import files as gfiles
from guidelint.gotchas.rulebase import GotchasRule
from guidelint.project import Project
from guidelint.sources import SourceFile


class EntryTooLong(GotchasRule):
    code = "GL207"
    name = "entry-too-long"
    severity = Severity.WARNING

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        budget = project.config.gotchas.max_entry_chars
        for entry in gfiles.parsed(file, project).entries:
            # Counted as agents read it: without carriage returns.
            size = len(entry.text.replace("\r", ""))
            if size > budget:
                yield self.finding(
                    file,
                    entry.headline_span,
                    f"entry '{entry.headline}' is {size} characters, over the budget of "
                    f"{budget} (max-entry-chars); move the detail to a linked note",
                )
