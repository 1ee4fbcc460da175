"""GL403 unknown-directive: an example setting that guidelint does not understand."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.rules.base import Rule


class UnknownDirective(Rule):
    code = "GL403"
    name = "unknown-directive"
    summary = "An example directive is misspelled or has a bad value, so it would be ignored."
    severity = Severity.ERROR
    file_kinds = frozenset({"markdown"})

    def check(self, file, project) -> Iterator[Finding]:
        from guidelint.runner.examples import examples_of

        for example in examples_of(file):
            for problem in example.directives.problems:
                yield self.finding(file, problem.span, problem.message)
