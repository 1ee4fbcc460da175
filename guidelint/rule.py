"""What a rule is: metadata plus a check that yields findings. Rules never print."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from guidelint.findings import Finding, Fix, Severity, normal_context
from guidelint.sources import Derived, FileKind
from guidelint.spans import Span

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile


class Rule:
    code: ClassVar[str]  # "GL" + 3 digits, stable forever
    name: ClassVar[str]  # kebab-case
    severity: ClassVar[Severity] = Severity.ERROR
    # Stated by the rule's page, never here: its first paragraph, and whether it shows
    # a fix (a `{example=fixed}` block). The registry sets both from the generated
    # index (`rules.index.load`, written by scripts/gen_rule_index.py).
    summary: ClassVar[str] = ""  # one line
    fixable: ClassVar[bool] = False
    # Which files the engine hands to `check`.
    file_kinds: ClassVar[frozenset[FileKind]] = frozenset({FileKind.MARKDOWN})
    # For the index the engine reads before importing a rule (`rules.index`): a key of
    # its SCOPES, a cheap superset of `applies_to()`; and for a rule that applies to
    # every file of its kinds, a key of its NEEDS, what a file's text must hold for
    # `check()` to find anything (none: no such test).
    scope: ClassVar[str] = "kinds"
    needs: ClassVar[str] = ""

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        """Narrow further than file_kinds (e.g. only gotchas files)."""
        return file.kind in self.file_kinds

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        raise NotImplementedError

    def prepare(self, files: list[SourceFile], project: Project) -> None:
        """Called with a batch of files (those `check` may see) before any is checked:
        work that costs less done once for many files (GL402 runs ruff once over every
        example of the batch) is done here and kept on each file (`derived`)."""

    def cache_inputs(self, project: Project) -> list[str]:
        """Files (relative to the root) this rule reads besides the file it checks.

        Their contents go into the result cache's key, so a change to one re-checks
        every file. Reads through `project.read()` / `project.exists()` and files git
        lists that are not Markdown are tracked already; declare what else you read
        (e.g. a snapshot in a git-ignored folder).
        """
        return []

    def finding(
        self,
        file: SourceFile,
        span: Span,
        message: str,
        fix: Fix | None = None,
        severity: Severity | None = None,
    ) -> Finding:
        lines = file.lines
        start = lines.position(span.start)
        end = lines.position(span.end)
        return Finding(
            code=self.code,
            name=self.name,
            severity=severity or self.severity,
            message=message,
            path=file.rel,
            line=start.line,
            column=start.column,
            end_line=end.line,
            end_column=end.column,
            fix=fix,
            # Bounded reads: many findings on one long line must not each copy it.
            snippet=file.text[span.start : min(span.end, span.start + 200)],
            context=_line_context(file, start.line),
        )


# Each line's fingerprint context, once per line: many findings on one long line
# would otherwise each normalise up to CONTEXT_READ characters of it.
_LINE_CONTEXTS: Derived[[], dict[int, str]] = Derived("rule.line-contexts", lambda file: {})


def _line_context(file: SourceFile, line: int) -> str:
    contexts = file.derived(_LINE_CONTEXTS)
    if line not in contexts:
        lines = file.lines
        contexts[line] = normal_context(file.text, lines.offset(line), lines.line_end(line))
    return contexts[line]
