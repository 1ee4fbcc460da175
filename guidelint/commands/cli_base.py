"""What every command of the CLI shares: one-line errors and warnings on stderr, and
the options several commands take, declared once."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click

# `--config FILE` of every command that reads the configuration (the value: config_file).
config_option = click.option(
    "--config",
    "config_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Configuration file (default: nearest guidelint.toml or pyproject.toml).",
)


def fail(message: str, code: int = 2) -> NoReturn:
    """One clear line on stderr, then exit (2: a usage or configuration error)."""
    click.echo(f"guidelint: error: {message}", err=True)
    sys.exit(code)


def warn(message: str) -> None:
    click.echo(f"guidelint: warning: {message}", err=True)


def warn_all(messages: list[str]) -> None:
    """The notes a run collected (Project.warnings), one line each."""
    for message in messages:
        warn(message)
