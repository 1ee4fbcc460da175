"""Plan a `gotcha add` against a project: validate before, add, validate after.

Nothing here runs rules itself: the engine sits above this library, so the command
passes in how to lint (`Lint`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from pathlib import Path

from guidelint.findings import Finding, Fix
from guidelint.fixes import apply_edits
from guidelint.fsio import read_text_exact
from guidelint.gotchas import files as gfiles
from guidelint.gotchas.authoring import (
    Added,
    NewEntry,
    Refusal,
    add_to_text,
    errors,
    refuse_duplicates,
    refuse_over_cap,
    validate,
)
from guidelint.gotchas.index_report import own_index_report, separate_index_report
from guidelint.gotchas.model import Entry
from guidelint.gotchas.parse import parse_gotchas, parse_index
from guidelint.markdown import parse_markdown
from guidelint.project import Project
from guidelint.sources import SourceFile, Unreadable, decode

GLOB_CHARS = set("*?[")
NEW_FILE = "# Gotchas{nl}{nl}Lessons paid for; every session reads this file.{nl}"

# Every finding the rules selected in `project` give for `files` (the engine's work).
Lint = Callable[[Project, list[SourceFile]], list[Finding]]


class OverlayProject(Project):
    """A project whose files are read from planned texts first, then from disk.

    Only the GL2xx rules are selected: they are what `gotcha add` validates.
    """

    def __init__(self, project: Project, texts: dict[str, str]) -> None:
        config = project.config.model_copy(update={"select": ["GL2"], "extend_select": []})
        super().__init__(project.root, config, project.config_source)
        self.planned = {rel: SourceFile(self.root / rel, rel, text) for rel, text in texts.items()}

    def read(self, rel: str) -> SourceFile | None:
        if rel in self.planned:
            return self.planned[rel]
        return super().read(rel)

    def exists(self, path: str) -> bool:
        return path in self.planned or super().exists(path)


def choose_file(project: Project, explicit: str | None) -> str:
    if explicit:
        rel = project.rel(Path(explicit))
        if gfiles.role(rel, project) != gfiles.GOTCHAS:
            files = ", ".join(project.config.gotchas.files)
            raise Refusal(f"{explicit} is not a configured gotchas file (files: {files})")
        return rel
    found = gfiles.gotchas_files(project)
    if found:
        return found[0]
    first = project.config.gotchas.files[0]
    if GLOB_CHARS & set(first):
        raise Refusal(f"no gotchas file matches {project.config.gotchas.files}; pass --file")
    return posixpath.normpath(first.lstrip("/"))


def read_or_empty(project: Project, rel: str) -> str | None:
    """The file's text, None when missing; Refusal for one that cannot be read or
    that leads out of the project (`../x`, an absolute path, a symlink out)."""
    from guidelint.confine import Outside, resolve_inside

    try:
        path = resolve_inside(project.root, rel, "gotchas file")
    except Outside as outside:
        raise Refusal(str(outside)) from None
    if not path.exists():
        return None
    try:
        text = read_text_exact(path, project.root)
        decode(text.encode("utf-8"), project.config.max_file_size)
    except (OSError, UnicodeDecodeError, Unreadable) as err:
        raise Refusal(f"{rel}: cannot read: {getattr(err, 'message', err)}") from None
    return text


def _findings(project: Project, texts: dict[str, str], lint: Lint) -> list[Finding]:
    """The GL2xx findings of the planned texts, the rest of the project as on disk."""
    overlay = OverlayProject(project, texts)
    return lint(overlay, list(overlay.planned.values()))


def plan_add(project: Project, rel: str, new: NewEntry, lint: Lint) -> Added:
    """The texts a `gotcha add` writes, or a Refusal saying why it adds nothing."""
    config = project.config.gotchas
    new = validate(new)
    existing = read_or_empty(project, rel)
    if existing is None:
        text = NEW_FILE.format(nl="\n")
    else:
        text = existing
        problems = errors(_findings(project, {rel: text}, lint))
        if problems:
            first = problems[0]
            raise Refusal(
                f"{first.path}:{first.line}: {first.code} {first.message} (fix the file "
                f"first; `guidelint check --fix` regenerates the index)"
            )
    document = parse_gotchas(text, config.index_heading)
    refuse_over_cap(document.entries, gfiles.row_cap(document, project))
    refuse_duplicates(new, document.entries, config.duplicate_threshold)
    new_text, anchor = add_to_text(text, new, config.index_heading)
    texts = {rel: new_text} | _index_update(project, rel, new_text)
    after = _findings(project, texts, lint)
    problems = errors(after)
    if problems:
        first = problems[0]
        raise Refusal(
            f"the new entry would leave {first.path}:{first.line} invalid: {first.code} "
            f"{first.message}"
        )
    entries = parse_gotchas(texts[rel], config.index_heading).entries
    added = next((e for e in entries if e.anchor == anchor), None)
    if added is None:  # e.g. a lone `*` in the headline opened emphasis inside the bold
        raise Refusal(
            f"the headline {new.headline!r} does not survive as Markdown bold text "
            "(a lone *, _ or ` opens markup inside it); reword it or escape with a backslash"
        )
    warnings = [f for f in after if f.path == rel and added.line <= f.line <= added.end_line]
    cap = gfiles.row_cap(document, project)
    return Added(texts, rel, added.line, anchor, len(entries), cap, warnings)


def _index_update(project: Project, rel: str, new_text: str) -> dict[str, str]:
    """The regenerated index: a section of the same file, or the separate index file."""
    config = project.config.gotchas
    heading = config.index_heading
    if not config.index_file:
        report = own_index_report(rel, new_text, parse_gotchas(new_text, heading), heading)
        return {rel: _apply(new_text, report.fix)}
    index_rel = posixpath.normpath(config.index_file)
    index_text = read_or_empty(project, index_rel) or ""
    entries: dict[str, list[Entry]] = {}
    for other in gfiles.gotchas_files(project):
        source = project.read(other)
        if source is not None and other != rel:
            entries[other] = parse_gotchas(source.text, heading).entries
    entries[rel] = parse_gotchas(new_text, heading).entries
    own = parse_gotchas(index_text, heading)
    if own.index is not None:
        index = own.index
    else:
        doc = parse_markdown(index_text)
        index = parse_index(doc, 1, doc.lines.line_count, None)
    report = separate_index_report(index_rel, index, entries, own.newline)
    return {index_rel: _apply(index_text, report.fix)}


def _apply(text: str, fix: Fix | None) -> str:
    return apply_edits(text, [fix])[0] if fix is not None else text
