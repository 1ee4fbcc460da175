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
# A finding's excerpt shows at most this many characters of its line, around the span
# (a one-line 200 KB .mcp.json would otherwise print the whole line per finding).
EXCERPT_WIDTH = 160
EXCERPT_BEFORE = 40  # characters shown before the span, when the line is cut
ELLIPSIS = "…"


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
    # The last line read, and where its characters beyond the BMP are: findings come
    # sorted, so the many findings of one long line read it (and scan it) once.
    _line: tuple[str, int, str, list[int]] | None = field(default=None, repr=False)
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
        import bisect

        wide = self._read_line(path, line)[1]
        return column + bisect.bisect_left(wide, max(column - 1, 0))

    def source_line(self, path: str, line: int) -> str:
        """A line of a checked file, for the excerpt under its finding ("" if none)."""
        return self._read_line(path, line)[0]

    def excerpt(self, path: str, line: int, start: int, end: int) -> tuple[str, int, int]:
        """At most EXCERPT_WIDTH characters of a line around columns [start, end)
        (1-based), marked with an ellipsis where cut: (text, start, end) in it."""
        source = self.source_line(path, line)
        if len(source) <= EXCERPT_WIDTH:
            return source, start, end
        first = max(0, min(start - 1 - EXCERPT_BEFORE, len(source) - EXCERPT_WIDTH))
        last = first + EXCERPT_WIDTH
        head = ELLIPSIS if first else ""
        tail = ELLIPSIS if last < len(source) else ""
        shift = first - len(head)
        window = head + source[first:last] + tail
        inside = len(head) + EXCERPT_WIDTH  # the caret stops where the window does
        return window, start - shift, min(end - shift, inside + 1)

    def _read_line(self, path: str, line: int) -> tuple[str, list[int]]:
        if self._line is None or self._line[:2] != (path, line):
            lines = self._lines(path)
            text = lines.line_text(line) if lines is not None else ""
            wide = [] if text.isascii() else [i for i, c in enumerate(text) if ord(c) > 0xFFFF]
            self._line = (path, line, text, wide)
        return self._line[2], self._line[3]

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
