"""`guidelint gotcha add|list|find`: author and search gotchas files from a session
(over gotchas/service.py)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from guidelint.commands.cli_base import config_option, fail
from guidelint.config import ConfigError

if TYPE_CHECKING:  # the commands import lazily: `guidelint --help` stays fast
    from guidelint.gotchas.service import AddResult, FoundEntry
    from guidelint.project import Project


def _project(config_file: Path | None) -> Project:
    from guidelint.project import Project

    try:
        return Project.load([], config_file)
    except ConfigError as err:
        fail(str(err), 2)


file_option = click.option(
    "--file", "file_", metavar="PATH", help="The gotchas file (default: the configured one)."
)
format_option = click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)


@click.group("gotcha")
def gotcha() -> None:
    """Add, list and find entries of the gotchas file."""


@gotcha.command("add")
@click.option("--headline", required=True, help="The lesson in one sentence (bold in the file).")
@click.option("--body", required=True, help="What happened and what to do instead.")
@click.option("--provenance", required=True, multiple=True, help="Issue ids, e.g. '#1489'.")
@click.option("--fingerprint", help="Hex id of the incident; a repeat is refused.")
@click.option("--section", help="The `##` section to add the entry to (created if missing).")
@click.option("--dry-run", is_flag=True, help="Print the diff; write nothing.")
@file_option
@format_option
@config_option
def add(
    headline: str,
    body: str,
    provenance: tuple[str, ...],
    fingerprint: str | None,
    section: str | None,
    dry_run: bool,
    file_: str | None,
    fmt: str,
    config_file: Path | None,
) -> None:
    """Append a well-formed entry and its index row, atomically."""
    from guidelint.api import lint_files
    from guidelint.gotchas import service
    from guidelint.gotchas.authoring import NewEntry, Refusal

    new = NewEntry(headline, body, tuple(provenance), fingerprint, section)
    try:
        result = service.add(config_file, file_, new, dry_run, lint_files)
    except ConfigError as err:
        fail(str(err), 2)
    except Refusal as err:
        if fmt == "json":  # the refusal is data for an agent, not only a stderr line
            click.echo(json.dumps({"written": False, "refused": True, "reason": str(err)}))
        fail(f"gotcha not added: {err}", 1)
    _report_added(result, fmt)


def _report_added(result: AddResult, fmt: str) -> None:
    if fmt == "json":
        click.echo(json.dumps(result.as_json(), indent=2))
        return
    added, dry_run = result.added, not result.written
    if dry_run:
        click.echo(result.diff, nl=False)
    for warning in added.warnings:
        click.echo(
            f"warning: {warning.path}:{warning.line}: {warning.code} {warning.message}", err=True
        )
    cap = f" of cap {added.row_cap}" if added.row_cap else ""
    verb = "would add" if dry_run else "added"
    click.echo(
        f"{verb} entry {added.entries}{cap} at {added.rel}:{added.line} (#{added.anchor})",
        err=dry_run,
    )


def _entries_or_fail(project: Project, file_: str | None) -> list[FoundEntry]:
    from guidelint.gotchas import service
    from guidelint.gotchas.authoring import Refusal

    try:
        return service.entries(project, file_)
    except Refusal as err:
        fail(str(err), 2)


@gotcha.command("list")
@file_option
@format_option
@config_option
def list_entries(file_: str | None, fmt: str, config_file: Path | None) -> None:
    """List the entries: file:line, provenance and headline."""
    project = _project(config_file)
    found = _entries_or_fail(project, file_)
    if fmt == "json":
        click.echo(json.dumps([hit.as_json() for hit in found], indent=2))
        return
    for hit in found:
        issues = ",".join(hit.entry.issues) or "-"
        click.echo(f"{hit.rel}:{hit.entry.line}: {issues}  {hit.entry.headline}")


@gotcha.command("find")
@click.argument("pattern")
@click.option("--count", "-c", is_flag=True, help="Print only the number of matching entries.")
@file_option
@format_option
@config_option
def find(pattern: str, count: bool, file_: str | None, fmt: str, config_file: Path | None) -> None:
    """Entries matching PATTERN (a case-insensitive regex), like `grep -in`; exit 1 if none."""
    from guidelint.gotchas import service
    from guidelint.gotchas.authoring import Refusal

    try:
        service.compile_pattern(pattern)
    except re.error as err:
        fail(f"PATTERN is not a valid regular expression: {err}", 2)
    project = _project(config_file)
    try:
        result = service.find(project, pattern, file_)
    except Refusal as err:
        fail(str(err), 2)
    hits = result.hits
    if fmt == "json":
        click.echo(json.dumps(result.as_json(), indent=2))
    elif count:
        click.echo(len(hits))
    else:
        for hit in hits:
            click.echo(hit.evidence())
        click.echo(f"{len(hits)} matching entr{'y' if len(hits) == 1 else 'ies'}", err=True)
    sys.exit(0 if hits else 1)
