"""What the GL2xx rules share: which files they look at, and the index findings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from guidelint.findings import Finding
from guidelint.gotchas import files as gfiles
from guidelint.rules.base import Rule


class GotchasRule(Rule):
    """A rule that runs on the configured gotchas files only."""

    roles: ClassVar[frozenset[str]] = frozenset({gfiles.GOTCHAS})

    def applies_to(self, file, project) -> bool:
        return file.kind == "markdown" and gfiles.role(file.rel, project) in self.roles


class IndexRule(GotchasRule):
    """GL202-GL204: one comparison of index and entries, one shared regenerating fix."""

    roles = frozenset({gfiles.GOTCHAS, gfiles.INDEX})
    fixable = True

    def check(self, file, project) -> Iterator[Finding]:
        from guidelint.gotchas.index_report import index_report

        report = index_report(file, project)
        for problem in report.problems:
            if problem.code == self.code:
                yield self.finding(file, problem.span, problem.message, fix=report.fix)
