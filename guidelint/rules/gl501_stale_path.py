"""GL501 stale-path: a backticked repository path that does not exist.

Which code spans count as repository paths (the heuristic, also in rules/GL501.md):
one token with no spaces, containing a `/`, made only of path characters; not a
URL, glob, variable, placeholder or absolute/home path; and anchored in this
repository: it starts with `./` or `../`, or its first segment is a folder or
file that exists (relative to the root or to the document). A `:LINE` or `#anchor`
suffix is dropped before the lookup. Everything else is left alone.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections.abc import Iterator

import pathspec

from guidelint.findings import Finding, Severity
from guidelint.rules.base import Rule

PATH_CHARS = re.compile(r"^[\w.@+\-/]+$")
LOCATION_SUFFIX = re.compile(r"(:\d+(-\d+)?(:\d+)?|#[\w\-.]*)$")
PLACEHOLDER_SEGMENTS = {"path", "to", "your", "my", "foo", "bar", "baz", "example", "xxx", "..."}


def candidate_path(text: str) -> str | None:
    """The repository path a code span names, or None if it is not one."""
    text = LOCATION_SUFFIX.sub("", text.strip())
    if not text or "/" not in text or not PATH_CHARS.match(text):
        return None
    if text.startswith(("/", "~", "//")) or "://" in text or "//" in text:
        return None
    segments = [s for s in text.split("/") if s not in ("", ".")]
    if not segments or _is_placeholder(segments):
        return None
    return text


def _is_placeholder(segments: list[str]) -> bool:
    lowered = [s.lower() for s in segments]
    if "to" in lowered and "path" in lowered:  # path/to/file
        return True
    return all(s in PLACEHOLDER_SEGMENTS or s.startswith("your") for s in lowered[:-1]) and (
        len(lowered) > 1 and lowered[0] in PLACEHOLDER_SEGMENTS | {"your"}
    )


class StalePath(Rule):
    code = "GL501"
    name = "stale-path"
    summary = "A backticked repository path names a file or folder that does not exist."
    severity = Severity.ERROR
    file_kinds = frozenset({"markdown"})

    def check(self, file, project) -> Iterator[Finding]:
        ignore = project.memo(
            "GL501.ignore",
            lambda: pathspec.GitIgnoreSpec.from_lines(project.config.paths.ignore),
        )
        doc_dir = posixpath.dirname(file.rel)
        for span in file.markdown.code_spans:
            path = candidate_path(span.content)
            if path is None or ignore.match_file(path):
                continue
            bases = [""] if not doc_dir or doc_dir.startswith("/") else ["", doc_dir]
            if not self._anchored(path, bases, project):
                continue
            if any(project.exists(_join(base, path)) for base in bases):
                continue
            yield self.finding(
                file, span.span, f"`{path}` does not exist in this repository{_hint(path, project)}"
            )

    @staticmethod
    def _anchored(path: str, bases: list[str], project) -> bool:
        """Is this path meant as one in this repository (not an example elsewhere)?"""
        if path.startswith(("./", "../")):
            return True
        first = path.split("/", 1)[0]
        return any(project.exists(_join(base, first)) for base in bases)


def _join(base: str, path: str) -> str:
    return posixpath.normpath(posixpath.join(base, path)) if base else posixpath.normpath(path)


def _hint(path: str, project) -> str:
    """Did-you-mean: a project file with the same name, else a close name in the same folder."""
    by_name, by_folder = project.memo("GL501.file_index", lambda: _file_index(project))
    name = posixpath.basename(path.rstrip("/"))
    same_name = by_name.get(name)
    if same_name:
        best = difflib.get_close_matches(path, same_name, n=1, cutoff=0.0)
        return f" (did you mean `{best[0]}`?)"
    # Only the path's own folder: comparing against every file costs seconds on big repos.
    neighbours = by_folder.get(posixpath.dirname(posixpath.normpath(path)), [])
    close = difflib.get_close_matches(path, neighbours, n=1, cutoff=0.8)
    return f" (did you mean `{close[0]}`?)" if close else ""


def project_file_listing(project) -> list[str]:
    """The project's files (git-aware), listed once per run."""
    from guidelint.discovery import project_files

    return project.memo("project_files", lambda: project_files(project.root, project.config))


def _file_index(project) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    by_name: dict[str, list[str]] = {}
    by_folder: dict[str, list[str]] = {}
    for rel in project_file_listing(project):
        folder, name = posixpath.split(rel)
        by_name.setdefault(name, []).append(rel)
        by_folder.setdefault(folder, []).append(rel)
    return by_name, by_folder
