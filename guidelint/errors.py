"""The one exception every layer may raise for a usage problem, importable for nothing.

It lives apart from `guidelint.config` so that the CLI can catch it without importing
pydantic and the configuration models (`guidelint --version` must not pay for them).
"""

from __future__ import annotations


class ConfigError(Exception):
    """A usage or configuration problem: one line, exit code 2."""
