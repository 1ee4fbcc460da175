"""What happened to each example: a named outcome, never a bare bool."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Outcome(str, enum.Enum):
    PASSED = "passed"
    FAILED = "failed"  # ran, but its output or expected error did not match
    ERROR = "error"  # raised, or cannot run (syntax error, unterminated fence)
    TIMEOUT = "timeout"  # killed (with its process group) after its timeout
    CRASHED = "crashed"  # died: signal, os._exit, memory or output limit
    MISSING_DEPENDENCY = "missing-dependency"  # an import or a `needs=` is unavailable
    # a hub model no tiny stand-in of its own class can be built for (diffusers backend)
    UNSUPPORTED_MODEL = "unsupported-model"
    # guidelint could not build a stand-in it needed: its own fault, not the example's
    BUILD_FAILED = "build-failed"
    # the sandbox refused a write outside the scratch folder or a system call: the
    # message names the path or call and the example's line
    REFUSED = "refused"
    SKIPPED = "skipped"
    PENDING_PASSED = "pending-passed"
    PENDING_FAILED = "pending-failed"

    @property
    def ok(self) -> bool:
        """Does this outcome let `guidelint run` exit 0?"""
        return self in OK_OUTCOMES


OK_OUTCOMES = frozenset(
    {Outcome.PASSED, Outcome.SKIPPED, Outcome.PENDING_PASSED, Outcome.PENDING_FAILED}
)


@dataclass
class ExampleResult:
    id: str
    path: str
    line: int
    status: Outcome
    duration_s: float = 0.0
    message: str = ""
    stdout: str = ""
    substitutions: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)  # copied into the report folder
    pipelines: list[str] = field(default_factory=list)  # diffusers pipeline classes it built
    pending: bool = False
    details: str = ""  # traceback or stderr, for the text report
    source: str = ""  # the example's code, for the HTML report (not in the JSON)
    source_line: int = 0  # the Markdown line of the code's first line

    def as_json(self) -> dict:
        """The versioned report's entry (docs/RUNNING.md, schema version 2)."""
        return {
            "id": self.id,
            "path": self.path,
            "line": self.line,
            "status": self.status.value,
            "duration_s": round(self.duration_s, 4),
            "message": self.message,
            "stdout": self.stdout,
            "substitutions": list(self.substitutions),
            "images": [str(image) for image in self.images],
            "pipelines": list(self.pipelines),
        }


def settle_pending(status: Outcome) -> Outcome:
    """A pending example's outcome: did it pass or not."""
    if status is Outcome.SKIPPED:
        return status
    return Outcome.PENDING_PASSED if status is Outcome.PASSED else Outcome.PENDING_FAILED
