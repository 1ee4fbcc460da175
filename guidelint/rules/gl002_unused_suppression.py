"""GL002 unused-suppression: a guidelint directive that suppressed nothing."""

from __future__ import annotations

from guidelint.findings import Finding, Severity
from guidelint.rule import Rule
from guidelint.sources import SourceFile
from guidelint.spans import Span
from guidelint.suppress import Suppression


class UnusedSuppression(Rule):
    code = "GL002"
    name = "unused-suppression"
    severity = Severity.WARNING
    file_kinds = frozenset()  # produced by the engine after suppressions are applied

    def from_suppression(
        self, file: SourceFile, suppression: Suppression, codes: list[str]
    ) -> Finding:
        what = ", ".join(codes) if codes else "any rule"
        return self.finding(
            file, suppression.span, f"suppression of {what} suppresses nothing; remove it"
        )

    def from_problem(self, file: SourceFile, span: Span, message: str) -> Finding:
        """A directive that cannot suppress anything: a misspelled verb or rule code."""
        return self.finding(file, span, message)
