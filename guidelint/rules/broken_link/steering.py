"""Claude Code's steering files and their `@path` imports.

CLAUDE.md, AGENTS.md and `.claude/**` (and the folders `.claude/` links to) steer an
agent: GL502 always follows their links, and an `@path` outside code there is an
import whose file must exist. GL501, GL606 and GL612 ask the same questions.
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections.abc import Iterator

from guidelint.markdown import MarkdownDocument
from guidelint.project import Project
from guidelint.rules.broken_link.targets import join_rel
from guidelint.sources import SourceFile
from guidelint.spans import Span

# Claude Code's memory import: `@docs/setup.md`, `@./notes.md`, `@AGENTS.md`; not an
# e-mail address, a @mention or an npm scope (a file has an extension, or `./`).
# The `@` first and the look back after it: the scanner then jumps from `@` to `@`.
IMPORT = re.compile(r"@(?<![\w@/`.]@)((?:\.{1,2}/)?[\w\-]+(?:[./][\w\-]+)*)")

STEERING_NAMES = ("CLAUDE.md", "CLAUDE.local.md", "AGENTS.md")


def linked_folders(project: Project) -> frozenset[str]:
    """Folders of the repository that an entry of `.claude/` links to (`.claude/skills ->
    ../skills`): a symlink, or the small file holding its target that git writes where
    it makes no symlinks. Their files steer Claude Code as much as `.claude/**` does."""
    return project.memo("GL502.linked_folders", lambda: _linked_folders(project))


def _linked_folders(project: Project) -> frozenset[str]:
    claude = project.root / ".claude"
    if not claude.is_dir():
        return frozenset()
    found = set()
    for entry in os.scandir(claude):
        target = _link_target(entry)
        if target is None:
            continue
        project.exists(f".claude/{entry.name}")  # the result cache then knows the link counts
        folder = posixpath.normpath(posixpath.join(".claude", target))
        path = project.root / folder
        if not folder.startswith("../") and folder != ".." and path.is_dir():
            if project.contains(path) and not folder.startswith(".claude"):
                found.add(folder)
    return frozenset(found)


def _link_target(entry: os.DirEntry[str]) -> str | None:
    try:
        if entry.is_symlink():
            return os.readlink(entry.path).replace(os.sep, "/")
        if entry.is_file(follow_symlinks=False) and entry.stat().st_size <= 256:
            with open(entry.path, encoding="utf-8") as handle:
                text = handle.read()
            if "\n" not in text and text.strip() == text and "/" in text:
                return text
    except (OSError, UnicodeDecodeError):
        return None
    return None


def is_steering_file(rel: str) -> bool:
    """CLAUDE.md, CLAUDE.local.md or AGENTS.md anywhere, or a file under `.claude/`."""
    return posixpath.basename(rel) in STEERING_NAMES or rel.startswith(".claude/")


def imports(file: SourceFile, doc: MarkdownDocument) -> Iterator[tuple[Span, str]]:
    """`@path` imports outside code spans and fences, with their spans."""
    code = sorted((c.span.start, c.span.end) for c in doc.code_spans)
    code += sorted((f.span.start, f.span.end) for f in doc.fences)
    code.sort()
    starts = [start for start, _ in code]
    for match in IMPORT.finditer(file.text):
        target = match.group(1).rstrip(".")
        if not target.startswith(".") and "." not in posixpath.basename(target):
            continue  # @someone or an npm scope (@scope/pkg), not a file
        index = bisect.bisect_right(starts, match.start()) - 1
        if index >= 0 and code[index][0] <= match.start() < code[index][1]:
            continue  # inside code: Claude Code does not import there
        yield Span(match.start(), match.start() + 1 + len(target)), target


def memory_imports(file: SourceFile) -> list[tuple[Span, str]]:
    """A steering file's `@path` imports (outside code): each span, and the path it
    names relative to the repository root (GL612 follows them)."""
    if "@" not in file.text:
        return []
    folder = posixpath.dirname(file.rel)
    return [(span, join_rel(folder, target)) for span, target in imports(file, file.markdown)]
