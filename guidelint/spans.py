"""Character offsets are the truth; 1-based line/column come from one LineIndex."""

from __future__ import annotations

import bisect
import re
from itertools import accumulate

from guidelint.records import FrozenRecord


class Position(FrozenRecord):
    __slots__ = ("line", "column")
    line: int  # 1-based
    column: int  # 1-based, in characters

    def __init__(self, line: int, column: int) -> None:
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "column", column)


_LINE_BREAK = re.compile(r"\r\n?|\n")


class LineIndex:
    """Maps character offsets of a text to 1-based (line, column) and back.

    A line ends at `\r\n`, `\n` or a lone `\r`, as CommonMark (and Python's universal
    newlines) have it: markdown-it's line numbers and ours must never disagree.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        if "\r" not in text:
            # Each line starts one past the previous line's end (all in C: runs per file).
            lengths = map(len, text.split("\n")[:-1])
            self.line_starts = list(accumulate(map((1).__add__, lengths), initial=0))
        else:
            self.line_starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]

    @property
    def line_count(self) -> int:
        return len(self.line_starts)

    def position(self, offset: int) -> Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return Position(line + 1, offset - self.line_starts[line] + 1)

    def offset(self, line: int, column: int = 1) -> int:
        """Offset of a 1-based line/column, clamped into the text."""
        line = max(1, min(line, len(self.line_starts)))
        return min(self.line_starts[line - 1] + column - 1, len(self.text))

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its line ending."""
        if line < 1 or line > len(self.line_starts):
            return ""
        return self.text[self.line_starts[line - 1] : self.line_end(line)]

    def line_end(self, line: int) -> int:
        """Offset just past the last character of a line (before its line ending);
        no slicing, so asking for every cell of a huge table row stays linear."""
        line = max(1, min(line, len(self.line_starts)))
        if line == len(self.line_starts):
            return len(self.text)
        end = self.line_starts[line]
        return end - (2 if self.text.startswith("\r\n", max(0, end - 2)) else 1)


class Span(FrozenRecord):
    """A half-open range [start, end) of character offsets in one text."""

    __slots__ = ("start", "end")
    start: int
    end: int

    def __init__(self, start: int, end: int) -> None:
        if end < start:
            raise ValueError(f"span end {end} before start {start}")
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)


def line_around(text: str, start: int, end: int, before: int, after: int) -> tuple[str, str]:
    """At most `before` characters of the line before [start, end) and `after` after
    it: read from a window, never the whole line (a long line of many spans would be
    read once per span)."""
    head_from = max(0, start - before)
    head = text[max(text.rfind("\n", head_from, start) + 1, head_from) : start]
    tail_to = min(len(text), end + after)
    tail_end = text.find("\n", end, tail_to)
    return head, text[end : tail_end if tail_end >= 0 else tail_to]
