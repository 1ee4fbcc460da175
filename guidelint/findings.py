"""The value types every stage shares: severities, edits, fixes, findings."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace text[start:end] with `content` (character offsets)."""

    start: int
    end: int
    content: str


@dataclass(frozen=True, slots=True)
class Fix:
    edits: tuple[Edit, ...]
    description: str = ""
    safe: bool = True


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    name: str
    severity: Severity
    message: str
    path: str  # relative to the project root, POSIX separators
    line: int
    column: int
    end_line: int
    end_column: int
    fix: Fix | None = None
    # The text the finding points at, and its line's text with whitespace runs
    # made one space: the fingerprint's basis, so findings survive line shifts.
    snippet: str = field(default="", compare=False)
    context: str = field(default="", compare=False)

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
