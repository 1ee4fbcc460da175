"""GL401 example-syntax-error: a Python example in a guide does not parse."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.findings import Finding, Severity
from guidelint.runner.rulebase import ExampleRule
from guidelint.spans import Span

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile


class ExampleSyntaxError(ExampleRule):
    code = "GL401"
    name = "example-syntax-error"
    severity = Severity.ERROR
    scope = "fenced"  # a fence in the text (ExampleRule.applies_to)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.runner.examples import source_offset, syntax_errors_of

        for example, error in zip(self.examples(file), syntax_errors_of(file), strict=True):
            if example.settings.skip:
                continue
            if not example.closed:
                start = file.lines.offset(example.line)
                span = Span(start, file.lines.line_end(example.line))
                yield self.finding(
                    file,
                    span,
                    f"the ```{example.lang} fence opened here is never closed"
                    " (everything after it would be code)",
                )
                continue
            if error is None:
                continue
            offset = source_offset(example, file.lines, error.lineno or 1, error.offset or 1)
            yield self.finding(file, Span(offset, offset), f"example does not parse: {error.msg}")
