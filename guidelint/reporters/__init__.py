"""Reporters turn collected findings into text, JSON, GitHub annotations or SARIF."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from guidelint.findings import Finding, Severity

FORMATS = ("text", "json", "github", "sarif")


@dataclass
class Report:
    findings: list[Finding]
    root: Path
    files_checked: int
    fixed: dict[str, int] = field(default_factory=dict)  # path -> number of fixes applied
    notices: list[str] = field(default_factory=list)  # the run's warnings (Project.warn)
    color: bool = False
    show_source: bool = True

    @property
    def errors(self) -> int:
        return sum(f.severity is Severity.ERROR for f in self.findings)

    @property
    def warnings(self) -> int:
        return sum(f.severity is Severity.WARNING for f in self.findings)

    def summary(self) -> dict:
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
        cache = self.__dict__.setdefault("_line_cache", {})
        if path not in cache:
            try:
                text = (self.root / path).read_text(encoding="utf-8-sig")
                cache[path] = text.splitlines()
            except (OSError, UnicodeDecodeError):
                cache[path] = []
        return cache[path]


def renderer(fmt: str) -> Callable[[Report], str]:
    from guidelint.reporters import github, json_report, sarif, text

    return {
        "text": text.render,
        "json": json_report.render,
        "github": github.render,
        "sarif": sarif.render,
    }[fmt]
