"""What a check run produced, as every reporter sees it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from guidelint.findings import Finding, Severity
from guidelint.sources import Unreadable, read_bytes
from guidelint.spans import LineIndex

# Excerpts come from files already checked, so under max-file-size; this bounds the
# rest (a GL001 "too large" finding points into a file that must not be read whole).
EXCERPT_MAX_BYTES = 5_000_000


@dataclass
class Report:
    findings: list[Finding]
    root: Path
    files_checked: int
    fixed: dict[str, int] = field(default_factory=dict)  # path -> number of fixes applied
    changes: dict[str, tuple[str, str]] = field(default_factory=dict)  # path -> (before, after)
    notices: list[str] = field(default_factory=list)  # the run's warnings (Project.warn)
    color: bool = False
    show_source: bool = True
    quiet: bool = False  # text: the findings without the summary line
    _source_lines: dict[str, LineIndex | None] = field(default_factory=dict, repr=False)
    _repo: tuple[Path, str] | None = field(default=None, repr=False)

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

    @property
    def repo_root(self) -> Path:
        """The git top level the project lies in (the project root outside git)."""
        return self._repository()[0]

    def repo_path(self, path: str) -> str:
        """A finding's path relative to the repository root, POSIX separators (SARIF
        and GitHub annotations: `check examples/workspace` from the top, or from any
        subfolder, must name the files the way the repository does)."""
        if path.startswith("/"):
            return path
        return self._repository()[1] + path

    def _repository(self) -> tuple[Path, str]:
        if self._repo is None:
            from guidelint.discovery import repository_root

            root = self.root.resolve()
            top = repository_root(root) or root
            try:
                inside = root.relative_to(top).as_posix()
            except ValueError:
                top, inside = root, "."
            self._repo = (top, "" if inside == "." else inside + "/")
        return self._repo

    def utf16_column(self, path: str, line: int, column: int) -> int:
        """A 1-based column in code points as UTF-16 code units (GitHub's and SARIF's
        `utf16CodeUnits`): each character beyond the BMP (an emoji) counts two."""
        text = self.source_line(path, line)[: max(column - 1, 0)]
        wide = sum(1 for char in text if ord(char) > 0xFFFF)
        return column + wide

    def source_line(self, path: str, line: int) -> str:
        """A line of a checked file, for the excerpt under its finding ("" if none)."""
        lines = self._lines(path)
        return lines.line_text(line) if lines is not None else ""

    def _lines(self, path: str) -> LineIndex | None:
        cache = self._source_lines
        if path not in cache:
            # Through the engine's own reader: a file too large to check is not read
            # whole for an excerpt, and lines are split exactly as findings count them.
            try:
                data = read_bytes(self.root / path, EXCERPT_MAX_BYTES)
                cache[path] = LineIndex(data.decode("utf-8-sig"))
            except (Unreadable, UnicodeDecodeError):
                cache[path] = None
        return cache[path]
