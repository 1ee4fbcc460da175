"""Where the checked documents name given tools (for `guidelint tools diff`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.sources import FileKind
from guidelint.tools.references import parse_reference

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile


def lines_naming(project: Project, server: str, names: set[str]) -> Iterator[tuple[str, str]]:
    """("path:line", the line) for every code span, permission or agent entry naming one."""
    if not names:
        return
    from guidelint.discovery import discover
    from guidelint.sources import Unreadable, load
    from guidelint.tools.frontmatter import tool_entries

    for rel in discover(project.root, project.config, []):
        try:
            file = load(project.root / rel, rel, project.config.max_file_size)
        except Unreadable:
            continue
        if file.kind == FileKind.MARKDOWN:
            offsets = [
                s.span.start for s in file.markdown.code_spans if _names(s.content, server, names)
            ]
            offsets += [
                span.start for _, entry, span in tool_entries(file) if _names(entry, server, names)
            ]
        elif file.kind == FileKind.JSON:
            offsets = _json_offsets(file, server, names)
        else:
            continue
        for offset in sorted(set(offsets)):
            line = file.lines.position(offset).line
            yield f"{rel}:{line}", file.lines.line_text(line).strip()


def _names(text: str, server: str, names: set[str]) -> bool:
    ref = parse_reference(text, {server})
    if ref is None or ref.name not in names:
        return False
    return ref.kind != "qualified" or ref.server == server


def _json_offsets(file: SourceFile, server: str, names: set[str]) -> list[int]:
    from guidelint.tools.jsonpos import KEY, value_spans

    spans = value_spans(file.text)
    found = []
    for path, span in spans.items():
        if path and path[-1] != KEY and file.text[span.start] == '"':
            value = file.text[span.start + 1 : span.end - 1]
            if _names(value, server, names):
                found.append(span.start)
    return found
