"""GL403 unknown-directive: an example setting that guidelint does not understand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.doc_kind import is_fixture
from guidelint.findings import Finding, Severity
from guidelint.lazy_re import LazyPattern
from guidelint.runner.rulebase import ExampleRule

# `{5}`, `{1,3-4}`: lines to highlight (Mintlify, Docusaurus, VitePress), not directives.
LINE_HIGHLIGHT = LazyPattern(r"^[\d\s,-]+$")

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile


class UnknownDirective(ExampleRule):
    code = "GL403"
    name = "unknown-directive"
    severity = Severity.ERROR
    scope = "fenced"  # a fence in the text (ExampleRule.applies_to)

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        # A test fixture's examples are inputs its tests feed a tool, wrong on purpose.
        return super().applies_to(file, project) and not is_fixture(file.rel)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        for example in self.examples(file):
            for problem in example.directives.problems:
                if _line_highlight(file.text[problem.span.start : problem.span.end]):
                    continue
                yield self.finding(file, problem.span, problem.message)


def _line_highlight(token: str) -> bool:
    return bool(token.strip()) and bool(LINE_HIGHLIGHT.match(token))
