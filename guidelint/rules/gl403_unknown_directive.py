"""GL403 unknown-directive: an example setting that guidelint does not understand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.findings import Finding, Severity
from guidelint.runner.rulebase import ExampleRule

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile


class UnknownDirective(ExampleRule):
    code = "GL403"
    name = "unknown-directive"
    severity = Severity.ERROR
    scope = "fenced"  # a fence in the text (ExampleRule.applies_to)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        for example in self.examples(file):
            for problem in example.directives.problems:
                yield self.finding(file, problem.span, problem.message)
