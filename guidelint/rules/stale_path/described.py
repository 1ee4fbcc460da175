"""Paths of what the document describes, quotes or downloads, not of its own tree.

- A section about a component: under "## ralph-wiggum Plugin", "**File:**
  `scripts/setup-ralph-loop.sh`" names the file from that plugin's root, where it
  exists (`plugins/ralph-wiggum/scripts/setup-ralph-loop.sh`).
- A quoted message: "**Adding context:** "The `User` type is defined in
  `packages/core/types.ts`."" is an example of what a user may type, about their code.
- A download's destination: a guide whose command runs `curl -o
  .github/workflows/x.yml URL` tells its readers to make that file in their repository.
- The project a command works on: after `python main.py --project-path ./src`, "Updates
  `src/types/database.ts`" names a file of the reader's project, not of this tree.
"""

from __future__ import annotations

import posixpath
import re

from guidelint.lazy_re import LazyPattern
from guidelint.markdown import CodeSpan
from guidelint.project import Project
from guidelint.rules.stale_path.project_files import FILE_INDEX
from guidelint.rules.stale_path.roots import COMPONENT_MARKERS
from guidelint.sources import SourceFile

# `curl -o DEST URL`, `curl --output DEST`, `wget -O DEST`: the command writes DEST.
DOWNLOAD = LazyPattern(r"\b(?:curl\b[^\n]*?\s(?:-o|--output)|wget\b[^\n]*?\s-O)\s+([^\s;&|]+)")

# A double-quoted passage on one line: straight or curly quotes.
QUOTED = re.compile(r"\"([^\"\n]*)\"|“([^”\n]*)”")

SPAN_IN_LINE = re.compile(r"`[^`]*`")

UTTERANCE_WORDS = 4  # a quoted sentence, not a quoted name such as "`x.md`"


def section_component(path: str, file: SourceFile, span: CodeSpan, project: Project) -> bool:
    """The path exists from the root of a component (a plugin, skill or package) whose
    folder name a heading above the span names: the section describes that component."""
    by_name, _ = project.memo(FILE_INDEX)
    trimmed = path.rstrip("/").removeprefix("./")
    roots = [
        rel[: -len(trimmed) - 1]
        for rel in by_name.get(posixpath.basename(trimmed), [])
        if rel.endswith("/" + trimmed)
    ]
    roots = [r for r in roots if any(project.exists(f"{r}/{m}") for m in COMPONENT_MARKERS)]
    if not roots:
        return False
    headings = _enclosing_headings(file, span)
    return any(
        re.search(rf"(?<![\w-]){re.escape(posixpath.basename(root))}(?![\w-])", heading)
        for root in roots
        for heading in headings
    )


def _enclosing_headings(file: SourceFile, span: CodeSpan) -> list[str]:
    """The headings the span lies under: the nearest one, then each of a higher level."""
    line = file.text.count("\n", 0, span.span.start) + 1
    chain: list[str] = []
    level = 7
    for heading in reversed(file.markdown.headings):
        if heading.line < line and heading.level < level:
            chain.append(heading.text)
            level = heading.level
    return chain


def quoted_utterance(text: str, span: CodeSpan) -> bool:
    """The span lies inside a quoted sentence on its line (an example message)."""
    line_start = text.rfind("\n", 0, span.span.start) + 1
    line_end = text.find("\n", span.span.end)
    line = text[line_start : len(text) if line_end == -1 else line_end]
    at = span.span.start - line_start
    # Code spans masked, their length kept: a quote inside one (`"x"`) pairs with nothing.
    masked = SPAN_IN_LINE.sub(lambda m: "`" + "x" * (len(m.group()) - 2) + "`", line)
    for match in QUOTED.finditer(masked):
        words = (match.group(1) or match.group(2) or "").split()
        if match.start() < at < match.end() and len(words) >= UTTERANCE_WORDS:
            return True
    return False


# `--project-path ./src`, `--workspace-dir=app`, `--target-root "site"`: the folder of the
# project a tool is pointed at (an option naming a project's path, not a remote `--repo`).
PROJECT_OPTION = LazyPattern(
    r"--(?:project|workspace|codebase|target|repo)[-_](?:path|dir|directory|root|folder)"
    r"(?:=|[ \t]+)['\"]?([\w.\-/]+)"
)


def worked_projects(file: SourceFile, doc_dir: str, project: Project) -> frozenset[str]:
    """The folders a command of the document's fences points a tool at as the project
    it works on (`--project-path ./src`), where no such folder is beside the document
    (the command's working folder): the reader's project, whose files the tool edits."""
    folders: set[str] = set()
    for fence in file.markdown.fences:
        for match in PROJECT_OPTION.finditer(fence.content):
            folder = posixpath.normpath(match.group(1)).rstrip("/")
            if folder in ("", ".") or folder.startswith(".."):
                continue  # the working folder itself, or one above it: this tree
            if not project.exists(posixpath.join(doc_dir, folder) if doc_dir else folder):
                folders.add(folder)
    return frozenset(folders)


def in_worked_project(path: str, worked: frozenset[str]) -> bool:
    """The path lies in one of the projects a documented command works on."""
    clean = posixpath.normpath(path.removeprefix("./"))
    return any(clean.startswith(folder + "/") for folder in worked)


def downloaded_in_document(file: SourceFile) -> set[str]:
    """Paths a command of the document's fences downloads into (`curl -o DEST`)."""
    return {
        match.group(1).strip("'\"").removeprefix("./")
        for fence in file.markdown.fences
        for match in DOWNLOAD.finditer(fence.content)
    }
