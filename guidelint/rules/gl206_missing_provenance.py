"""GL206 missing-provenance: a gotcha entry that names no issue id."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.gotchas import files as gfiles
from guidelint.gotchas.rulebase import GotchasRule
from guidelint.project import Project
from guidelint.sources import SourceFile


class MissingProvenance(GotchasRule):
    code = "GL206"
    name = "missing-provenance"
    severity = Severity.WARNING  # the configured provenance-severity decides

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        severity = project.config.gotchas.provenance_severity
        for entry in gfiles.parsed(file, project).entries:
            if not entry.issues:
                yield self.finding(
                    file,
                    entry.headline_span,
                    f"entry '{entry.headline}' names no issue id (e.g. #1489) as provenance",
                    severity=severity,
                )
