"""GL402 example-lint: ruff's findings on a Python example, at their Markdown lines."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.doc_kind import is_fixture
from guidelint.findings import Finding, Severity
from guidelint.project import Memo
from guidelint.runner.rulebase import ExampleRule
from guidelint.sources import Derived
from guidelint.spans import Span

if TYPE_CHECKING:
    from guidelint.config import RunnerConfig
    from guidelint.project import Project
    from guidelint.runner.examples import Example
    from guidelint.runner.lint import LintMessage
    from guidelint.settings import DefaultRunner
    from guidelint.sources import SourceFile


class ExampleLint(ExampleRule):
    code = "GL402"
    name = "example-lint"
    severity = Severity.ERROR
    scope = "fenced"  # a fence in the text (ExampleRule.applies_to)

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        # A test fixture's examples are inputs its tests feed a tool, wrong on purpose.
        return super().applies_to(file, project) and not is_fixture(file.rel)

    def prepare(self, files: list[SourceFile], project: Project) -> None:
        """One ruff call for every example of the batch; each file keeps its share."""
        from guidelint.runner.lint import RuffUnavailable, lint_sources

        wanted = [(file, self._lintable(file)) for file in files if self.applies_to(file, project)]
        wanted = [(file, examples) for file, examples in wanted if examples]
        sources = [e.python_source() for _, examples in wanted for e in examples]
        if not sources:
            return
        config = project.config.runner
        try:
            results = lint_sources(sources, config.lint_select, config.lint_ignore)
        except RuffUnavailable:
            return  # each file's check tries again, and says why once
        index = 0
        for file, examples in wanted:
            share = results[index : index + len(examples)]
            index += len(examples)
            file.keep(LINT, share)

    def _lintable(self, file: SourceFile) -> list[Example]:
        return file.derived(LINTABLE, self)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.runner.examples import source_offset
        from guidelint.runner.lint import RuffUnavailable

        examples = self._lintable(file)
        if not examples:
            return
        config = project.config.runner
        try:
            # From prepare(), else one call for this file.
            results = file.derived(LINT, examples, config)
        except RuffUnavailable as error:
            warned: list[bool] = project.memo(WARNED)  # once per run
            if not warned:
                warned.append(True)
                start = file.lines.offset(examples[0].line)
                yield self.finding(file, Span(start, start), str(error), severity=Severity.WARNING)
            return
        for example, messages in zip(examples, results, strict=True):
            lines = example.python_source().split("\n")
            for msg in messages:
                if _marked_as_error(lines, msg.row):
                    continue  # `# error: ...` above it: the example shows the bug on purpose
                start = source_offset(example, file.lines, msg.row, msg.column)
                end = source_offset(example, file.lines, msg.end_row, msg.end_column)
                yield self.finding(
                    file, Span(start, max(start, end)), f"ruff {msg.code}: {msg.message}"
                )


EXPECTED_ERROR = re.compile(r"#\s*error\b", re.IGNORECASE)


def _marked_as_error(lines: list[str], row: int) -> bool:
    """The line, or the comment lines right above it, say `# error: ...`: the way a
    type checker's or linter's docs and tests (mdtest, mypy) mark the line that is
    wrong on purpose."""
    index = row - 1
    if 0 <= index < len(lines) and EXPECTED_ERROR.search(lines[index]):
        return True
    index -= 1
    while 0 <= index < len(lines) and lines[index].lstrip().startswith("#"):
        if EXPECTED_ERROR.search(lines[index]):
            return True
        index -= 1
    return False


def _lintable(file: SourceFile, rule: ExampleRule) -> list[Example]:
    from guidelint.runner.examples import syntax_errors_of

    return [
        e
        for e, error in zip(rule.examples(file), syntax_errors_of(file), strict=True)
        if e.closed and not e.settings.skip and error is None
    ]


def _lint(
    file: SourceFile, examples: list[Example], config: RunnerConfig | DefaultRunner
) -> list[list[LintMessage]]:
    from guidelint.runner.lint import lint_sources

    sources = [e.python_source() for e in examples]
    return lint_sources(sources, config.lint_select, config.lint_ignore)


WARNED = Memo("GL402.warned", lambda project: list[bool]())
LINTABLE = Derived("GL402.lintable", _lintable)
LINT = Derived("GL402.lint", _lint)  # ruff's messages per lintable example, kept on the file
