"""Which files' findings a change can reach: the changed files themselves, and every
file whose rules looked up something that changed (`--since`, the pre-commit hook).

The lookups are those the result cache keys on (`cache.RecordingProject`): a path
asked with `exists()` or `read()` (`PathLookup`: a linked file, a snapshot,
`.mcp.json`, a settings file), a folder above an added or deleted path, a view of the
file list (`ViewLookup`: the whole list, the files a plain check checks, the set of
suffixes) that the change alters, or whether a plain check checks one file
(`CheckedLookup`: that file changed). A changed configuration file or a file a rule
declares in `cache_inputs()` reaches every file.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from guidelint.discovery import Changes, CheckedLookup, Lookup, ViewLookup, discover
from guidelint.project import Project
from guidelint.rule import Rule


class Reach:
    """Answers `reaches(lookups)` for one set of changes."""

    def __init__(self, project: Project, rules: Iterable[Rule], changes: Changes) -> None:
        self.changes = changes
        self.paths = {_normal(p) for p in changes.paths}
        # A folder comes or goes only with a file added or deleted below it.
        moved = changes.added | changes.deleted if changes.known_status else changes.paths
        self.folders = {folder for p in moved for folder in _folders(_normal(p))}
        self.everything = self._reaches_everything(project, rules)
        # An edited .gitignore adds files to git's list or takes them out, which no
        # status names: every view of the list, and every file's place, may differ.
        self.relisted = any(posixpath.basename(p) == ".gitignore" for p in self.paths)
        self._views = ALL_VIEWS if self.relisted else _changed_views(project, changes)

    def _reaches_everything(self, project: Project, rules: Iterable[Rule]) -> bool:
        source = project.config_source
        if source is not None and project.rel(source) in self.paths:
            return True
        declared = {_normal(rel) for rule in rules for rel in rule.cache_inputs(project)}
        return bool(declared & self.paths)

    def reaches(self, rel: str, lookups: dict[Lookup, str] | None) -> bool:
        if self.everything or _normal(rel) in self.paths:
            return True
        if lookups is None:
            return True  # not recorded (unreadable, say): say too much, never too little
        for lookup in lookups:
            if isinstance(lookup, CheckedLookup):  # whether one file is checked: only it moves that
                if self.relisted or _normal(lookup.rel) in self.paths:
                    return True
                continue
            if isinstance(lookup, ViewLookup):
                if lookup.view in self._views:
                    return True
                continue
            path = _normal(lookup.path)
            if path in self.paths or path in self.folders:
                return True
        return False


def _normal(path: str) -> str:
    return posixpath.normpath(path.rstrip("/")) if path else path


def _folders(path: str) -> Iterable[str]:
    """`docs/a/b.md` -> `docs/a`, `docs` (asking whether a folder exists rests on it)."""
    folder = posixpath.dirname(path)
    while folder:
        yield folder
        folder = posixpath.dirname(folder)


ALL_VIEWS = frozenset({"listing", "checked", "extensions"})


def _changed_views(project: Project, changes: Changes) -> frozenset[str]:
    """Which views of the file list differ from before the change: before is today's
    list less what was added, plus what was deleted."""
    if not changes.known_status:
        return ALL_VIEWS
    if not changes.added and not changes.deleted:
        return frozenset()
    now = Project.files(project)
    before = sorted((set(now) - changes.added) | changes.deleted)
    views = {"listing"}
    config = project.config
    if discover(project.root, config, [], listing=now) != discover(
        project.root, config, [], listing=before
    ):
        views.add("checked")
    if _suffixes(now) != _suffixes(before):
        views.add("extensions")
    return frozenset(views)


def _suffixes(names: list[str]) -> set[str]:
    return {posixpath.splitext(rel)[1].lower() for rel in names}
