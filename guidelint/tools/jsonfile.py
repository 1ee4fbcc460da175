"""The tools pillar's own JSON files (.mcp.json, snapshots), read as the engine reads a file.

Through `Project.read`: inside the root only, refused by size (max-file-size) before
it is read, decoded as UTF-8. Whatever is wrong with such a file is a FileProblem at
its line, never an exception: a file from the repository is a finding, not a usage
error (only guidelint's own configuration is one).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from guidelint.tools.jsonpos import JsonProblem, blank_jsonc, parse

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile


@dataclass(frozen=True)
class FileProblem:
    """What is wrong in one file of the repository, and where."""

    rel: str
    offset: int  # a character offset into the file's text (0 when it could not be read)
    line: int
    message: str
    server: str | None = None  # the server whose entry or snapshot this is

    def __str__(self) -> str:
        return f"{self.rel}:{self.line}: {self.message}"


@dataclass(frozen=True)
class JsonFile:
    """A parsed file, with its text for positions."""

    file: SourceFile
    data: Any

    @property
    def rel(self) -> str:
        return self.file.rel

    def problem(self, offset: int, message: str, server: str | None = None) -> FileProblem:
        line = self.file.lines.position(offset).line
        return FileProblem(self.rel, offset, line, message, server)


def read_json(
    project: Project, rel: str, server: str | None = None, jsonc: bool = False
) -> JsonFile | FileProblem | None:
    """The file parsed; None when there is no such file; a FileProblem when it is
    there but cannot be used (outside the project, too large, not UTF-8, not JSON,
    nested too deeply). `jsonc`: comments and trailing commas are allowed (VS Code's
    and Gemini CLI's settings files)."""
    full = os.path.join(project.root, rel)
    # project.exists first: the cache and --since then know this file's absence counts.
    if not project.exists(rel) and not os.path.lexists(full):
        return None
    if not project.contains(full):
        return FileProblem(rel, 0, 1, "leads outside the project (not read)", server)
    if not os.path.isfile(full):
        return None  # a folder, FIFO or device named like the file: not ours to read
    file = project.read(rel)
    if file is None:
        return FileProblem(rel, 0, 1, _why_unreadable(project, rel), server)
    try:
        data = parse(blank_jsonc(file.text) if jsonc else file.text)
    except JsonProblem as err:
        return JsonFile(file, None).problem(err.offset, err.message, server)
    return JsonFile(file, data)


def _why_unreadable(project: Project, rel: str) -> str:
    """The reason Project.read gave up (it keeps only the None)."""
    from guidelint.sources import Unreadable, load

    try:
        load(project.root / rel, rel, project.config.max_file_size)
    except Unreadable as err:
        return err.message
    return "cannot be read"
