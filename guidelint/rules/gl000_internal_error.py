"""GL000 internal-error: a rule crashed on a file; the run goes on without it."""

from __future__ import annotations

from guidelint.findings import Finding, Severity
from guidelint.rule import Rule
from guidelint.sources import SourceFile
from guidelint.spans import Span


class InternalError(Rule):
    code = "GL000"
    name = "internal-error"
    severity = Severity.ERROR
    file_kinds = frozenset()  # produced by the engine, never run as a check

    def from_exception(self, file: SourceFile, rule_code: str, error: BaseException) -> Finding:
        detail = f"{type(error).__name__}: {_described(error)}".strip()
        return self.finding(
            file, Span(0, 0), f"rule {rule_code} failed on this file ({detail}); please report it"
        )


def _described(error: BaseException) -> str:
    """The error's own words, in one bounded line; an error whose str() itself fails
    (libcst's recursive KeyError repr does) must not take the run down."""
    try:
        text = str(error)
    except Exception:  # noqa: BLE001 - any failure here is reported as such
        return "(its message could not be shown)"
    text = " ".join(text.split())
    return text if len(text) <= 300 else text[:297] + "..."
