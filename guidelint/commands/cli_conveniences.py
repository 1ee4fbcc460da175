"""`guidelint check --diff`, `--stdin-filename` and `--watch`, as ruff has them.

The command (guidelint/commands/cli.py) runs the check and hands the report here: only the
CLI and the API import guidelint.check.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from guidelint.reporters import Report


def show_diff(report: Report) -> int:
    """Print the fixes as diffs, write nothing; exit 1 when there is something to fix."""
    from guidelint.fixes import unified_diff

    diff = unified_diff(report.changes)
    click.echo(diff, nl=False)
    count = sum(report.fixed.values())
    files = sum(1 for before, after in report.changes.values() if before != after)
    click.echo(f"Would fix {count} finding(s) in {files} file(s).", err=True)
    return 1 if diff else 0


def read_stdin(filename: Path) -> tuple[Path, str]:
    """`--stdin-filename`: the text on stdin, as if it were that file."""
    from guidelint.commands.cli_base import fail

    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        fail(f"{filename}: stdin is not valid UTF-8 (byte {error.start})")
    return filename, text.removeprefix("\ufeff")


def print_fixed_stdin(report: Report) -> int:
    """`--stdin-filename --fix`: the fixed text on stdout (as ruff does), what is left
    on stderr; exit 1 when findings remain."""
    ((_, after),) = report.changes.values()
    click.echo(after, nl=False)
    for finding in report.findings:
        click.echo(
            f"{finding.path}:{finding.line}:{finding.column}: {finding.code} {finding.message}",
            err=True,
        )
    return 1 if report.errors else 0


def watch(paths: list[Path], config_file: Path | None, once: Callable[[], None]) -> None:
    """Check, then check again each time a file of the project changes (Ctrl-C stops)."""
    from guidelint.commands.cli_base import fail
    from guidelint.extras import install_hint
    from guidelint.project import Project

    try:
        import watchfiles
    except ImportError as error:
        fail(install_hint(error, "watch", "--watch"))
    project = Project.load(paths, config_file)
    cache_dir = (project.root / project.config.cache_dir).resolve()

    def wanted(change: object, path: str) -> bool:
        resolved = Path(path).resolve()
        return ".git" not in resolved.parts and not resolved.is_relative_to(cache_dir)

    once()
    try:
        # yield_on_timeout: the first (empty) yield says the watcher is running, so a
        # change made after "watching" is seen.
        announced = False
        for changes in watchfiles.watch(
            project.root,
            watch_filter=wanted,
            debounce=300,
            rust_timeout=500,
            yield_on_timeout=True,
        ):
            if not changes:
                if not announced:
                    click.echo(f"guidelint: watching {project.root} (Ctrl-C stops)", err=True)
                    announced = True
                continue
            names = sorted({Path(path).name for _, path in changes})
            click.echo(f"guidelint: changed: {', '.join(names[:5])}; checking again", err=True)
            once()
    except KeyboardInterrupt:
        pass


def run_once(invoke: Callable[[], None]) -> None:
    """One check of a --watch loop: its exit is not the loop's."""
    try:
        invoke()
    except SystemExit:
        pass
    sys.stdout.flush()
    sys.stderr.flush()
