"""Why a driver's value cannot be followed statically (GL304 says it), shared by the
evaluator, the config reader and the module reader."""

from __future__ import annotations


class Unfollowed(Exception):
    """A value the check cannot follow statically; the message says which and why."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.line = reason, line


class Guarded(Unfollowed):
    """A value that guidelint.smoke.require_floor (or dial) decides at run time."""


class ConfigUnfollowed(Unfollowed):
    """A config file the driver loads that is not read: outside the root, missing, unparsable."""
