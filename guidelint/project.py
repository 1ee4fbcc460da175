"""The project being checked: its root, configuration and shared, cached lookups."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from guidelint.config import Config
from guidelint.sources import SourceFile, Unreadable, load

T = TypeVar("T")


class Project:
    """What every rule may consult beyond the file it checks.

    Lookups are cached per process: rules in one run share one view of the tree.
    """

    def __init__(self, root: Path, config: Config, config_source: Path | None = None) -> None:
        self.root = root.resolve()
        self.config = config
        self.config_source = config_source
        self._exists: dict[str, bool] = {}
        self._files: dict[str, SourceFile | None] = {}
        self._memo: dict[str, Any] = {}
        # --live on the command line (None: let the configuration decide).
        self.live: bool | None = None
        # When a dict, exists() and read() note each path they were asked about
        # ("exists" or "read"), so the result cache can tell when those answers change.
        self.lookups: dict[str, str] | None = None

    def rel(self, path: Path) -> str:
        """A path relative to the root with POSIX separators (absolute if outside)."""
        path = path if path.is_absolute() else Path.cwd() / path
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return Path(os.path.abspath(path)).as_posix()

    def exists(self, path: str) -> bool:
        """Whether a path (relative to the root, or absolute) exists."""
        if self.lookups is not None:
            self.lookups.setdefault(path, "exists")
        known = self._exists.get(path)
        if known is None:
            known = self._exists[path] = os.path.exists(os.path.join(self.root, path))
        return known

    def read(self, rel: str) -> SourceFile | None:
        """Another file of the project (cached), or None when it cannot be read."""
        if self.lookups is not None:
            self.lookups[rel] = "read"
        if rel not in self._files:
            try:
                self._files[rel] = load(self.root / rel, rel, self.config.max_file_size)
            except Unreadable:
                self._files[rel] = None
        return self._files[rel]

    def memo(self, key: str, factory: Callable[[], T]) -> T:
        """A value computed once per run and shared by rules (e.g. the tool catalog)."""
        if key not in self._memo:
            self._memo[key] = factory()
        return self._memo[key]
