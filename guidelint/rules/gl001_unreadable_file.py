"""GL001 unreadable-file: binary, not UTF-8, unreadable or too large to check."""

from __future__ import annotations

from guidelint.findings import Finding, Severity
from guidelint.rule import Rule
from guidelint.sources import Unreadable


class UnreadableFile(Rule):
    code = "GL001"
    name = "unreadable-file"
    severity = Severity.ERROR
    file_kinds = frozenset()  # produced by the engine when loading fails

    def from_error(self, rel: str, error: Unreadable) -> Finding:
        return Finding(
            code=self.code,
            name=self.name,
            severity=self.severity,
            message=error.message,
            path=rel,
            line=error.line,
            column=error.column,
            end_line=error.line,
            end_column=error.column,
        )
