"""What the GL2xx rules share: which files they look at, and the index problems."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from guidelint.findings import Finding
from guidelint.gotchas import files as gfiles
from guidelint.gotchas.index import IndexProblemKind
from guidelint.gotchas.index_report import index_report
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile


class GotchasRule(Rule):
    """A rule that runs on the configured gotchas files only."""

    roles: ClassVar[frozenset[str]] = frozenset({gfiles.GOTCHAS})
    scope = "gotchas"

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        return file.kind == FileKind.MARKDOWN and gfiles.role(file.rel, project) in self.roles


class IndexRule(GotchasRule):
    """GL202-GL204: one comparison of index and entries, one shared regenerating fix.

    Each rule reports the problems of its `problem_kind`.
    """

    roles = frozenset({gfiles.GOTCHAS, gfiles.INDEX})
    problem_kind: ClassVar[IndexProblemKind]

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        report = index_report(file, project)
        for problem in report.problems:
            if problem.kind is self.problem_kind:
                yield self.finding(file, problem.span, problem.message, fix=report.fix)
