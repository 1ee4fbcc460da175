"""The value types every stage shares: severities, edits, fixes, findings."""

from __future__ import annotations

import enum
import hashlib
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
    # The text the finding points at; feeds the baseline fingerprint so that
    # findings survive unrelated line shifts.
    snippet: str = field(default="", compare=False)

    @property
    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code, self.message)

    def fingerprint(self) -> str:
        """Stable identity that ignores where in the file the finding sits."""
        basis = "\0".join((self.code, self.path, self.message, self.snippet.strip()))
        return hashlib.sha256(basis.encode("utf-8", "surrogatepass")).hexdigest()[:20]
