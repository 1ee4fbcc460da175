"""The value types every stage shares: severities, edits, fixes, findings."""

from __future__ import annotations

import enum

from guidelint.records import FrozenRecord


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"


class Edit(FrozenRecord):
    """Replace text[start:end] with `content` (character offsets)."""

    __slots__ = ("start", "end", "content")
    start: int
    end: int
    content: str

    def __init__(self, start: int, end: int, content: str) -> None:
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "content", content)


class Fix(FrozenRecord):
    __slots__ = ("edits", "description", "safe")
    edits: tuple[Edit, ...]
    description: str
    safe: bool

    def __init__(self, edits: tuple[Edit, ...], description: str = "", safe: bool = True) -> None:
        object.__setattr__(self, "edits", edits)
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "safe", safe)


class Finding(FrozenRecord):
    __slots__ = (
        "code",
        "name",
        "severity",
        "message",
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "fix",
        "snippet",
        "context",
    )
    _no_compare = ("snippet", "context")
    code: str
    name: str
    severity: Severity
    message: str
    path: str  # relative to the project root, POSIX separators
    line: int
    column: int
    end_line: int
    end_column: int
    fix: Fix | None
    # The text the finding points at, and its line's text with whitespace runs
    # made one space: the fingerprint's basis, so findings survive line shifts.
    snippet: str
    context: str

    def __init__(
        self,
        code: str,
        name: str,
        severity: Severity,
        message: str,
        path: str,
        line: int,
        column: int,
        end_line: int,
        end_column: int,
        fix: Fix | None = None,
        snippet: str = "",
        context: str = "",
    ) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "severity", severity)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "end_line", end_line)
        object.__setattr__(self, "end_column", end_column)
        object.__setattr__(self, "fix", fix)
        object.__setattr__(self, "snippet", snippet)
        object.__setattr__(self, "context", context)

    @property
    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code, self.message)

    def fingerprint(self) -> str:
        """Stable identity: the rule, the path, the flagged text and its line's text.

        Never the message: a did-you-mean that changes when a server gains a tool
        must not make a baselined finding new; nor the line number.
        """
        basis = "\0".join((self.code, self.path, self.snippet.strip(), self.context))
        return _digest(basis)

    def message_fingerprint(self) -> str:
        """The identity of baseline format 1 (it held the message), for old baselines."""
        return _digest("\0".join((self.code, self.path, self.message, self.snippet.strip())))


def normal_context(line: str) -> str:
    """A line's text as a fingerprint sees it: whitespace runs one space, capped."""
    return " ".join(line.split())[:300]


def _digest(basis: str) -> str:
    import hashlib  # only for JSON, SARIF and baselines: a text report of one file needs none

    return hashlib.sha256(basis.encode("utf-8", "surrogatepass")).hexdigest()[:20]
