"""Paths made at run time or on each machine, so never committed.

A document names the folder its tests write (`results/`), the cache a tool fills
(`.cache/`), the clone its setup makes (`git clone URL dest`), the `.env` copied from
`.env.example`, and what .gitignore ignores. Such a path is missing from every
checkout by design: reporting it would be a false stale path.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from guidelint.lazy_re import LazyPattern
from guidelint.project import Memo, Project
from guidelint.rules.stale_path.candidates import candidate_path
from guidelint.rules.stale_path.project_files import join_rel
from guidelint.rules.stale_path.sentences import said_made, said_not_shipped
from guidelint.sources import SourceFile

# Written by a run, never committed: the first missing folder of the path says so
# (`cached_ops/`, `results/`, `.cache/`, `logs/`, `tmp/`, `output/`, `artifacts/`), and
# the report a test run's coverage tool writes (`coverage/` of c8, nyc, Vitest and Jest;
# `htmlcov/` of coverage.py).
RUN_TIME_FOLDER = re.compile(
    r"^(?:\.?cache[sd]?|cached[_-]\w+|\w+[_-]cache|\.?tmp|temp|logs?|results?|outputs?|"
    r"artifacts?|coverage|htmlcov)$",
    re.IGNORECASE,
)

# A shell line in a fence that makes a path: `git clone URL DEST`, `mkdir -p DIR`, `touch F`,
# `ln -s TARGET LINK` (a folder symlinked in from outside the repository).
MAKES = LazyPattern(r"(?:^[ \t]*|[;&|]\s*|\$\s+)(git\s+clone|mkdir|touch|ln)\s+([^;&|#\n]+)", re.M)


def _ignored_matcher(project: Project) -> Callable[[str], bool]:
    """Paths never reported: `[tool.guidelint.paths] ignore`, and what the root
    .gitignore ignores (outputs written at run time, caches, scratch folders)."""
    patterns = list(project.config.paths.ignore)
    gitignore = project.read(".gitignore")
    # pathspec compiles each list only when a path is one the globs' text cannot decide.
    configured = project.globs(patterns).matches
    from_git = project.file_globs(gitignore.text if gitignore else "").matches

    def ignored(path: str) -> bool:
        if configured(path):
            return True
        # A folder pattern (`tmp/`) matches the folder itself only with a slash.
        return from_git(path) or from_git(path.rstrip("/") + "/")

    return ignored


IGNORED = Memo("GL501.ignored", _ignored_matcher)


def run_time_folder(path: str, bases: list[str], project: Project) -> bool:
    """The first folder of the path that is missing is one runs write and repositories
    do not commit: a cache, `tmp/`, `logs/`, `results/`, `output/`, `artifacts/`,
    `coverage/`."""
    segments = [s for s in path.split("/") if s not in ("", ".")]
    folders = segments if path.endswith("/") or "." not in segments[-1] else segments[:-1]
    for base in bases:
        for index, segment in enumerate(folders):
            if segment == "..":
                continue
            if not project.exists(join_rel(base, "/".join(segments[: index + 1]))):
                if RUN_TIME_FOLDER.match(segment):
                    return True
                break
    return False


def made_in_document(file: SourceFile) -> set[str]:
    """Paths this document says are made: by a sentence that says it creates, writes
    or generates them ("Failed tests write a diff to `results/`"), or by a command of
    its fences (`git clone URL DEST`, `mkdir -p DIR`, `touch FILE`, `ln -s FROM LINK`).
    Every mention of such a path in the document is then about the same made thing."""
    made: set[str] = set()
    for fence in file.markdown.fences:
        for match in MAKES.finditer(fence.content):
            words = [w for w in match.group(2).split() if not w.startswith("-")]
            words = [w.strip("'\"") for w in words if "://" not in w and "@" not in w]
            if match.group(1) == "ln":  # `ln -s FROM LINK`: one word alone is no link's name
                words = words[-1:] if len(words) > 1 else []
            elif match.group(1).startswith("git"):
                words = words[-1:] if len(match.group(2).split()) > 1 else []
            made.update(w.rstrip("/").removeprefix("./") for w in words if w)
    for span in file.markdown.code_spans:
        path = candidate_path(span.content) if "/" in span.content else None
        if path is None:
            continue
        if said_made(file.text, span.span.start, span.span.end):
            made.add(path.rstrip("/").removeprefix("./"))
    return made


def not_shipped_in_document(file: SourceFile) -> set[str]:
    """Paths this document says are not there yet ("will live under `x/`", "`x/` ...
    is not part of the layer shipped today")."""
    not_shipped: set[str] = set()
    for span in file.markdown.code_spans:
        path = candidate_path(span.content) if "/" in span.content else None
        if path is not None and said_not_shipped(file.text, span.span.start, span.span.end):
            not_shipped.add(path.rstrip("/").removeprefix("./"))
    return not_shipped


def under_not_shipped(path: str, not_shipped: set[str]) -> bool:
    """The path, or a folder above it, is one the document says is not there yet:
    "will live under `src/x/tools/`" covers "Add to `src/x/tools/registry.py`" further
    down. (A folder said to be made does not cover what is named in it: "Create a
    `references/` directory and move ... → `references/examples.md`" still names files
    that must then exist.)"""
    parts = path.rstrip("/").removeprefix("./").split("/")
    return any("/".join(parts[:count]) in not_shipped for count in range(1, len(parts) + 1))


def env_file(path: str) -> bool:
    """`.env`, `.env.local`: made from `.env.example` on each machine, never committed
    (a setup guide's "copy `.env.example` to `config/.env`" is no stale path)."""
    return posixpath.basename(path.rstrip("/")).startswith(".env")
