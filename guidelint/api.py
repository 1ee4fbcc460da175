"""The Python API: what `guidelint check` does, as a function returning findings."""

from __future__ import annotations

from pathlib import Path

from guidelint.check import CheckOptions, run_check
from guidelint.findings import Finding


def check(
    *paths: str | Path,
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    config: str | Path | None = None,
    live: bool | None = None,
) -> list[Finding]:
    """Check files or folders like `guidelint check` and return the findings, sorted.

    Raises guidelint.config.ConfigError for a usage or configuration problem.
    """
    options = CheckOptions(
        paths=[Path(p) for p in paths],
        config_file=Path(config) if config else None,
        select=select,
        ignore=list(ignore or []),
        live=live,
    )
    return run_check(options).findings
