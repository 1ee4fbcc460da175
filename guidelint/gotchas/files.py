"""Which files of a project are gotchas files or the LESSONS index file, parsed once per file."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from guidelint.sources import Derived

if TYPE_CHECKING:  # the parser loads only for a gotchas file (role() decides without it)
    from guidelint.gotchas.model import GotchasDocument, Index
    from guidelint.project import Project
    from guidelint.sources import SourceFile

GOTCHAS = "gotchas"
INDEX = "index"


def role(rel: str, project: Project) -> str | None:
    """GOTCHAS, INDEX (the configured separate index file) or None."""
    config = project.config.gotchas
    if config.index_file and rel == posixpath.normpath(config.index_file):
        return INDEX

    return GOTCHAS if project.globs(config.files).matches(rel) else None


def parsed(file: SourceFile, project: Project) -> GotchasDocument:
    """The gotchas document of a source file, parsed once for all GL2xx rules."""
    return file.derived(GOTCHAS_DOCUMENT, project.config.gotchas.index_heading)


def _parse(file: SourceFile, heading: str) -> GotchasDocument:
    from guidelint.gotchas.parse import parse_gotchas

    return parse_gotchas(file.text, heading)


GOTCHAS_DOCUMENT = Derived("gotchas.document", _parse)


def index_of(file: SourceFile, project: Project) -> Index:
    """The rows of a separate index file: its index section, else the whole file."""
    return file.derived(INDEX_ROWS, project)


def _index_rows(file: SourceFile, project: Project) -> Index:
    from guidelint.gotchas.parse import parse_index

    own = parsed(file, project)
    if own.index is not None:
        return own.index
    doc = file.markdown
    return parse_index(doc, 1, doc.lines.line_count, None)


INDEX_ROWS = Derived("gotchas.index-rows", _index_rows)


def gotchas_files(project: Project) -> list[str]:
    """Every gotchas file of the project, sorted (what a separate index covers)."""
    files = project.files()
    return [rel for rel in files if role(rel, project) == GOTCHAS and rel.endswith(".md")]


def row_cap(document: GotchasDocument, project: Project) -> int | None:
    """The file's own directive wins over the configured cap."""
    if document.cap.value is not None:
        return document.cap.value
    return project.config.gotchas.row_cap


def link_base(index_rel: str, gotchas_rel: str) -> str:
    """The href path from the index's file to a gotchas file ("" for the same file)."""
    if index_rel == gotchas_rel:
        return ""
    return posixpath.relpath(gotchas_rel, posixpath.dirname(index_rel) or ".")


def resolve(index_rel: str, path: str) -> str:
    """The project path an index row's href points into."""
    if not path:
        return index_rel
    return posixpath.normpath(posixpath.join(posixpath.dirname(index_rel), path))
