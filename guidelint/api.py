"""The Python API: what `guidelint check` does, as a function returning findings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from guidelint.check import CheckOptions, run_check
from guidelint.findings import Finding
from guidelint.reporters import Report

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile


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


def report(
    *paths: str | Path,
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    since: str | None = None,
    config: str | Path | None = None,
    live: bool | None = None,
    fix: bool = False,
    unsafe_fixes: bool = False,
    dry_run: bool = False,
) -> Report:
    """Like check(), but the whole report: findings, summary counts, fixes applied, notes.

    With `fix`, safe fixes (and unsafe ones with `unsafe_fixes`) are written in place,
    as `guidelint check --fix` does; with `dry_run` too, nothing is written and
    `Report.changes` holds each file's text before and after. Raises ConfigError for
    a usage or configuration problem (a bad `since` revision included).
    """
    options = CheckOptions(
        paths=[Path(p) for p in paths],
        config_file=Path(config) if config else None,
        select=select,
        ignore=list(ignore or []),
        since=since,
        live=live,
        fix=fix or unsafe_fixes,
        unsafe_fixes=unsafe_fixes,
        dry_run=dry_run,
    )
    return run_check(options)


def lint_files(project: Project, files: list[SourceFile]) -> list[Finding]:
    """What the rules selected in `project` find in files that may not be on disk yet
    (the `gotcha add` plan's texts): the engine's work, passed into the gotchas pillar."""
    from guidelint.engine import Engine, build_selection

    engine = Engine(project, build_selection(project.config))
    return [finding for file in files for finding in engine.check_source(file)]
