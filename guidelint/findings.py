"""The value types every stage shares: severities, edits, fixes, findings."""

from __future__ import annotations

import enum
from typing import Any

from guidelint.printable import encodable
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

    def as_json(self) -> dict[str, Any]:
        return {
            "description": self.description,
            "safe": self.safe,
            "edits": [{"start": e.start, "end": e.end, "content": e.content} for e in self.edits],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fix:
        edits = data["edits"]
        return cls(
            edits=tuple(Edit(int(e["start"]), int(e["end"]), str(e["content"])) for e in edits),
            description=str(data["description"]),
            safe=bool(data["safe"]),
        )


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

    # -- the one JSON codec: the report (docs/OUTPUT.md), the MCP tools and the cache

    def as_json(self, *, stored: bool = False) -> dict[str, Any]:
        """The finding as a JSON object of the report schema (docs/OUTPUT.md).

        `stored` (the result cache): the fingerprint's basis (snippet, context) in place
        of the fingerprint, and the path as held, so `from_json` gives back an equal
        finding; a report writes the fingerprint, and the path printable.
        """
        data: dict[str, Any] = {
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "message": self.message,
            "path": self.path if stored else encodable(self.path),
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "fix": None if self.fix is None else self.fix.as_json(),
        }
        if stored:
            data["snippet"] = self.snippet
            data["context"] = self.context
        else:
            data["fingerprint"] = self.fingerprint()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        """A finding from `as_json(stored=True)`; KeyError/TypeError/ValueError on
        anything malformed."""
        fix = data["fix"]
        return cls(
            code=str(data["code"]),
            name=str(data["name"]),
            severity=Severity(data["severity"]),
            message=str(data["message"]),
            path=str(data["path"]),
            line=int(data["line"]),
            column=int(data["column"]),
            end_line=int(data["end_line"]),
            end_column=int(data["end_column"]),
            fix=None if fix is None else Fix.from_json(fix),
            snippet=str(data["snippet"]),
            context=str(data["context"]),
        )


CONTEXT_CHARS = 300
CONTEXT_READ = 4096  # enough of a line for 300 characters but in odd whitespace


def normal_context(text: str, start: int = 0, end: int | None = None) -> str:
    """A line's text (`text[start:end]`) as a fingerprint sees it: whitespace runs one
    space, capped. Reads a bounded head of the line: the normalized head of a line is
    a prefix of the normalized line, so once it is long enough it decides."""
    end = len(text) if end is None else end
    head = " ".join(text[start : min(end, start + CONTEXT_READ)].split())
    if len(head) < CONTEXT_CHARS and end > start + CONTEXT_READ:
        head = " ".join(text[start:end].split())  # a line of whitespace runs: all of it
    return head[:CONTEXT_CHARS]


def _digest(basis: str) -> str:
    import hashlib  # only for JSON, SARIF and baselines: a text report of one file needs none

    return hashlib.sha256(basis.encode("utf-8", "surrogatepass")).hexdigest()[:20]
