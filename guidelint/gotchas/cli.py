"""`guidelint gotcha add|list|find`: author and search gotchas files from a session."""

from __future__ import annotations

import contextlib
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from guidelint.cli_base import fail
from guidelint.config import ConfigError

if TYPE_CHECKING:  # the commands import lazily: `guidelint --help` stays fast
    from guidelint.findings import Finding
    from guidelint.gotchas.authoring import Added, NewEntry
    from guidelint.gotchas.model import Entry
    from guidelint.project import Project
    from guidelint.sources import SourceFile


def _project(config_file: Path | None) -> Project:
    from guidelint.project import Project

    try:
        return Project.load([], config_file)
    except ConfigError as err:
        fail(str(err), 2)


config_option = click.option(
    "--config",
    "config_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Configuration file (default: nearest guidelint.toml or pyproject.toml).",
)
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
    from guidelint.gotchas.authoring import NewEntry, Refusal

    new = NewEntry(headline, body, tuple(provenance), fingerprint, section)
    try:
        added, diff = add_entry(config_file, file_, new, dry_run)
    except ConfigError as err:
        fail(str(err), 2)
    except Refusal as err:
        if fmt == "json":  # the refusal is data for an agent, not only a stderr line
            click.echo(json.dumps({"written": False, "refused": True, "reason": str(err)}))
        fail(f"gotcha not added: {err}", 1)
    _report_added(added, diff, dry_run, fmt)


def add_entry(
    config_file: Path | None, file_: str | None, new: NewEntry, dry_run: bool
) -> tuple[Added, str]:
    """Plan one entry and, unless `dry_run`, write it: the path `gotcha add` and the
    MCP server's `gotcha_add` share. Returns what was added and its diff.

    Raises ConfigError (configuration) or Refusal (one line: why nothing was added).
    """
    from guidelint.fsio import locked
    from guidelint.fixes import unified_diff
    from guidelint.gotchas.add_plan import choose_file, plan_add, read_or_empty
    from guidelint.gotchas.authoring import Refusal
    from guidelint.project import Project

    project = Project.load([], config_file)
    rel = choose_file(project, file_)
    try:
        # Plan and write under one lock, on what is on disk now: of two sessions
        # adding at once, the second plans on the first one's result.
        with contextlib.nullcontext() if dry_run else locked(project.root / rel):
            if not dry_run:
                project = Project.load([], config_file)
            added = plan_add(project, rel, new, lint_files)
            before = {path: read_or_empty(project, path) or "" for path in added.texts}
            diff = unified_diff({path: (before[path], added.texts[path]) for path in before})
            if not dry_run:
                _write(project.root, added.texts)
    except OSError as err:
        raise Refusal(f"{err.filename or rel}: {err.strerror or err}") from None
    return added, diff


def lint_files(project: Project, files: list[SourceFile]) -> list[Finding]:
    """What the engine finds in files that may not be on disk yet (`gotcha add`'s plan)."""
    from guidelint.engine import Engine, build_selection

    engine = Engine(project, build_selection(project.config))
    return [finding for file in files for finding in engine.check_source(file)]


def _write(root: Path, texts: dict[str, str]) -> None:
    from guidelint.fsio import write_atomic

    for rel, text in texts.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)


def added_json(added: Added, diff: str, written: bool) -> dict[str, Any]:
    """`gotcha add --format json`'s object (also the MCP `gotcha_add` result)."""
    return {
        "file": added.rel,
        "line": added.line,
        "anchor": added.anchor,
        "entries": added.entries,
        "row_cap": added.row_cap,
        "written": written,
        "changed": sorted(added.texts),
        "diff": diff,
        "warnings": [f"{f.path}:{f.line}: {f.code} {f.message}" for f in added.warnings],
    }


def _report_added(added: Added, diff: str, dry_run: bool, fmt: str) -> None:
    if fmt == "json":
        click.echo(json.dumps(added_json(added, diff, not dry_run), indent=2))
        return
    if dry_run:
        click.echo(diff, nl=False)
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


def entries(project: Project, file_: str | None) -> list[tuple[str, Entry]]:
    """(rel, entry) for every entry of the chosen or configured gotchas files.

    Raises Refusal (one line) for a file that cannot be read or does not exist.
    """
    from guidelint.gotchas import files as gfiles
    from guidelint.gotchas.add_plan import read_or_empty
    from guidelint.gotchas.authoring import Refusal
    from guidelint.gotchas.parse import parse_gotchas

    rels = [file_] if file_ else gfiles.gotchas_files(project)
    heading = project.config.gotchas.index_heading
    found: list[tuple[str, Entry]] = []
    for rel in rels:
        text = read_or_empty(project, rel)
        if text is None:
            raise Refusal(f"{rel}: no such file")
        found += [(rel, entry) for entry in parse_gotchas(text, heading).entries]
    return found


def _entries_or_fail(project: Project, file_: str | None) -> list[tuple[str, Entry]]:
    from guidelint.gotchas.authoring import Refusal

    try:
        return entries(project, file_)
    except Refusal as err:
        fail(str(err), 2)


def entry_json(rel: str, entry: Entry) -> dict[str, Any]:
    return {
        "file": rel,
        "line": entry.line,
        "number": entry.number,
        "anchor": entry.anchor,
        "headline": entry.headline,
        "section": entry.section,
        "issues": list(entry.issues),
        "fingerprint": entry.fingerprint,
        "chars": len(entry.text.replace("\r", "")),
    }


@gotcha.command("list")
@file_option
@format_option
@config_option
def list_entries(file_: str | None, fmt: str, config_file: Path | None) -> None:
    """List the entries: file:line, provenance and headline."""
    project = _project(config_file)
    rows = _entries_or_fail(project, file_)
    if fmt == "json":
        click.echo(json.dumps([entry_json(rel, e) for rel, e in rows], indent=2))
        return
    for rel, entry in rows:
        issues = ",".join(entry.issues) or "-"
        click.echo(f"{rel}:{entry.line}: {issues}  {entry.headline}")


@gotcha.command("find")
@click.argument("pattern")
@click.option("--count", "-c", is_flag=True, help="Print only the number of matching entries.")
@file_option
@format_option
@config_option
def find(pattern: str, count: bool, file_: str | None, fmt: str, config_file: Path | None) -> None:
    """Entries matching PATTERN (a case-insensitive regex), like `grep -in`; exit 1 if none."""
    try:
        regex = re.compile(pattern, re.IGNORECASE)
    except re.error as err:
        fail(f"PATTERN is not a valid regular expression: {err}", 2)
    project = _project(config_file)
    hits = [(rel, e) for rel, e in _entries_or_fail(project, file_) if regex.search(e.text)]
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "pattern": pattern,
                    "count": len(hits),
                    "entries": [entry_json(rel, e) for rel, e in hits],
                },
                indent=2,
            )
        )
    elif count:
        click.echo(len(hits))
    else:
        for rel, entry in hits:
            click.echo(f"{rel}:{entry.line}: {entry.headline}")
        click.echo(f"{len(hits)} matching entr{'y' if len(hits) == 1 else 'ies'}", err=True)
    sys.exit(0 if hits else 1)
