"""The gotchas pillar's face: list, find and add entries, and the workflow surface.

Typed values in, typed values out, each with the `as_json()` its commands print with
`--format json` (the CLI in guidelint/commands/gotcha.py and the MCP tools both call
these). Nothing here runs rules itself: the engine sits above the pillar, so a door
passes in how to lint (`add_plan.Lint`).
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from guidelint.globs import Globs

if TYPE_CHECKING:
    from guidelint.gotchas.add_plan import Lint
    from guidelint.gotchas.authoring import Added, NewEntry
    from guidelint.gotchas.model import Entry
    from guidelint.project import Project


@dataclass(frozen=True)
class FoundEntry:
    """One entry of a gotchas file, and the file (relative to the root)."""

    rel: str
    entry: Entry

    def as_json(self) -> dict[str, Any]:
        entry = self.entry
        return {
            "file": self.rel,
            "line": entry.line,
            "number": entry.number,
            "anchor": entry.anchor,
            "headline": entry.headline,
            "section": entry.section,
            "issues": list(entry.issues),
            "fingerprint": entry.fingerprint,
            "chars": len(entry.text.replace("\r", "")),
        }

    def evidence(self) -> str:
        """`file:line: headline`, as `grep -in` would cite it."""
        return f"{self.rel}:{self.entry.line}: {self.entry.headline}"


@dataclass(frozen=True)
class FindResult:
    """The entries a pattern matches (`gotcha find`)."""

    pattern: str
    hits: list[FoundEntry]

    def as_json(self) -> dict[str, Any]:
        return {
            "pattern": self.pattern,
            "count": len(self.hits),
            "entries": [hit.as_json() for hit in self.hits],
        }


@dataclass(frozen=True)
class AddResult:
    """What `gotcha add` added (or would add, unwritten) and the diff of it."""

    added: Added
    diff: str
    written: bool

    def as_json(self) -> dict[str, Any]:
        added = self.added
        return {
            "file": added.rel,
            "line": added.line,
            "anchor": added.anchor,
            "entries": added.entries,
            "row_cap": added.row_cap,
            "written": self.written,
            "changed": sorted(added.texts),
            "diff": self.diff,
            "warnings": [f"{f.path}:{f.line}: {f.code} {f.message}" for f in added.warnings],
        }


@dataclass(frozen=True)
class SurfaceResult:
    """The files changed since `base`, and those outside the workflow surface."""

    base: str
    changed: list[str]
    outside: list[str]
    surface: list[str]

    def as_json(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "changed": self.changed,
            "outside": self.outside,
            "surface": self.surface,
        }


def entries(project: Project, file_: str | None) -> list[FoundEntry]:
    """Every entry of the chosen or configured gotchas files.

    Raises Refusal (one line) for a file that cannot be read or does not exist.
    """
    from guidelint.gotchas import files as gfiles
    from guidelint.gotchas.add_plan import read_or_empty
    from guidelint.gotchas.authoring import Refusal
    from guidelint.gotchas.parse import parse_gotchas

    rels = [file_] if file_ else gfiles.gotchas_files(project)
    heading = project.config.gotchas.index_heading
    found: list[FoundEntry] = []
    for rel in rels:
        text = read_or_empty(project, rel)
        if text is None:
            raise Refusal(f"{rel}: no such file")
        found += [FoundEntry(rel, entry) for entry in parse_gotchas(text, heading).entries]
    return found


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """The case-insensitive regular expression `gotcha find` searches with.

    Raises re.error for a pattern that is not one.
    """
    return re.compile(pattern, re.IGNORECASE)


def find(project: Project, pattern: str, file_: str | None) -> FindResult:
    """The entries whose text the pattern matches. Raises re.error or Refusal."""
    regex = compile_pattern(pattern)
    return FindResult(
        pattern, [hit for hit in entries(project, file_) if regex.search(hit.entry.text)]
    )


def add(
    config_file: Path | None, file_: str | None, new: NewEntry, dry_run: bool, lint: Lint
) -> AddResult:
    """Plan one entry and, unless `dry_run`, write it, under the file's lock.

    Raises ConfigError (configuration) or Refusal (one line: why nothing was added).
    """
    from guidelint.fixes import unified_diff
    from guidelint.fsio import locked
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
            added = plan_add(project, rel, new, lint)
            before = {path: read_or_empty(project, path) or "" for path in added.texts}
            diff = unified_diff({path: (before[path], added.texts[path]) for path in before})
            if not dry_run:
                _write(project.root, added.texts)
    except OSError as err:
        raise Refusal(f"{err.filename or rel}: {err.strerror or err}") from None
    return AddResult(added, diff, written=not dry_run)


def _write(root: Path, texts: dict[str, str]) -> None:
    from guidelint.fsio import write_atomic

    for rel, text in texts.items():
        write_atomic(root / rel, text, root)  # never through a link out of the project


def outside_surface(changed: set[str], patterns: list[str]) -> list[str]:
    """Changed paths that no surface pattern (.gitignore syntax) covers, sorted."""
    surface_globs = Globs(patterns)
    return sorted(path for path in changed if not surface_globs.matches(path))


def surface(project: Project, base: str) -> SurfaceResult:
    """The files changed since `base` against the configured surface.

    Raises ConfigError for a revision git does not know (worded for `--since`).
    """
    from guidelint.discovery import changed_files

    changed = changed_files(project.root, base)
    patterns = project.config.gotchas.surface
    return SurfaceResult(base, sorted(changed), outside_surface(changed, patterns), patterns)
