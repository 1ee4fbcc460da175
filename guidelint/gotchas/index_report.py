"""The index findings (GL202-GL204) of one file, computed once and shared by the three rules."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from guidelint.findings import Fix
from guidelint.gotchas import files as gfiles
from guidelint.gotchas.index import (
    Problem,
    Target,
    append_section,
    compare,
    index_fix,
    regenerate,
    unindexed,
)
from guidelint.spans import Span


@dataclass(frozen=True, slots=True)
class IndexReport:
    problems: tuple[Problem, ...]
    fix: Fix | None


def index_report(file, project) -> IndexReport:
    digest = hashlib.blake2b(file.text.encode("utf-8", "surrogatepass"), digest_size=12)
    key = f"gotchas.index-report:{file.rel}:{digest.hexdigest()}"
    return project.memo(key, lambda: _build(file, project))


def _build(file, project) -> IndexReport:
    role = gfiles.role(file.rel, project)
    separate = project.config.gotchas.index_file
    if role == gfiles.INDEX:
        return _separate_index(file, project)
    if role != gfiles.GOTCHAS:
        return IndexReport((), None)
    if separate:
        return _missing_index_file(file, project, separate)
    return _own_index(file, project)


def _row_key(index_rel: str):
    def key(row):
        if row.anchor is None:
            return None
        return (gfiles.resolve(index_rel, row.path), row.anchor)

    return key


def _own_index(file, project) -> IndexReport:
    document = gfiles.parsed(file, project)
    return own_index_report(file.rel, file.text, document, project.config.gotchas.index_heading)


def own_index_report(rel: str, text: str, document, heading: str) -> IndexReport:
    """GL202-GL204 of a gotchas file that holds its own index section."""
    targets = [Target(entry, rel, "") for entry in document.entries]
    if document.index is None:
        if not targets:
            return IndexReport((), None)
        problems = tuple(
            Problem(
                "GL202",
                t.entry.headline_span,
                f"entry '{t.entry.headline}' has no LESSONS index row: "
                f"the file has no `## {heading}` section",
            )
            for t in targets
        )
        edit = append_section(text, heading, targets, document.newline)
        return IndexReport(problems, index_fix(edit))
    key = _row_key(rel)
    problems = [
        Problem(
            "GL202",
            t.entry.headline_span,
            f"entry '{t.entry.headline}' has no row in the LESSONS index",
        )
        for t in unindexed(targets, document.index, key)
    ]
    problems += compare(targets, document.index, key)
    if not problems:
        return IndexReport((), None)
    edit = regenerate(targets, document.index, key, document.newline)
    return IndexReport(tuple(problems), index_fix(edit))


def _separate_index(file, project) -> IndexReport:
    entries = {}
    for rel in gfiles.gotchas_files(project):
        source = project.read(rel)
        if source is not None:
            entries[rel] = gfiles.parsed(source, project).entries
    index = gfiles.index_of(file, project)
    newline = gfiles.parsed(file, project).newline
    return separate_index_report(file.rel, index, entries, newline)


def separate_index_report(index_rel: str, index, entries: dict, newline: str) -> IndexReport:
    """GL202-GL204 of a separate index file, given the entries of every gotchas file."""
    targets = [
        Target(entry, rel, gfiles.link_base(index_rel, rel))
        for rel in sorted(entries)
        for entry in entries[rel]
    ]
    key = _row_key(index_rel)
    where = index.rows[0].span if index.rows else index.region
    problems = [
        Problem(
            "GL202",
            Span(where.start, where.start),
            f"entry '{t.entry.headline}' ({t.rel}:{t.entry.line}) has no row in this index",
        )
        for t in unindexed(targets, index, key)
    ]
    problems += compare(targets, index, key)
    if not problems:
        return IndexReport((), None)
    return IndexReport(tuple(problems), index_fix(regenerate(targets, index, key, newline)))


def _missing_index_file(file, project, index_file: str) -> IndexReport:
    if project.exists(index_file):
        return IndexReport((), None)
    document = gfiles.parsed(file, project)
    problems = tuple(
        Problem(
            "GL202",
            entry.headline_span,
            f"entry '{entry.headline}' has no index row: "
            f"the configured index-file `{index_file}` does not exist",
        )
        for entry in document.entries
    )
    return IndexReport(problems, None)
