"""The index problems (GL202-GL204) of one file and their shared fix, computed once."""

from __future__ import annotations

from dataclasses import dataclass

from guidelint.findings import Fix
from guidelint.gotchas import files as gfiles
from guidelint.gotchas.index import (
    IndexProblem,
    IndexProblemKind,
    RowKey,
    Target,
    append_section,
    compare,
    index_fix,
    regenerate,
    unindexed,
)
from guidelint.gotchas.model import Entry, GotchasDocument, Index, IndexRow
from guidelint.project import Project
from guidelint.sources import Derived, SourceFile
from guidelint.spans import Span


@dataclass(frozen=True, slots=True)
class IndexReport:
    problems: tuple[IndexProblem, ...]
    fix: Fix | None


NO_PROBLEMS = IndexReport((), None)


def index_report(file: SourceFile, project: Project) -> IndexReport:
    """The file's report, built once for the three rules that each report one kind."""
    return file.derived(INDEX_REPORT, project)


def _build(file: SourceFile, project: Project) -> IndexReport:
    role = gfiles.role(file.rel, project)
    separate = project.config.gotchas.index_file
    if role == gfiles.INDEX:
        return _separate_index(file, project)
    if role != gfiles.GOTCHAS:
        return NO_PROBLEMS
    if separate:
        return _missing_index_file(file, project, separate)
    return _own_index(file, project)


INDEX_REPORT = Derived("gotchas.index-report", _build)


def _row_key(index_rel: str) -> RowKey:
    def key(row: IndexRow) -> tuple[str, str] | None:
        if row.anchor is None:
            return None
        return (gfiles.resolve(index_rel, row.path), row.anchor)

    return key


def _own_index(file: SourceFile, project: Project) -> IndexReport:
    document = gfiles.parsed(file, project)
    return own_index_report(file.rel, file.text, document, project.config.gotchas.index_heading)


def own_index_report(rel: str, text: str, document: GotchasDocument, heading: str) -> IndexReport:
    """The index problems of a gotchas file that holds its own index section."""
    targets = [Target(entry, rel, "") for entry in document.entries]
    if document.index is None:
        if not targets:
            return NO_PROBLEMS
        missing = tuple(
            IndexProblem(
                IndexProblemKind.UNINDEXED_ENTRY,
                t.entry.headline_span,
                f"entry '{t.entry.headline}' has no LESSONS index row: "
                f"the file has no `## {heading}` section",
            )
            for t in targets
        )
        edit = append_section(text, heading, targets, document.newline)
        return IndexReport(missing, index_fix(edit))
    key = _row_key(rel)
    problems = [
        IndexProblem(
            IndexProblemKind.UNINDEXED_ENTRY,
            t.entry.headline_span,
            f"entry '{t.entry.headline}' has no row in the LESSONS index",
        )
        for t in unindexed(targets, document.index, key)
    ]
    problems += compare(targets, document.index, key)
    if not problems:
        return NO_PROBLEMS
    edit = regenerate(targets, document.index, key, document.newline)
    return IndexReport(tuple(problems), index_fix(edit))


def _separate_index(file: SourceFile, project: Project) -> IndexReport:
    entries = {}
    for rel in gfiles.gotchas_files(project):
        source = project.read(rel)
        if source is not None:
            entries[rel] = gfiles.parsed(source, project).entries
    index = gfiles.index_of(file, project)
    newline = gfiles.parsed(file, project).newline
    return separate_index_report(file.rel, index, entries, newline)


def separate_index_report(
    index_rel: str, index: Index, entries: dict[str, list[Entry]], newline: str
) -> IndexReport:
    """The index problems of a separate index file, given every gotchas file's entries."""
    targets = [
        Target(entry, rel, gfiles.link_base(index_rel, rel))
        for rel in sorted(entries)
        for entry in entries[rel]
    ]
    key = _row_key(index_rel)
    where = index.rows[0].span if index.rows else index.region
    problems = [
        IndexProblem(
            IndexProblemKind.UNINDEXED_ENTRY,
            Span(where.start, where.start),
            f"entry '{t.entry.headline}' ({t.rel}:{t.entry.line}) has no row in this index",
        )
        for t in unindexed(targets, index, key)
    ]
    problems += compare(targets, index, key)
    if not problems:
        return NO_PROBLEMS
    return IndexReport(tuple(problems), index_fix(regenerate(targets, index, key, newline)))


def _missing_index_file(file: SourceFile, project: Project, index_file: str) -> IndexReport:
    if project.exists(index_file):
        return NO_PROBLEMS
    document = gfiles.parsed(file, project)
    problems = tuple(
        IndexProblem(
            IndexProblemKind.UNINDEXED_ENTRY,
            entry.headline_span,
            f"entry '{entry.headline}' has no index row: "
            f"the configured index-file `{index_file}` does not exist",
        )
        for entry in document.entries
    )
    return IndexReport(problems, None)
