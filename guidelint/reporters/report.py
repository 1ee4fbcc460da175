"""What a check run produced, as every reporter sees it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from guidelint.findings import Finding, Severity


@dataclass
class Report:
    findings: list[Finding]
    root: Path
    files_checked: int
    fixed: dict[str, int] = field(default_factory=dict)  # path -> number of fixes applied
    notices: list[str] = field(default_factory=list)  # the run's warnings (Project.warn)
    color: bool = False
    show_source: bool = True
    _source_lines: dict[str, list[str]] = field(default_factory=dict, repr=False)

    @property
    def errors(self) -> int:
        return sum(f.severity is Severity.ERROR for f in self.findings)

    @property
    def warnings(self) -> int:
        return sum(f.severity is Severity.WARNING for f in self.findings)

    def summary(self) -> dict[str, int]:
        return {
            "files_checked": self.files_checked,
            "findings": len(self.findings),
            "errors": self.errors,
            "warnings": self.warnings,
            "fixable": sum(f.fix is not None and f.fix.safe for f in self.findings),
            "unsafe_fixable": sum(f.fix is not None and not f.fix.safe for f in self.findings),
            "fixed": sum(self.fixed.values()),
        }

    def source_line(self, path: str, line: int) -> str:
        lines = self._lines(path)
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def _lines(self, path: str) -> list[str]:
        cache = self._source_lines
        if path not in cache:
            try:
                text = (self.root / path).read_text(encoding="utf-8-sig")
                cache[path] = text.splitlines()
            except (OSError, UnicodeDecodeError):
                cache[path] = []
        return cache[path]
