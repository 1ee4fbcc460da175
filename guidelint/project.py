"""The project being checked: its root, configuration and shared, cached lookups.

This is the whole door a rule has onto the world beyond the file it checks:
`files()` (the project's file list; rules never run git themselves), `exists()`,
`read()`, `globs()` (is a path in these globs), `memo()` for per-run shared state,
`live` and `warn()`.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from guidelint.discovery import project_files
from guidelint.errors import ConfigError
from guidelint.globs import Globs, readable
from guidelint.settings import (
    DefaultConfig,
    check_globs,
    find_config_file,
    plain_config,
    read_table,
)
from guidelint.sources import SourceFile, Unreadable, load

if TYPE_CHECKING:
    from guidelint.config import Settings

T = TypeVar("T")
PATH_MAX = 4096  # the longest path the kernel takes
P = ParamSpec("P")


class Project:
    """What every rule may consult beyond the file it checks.

    Lookups are cached per process: rules in one run share one view of the tree.
    """

    def __init__(
        self,
        root: Path,
        config: Settings,
        config_source: Path | None = None,
        live: bool | None = None,
    ) -> None:
        self.root = root.resolve()
        self.config = config
        self.config_source = config_source
        # --live / --no-live on the command line; None lets the configuration decide.
        self.live_option = live
        self._lookups = _Lookups()

    @classmethod
    def load(
        cls, paths: list[Path], config_file: Path | None = None, live: bool | None = None
    ) -> Project:
        """The project the given paths belong to, with its configuration.

        Raises ConfigError (one line) for a missing path or a bad configuration.
        """
        for path in paths:
            if not path.exists():
                raise ConfigError(f"{path}: no such file or folder")
        start = Path(os.path.abspath(paths[0])) if paths else Path.cwd()
        start = start if start.is_dir() else start.parent
        source = config_file or find_config_file(start)
        if source is None:  # the defaults: no pydantic, no configuration models
            return cls(_default_root(paths), DefaultConfig(), None, live)
        raw = read_table(source)
        config: Settings | None = plain_config(raw)  # a plain table: no pydantic either
        if config is None:
            from guidelint.config import parse_config

            config = parse_config(raw, source)
        check_globs(config, source)
        return cls(source.resolve().parent, config, source, live)

    @property
    def live(self) -> bool:
        """Whether tool lists come from the servers themselves (decided here only)."""
        if self.live_option is not None:
            return self.live_option
        return self.config.tools.live

    def rel(self, path: Path) -> str:
        """A path relative to the root with POSIX separators (absolute if outside)."""
        path = path if path.is_absolute() else Path.cwd() / path
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return Path(os.path.abspath(path)).as_posix()

    def files(self) -> list[str]:
        """Every candidate file of the project (git's listing, else a walk), once per run."""
        lookups = self._lookups
        if lookups.listing is None:
            skipped: list[str] = []
            lookups.listing = project_files(self.root, self.config, skipped)
            for note in skipped:
                self.warn(note)
        return lookups.listing

    def extensions(self) -> frozenset[str]:
        """The lower-cased suffixes of the project's files ("" for none), once per run:
        GL501 asks whether a path's kind of file exists here at all."""
        lookups = self._lookups
        if lookups.extensions is None:
            names = Project.files(self)  # the plain list: a recording view notes its own
            lookups.extensions = frozenset(posixpath.splitext(rel)[1].lower() for rel in names)
        return lookups.extensions

    def exists(self, path: str) -> bool:
        """Whether a path (relative to the root, or absolute) exists inside the project.

        A path that leads outside the root (`../../etc/shadow`, or through a symlink)
        is never looked up: the answer is False, so no report tells what the host holds.
        """
        known = self._lookups.exists.get(path)
        if known is None:
            full = os.path.join(self.root, path)
            known = self.contains(full) and os.path.exists(full)
            self._lookups.exists[path] = known
        return known

    def contains(self, path: str | Path) -> bool:
        """Whether a path, symlinks resolved, lies inside the project's root."""
        if len(os.fspath(path)) > PATH_MAX:
            return False  # no file has so long a path; not resolved (a prefix kept per folder)
        real_root = self._lookups.real_root
        if real_root is None:
            real_root = self._lookups.real_root = os.path.realpath(self.root)
        target = real_path(os.fspath(path), self._lookups.real_paths)
        # Both are absolute and normalised: a prefix test is `commonpath`'s answer.
        return target == real_root or target.startswith(real_root.rstrip(os.sep) + os.sep)

    def read(self, rel: str) -> SourceFile | None:
        """Another file of the project, or None when it cannot be read. The last
        READ_CACHE files read are kept (an agent file every delegating file asks for,
        a page several links reach): a run over a large tree keeps no text per file."""
        files = self._lookups.files
        if rel in files:
            files[rel] = file = files.pop(rel)  # now the most recently used
            return file
        file = None
        if self.contains(os.path.join(self.root, rel)):
            try:
                file = load(self.root / rel, rel, self.config.max_file_size, self.root)
            except Unreadable:
                pass
        files[rel] = file
        if len(files) > READ_CACHE:
            del files[next(iter(files))]  # the least recently used
        return file

    @overload
    def memo(self, key: Memo[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T: ...

    @overload
    def memo(self, key: str, factory: Callable[[], T], /) -> T: ...

    def memo(self, key: Memo[Any, T] | str, /, *args: Any, **kwargs: Any) -> T:
        """A value computed once per run and shared by rules (e.g. the tool catalog):
        a `Memo` key computes it from the project (and what else it takes); a name
        made at run time (a list of globs) comes with its factory.

        For data derived from one file, use `SourceFile.derived` instead: it lives
        and dies with the file.
        """
        if isinstance(key, Memo):
            return self._memoized(key, lambda: key.compute(self, *args, **kwargs))
        [factory] = args
        return self._memoized(key, factory)

    def _memoized(self, key: Memo[Any, T] | str, factory: Callable[[], T]) -> T:
        memo = self._lookups.memo
        if key not in memo:
            memo[key] = factory()
        value: T = memo[key]
        return value

    def globs(self, patterns: Iterable[str]) -> Globs:
        """These `.gitignore`-style globs, compiled once for the run: ask
        `.matches(rel)`. They read nothing, so the result cache records nothing."""
        key = tuple(patterns)
        found = self._lookups.globs.get(key)
        if found is None:
            found = self._lookups.globs[key] = Globs(key)
        return found

    def file_globs(self, text: str) -> Globs:
        """The globs of a `.gitignore` the project holds, without the lines pathspec
        cannot read (`[z-a]`), as git leaves them out: a file is never a usage error.
        Read once per text for the run."""
        found = self._lookups.file_globs.get(text)
        if found is None:
            found = self._lookups.file_globs[text] = self.globs(readable(text.splitlines()))
        return found

    @property
    def warnings(self) -> list[str]:
        return self._lookups.warnings

    def warn(self, message: str) -> None:
        """A note for the person running the check (printed by the CLI, once)."""
        if message not in self._lookups.warnings:
            self._lookups.warnings.append(message)


# Files `Project.read` keeps: enough for what one batch of files asks again and again,
# few enough that memory stays flat however large the tree (tests/core/test_project_read.py).
READ_CACHE = 256


class Memo(Generic[P, T]):
    """What `Project.memo` keeps for a run: a name paired with the function that
    computes the value from the project (and what else it takes, given by the first
    asker). Keys compare by identity."""

    __slots__ = ("name", "compute")

    def __init__(self, name: str, compute: Callable[Concatenate[Project, P], T]) -> None:
        self.name = name
        self.compute = compute

    def __repr__(self) -> str:
        return f"Memo({self.name!r})"


@dataclass
class _Lookups:
    """The per-run caches, shared by every view of one project (cache.RecordingProject)."""

    exists: dict[str, bool] = field(default_factory=dict)
    files: dict[str, SourceFile | None] = field(default_factory=dict)
    listing: list[str] | None = None
    extensions: frozenset[str] | None = None
    real_root: str | None = None
    real_paths: dict[str, str] = field(default_factory=dict)  # realpath, by path asked
    memo: dict[Memo[Any, Any] | str, Any] = field(default_factory=dict)
    globs: dict[tuple[str, ...], Globs] = field(default_factory=dict)
    file_globs: dict[str, Globs] = field(default_factory=dict)  # by a .gitignore's text
    warnings: list[str] = field(default_factory=list)


def real_path(path: str, known: dict[str, str]) -> str:
    """`os.path.realpath(path)`, each folder's answer kept in `known`: a path under a
    folder already resolved costs one `lstat` (GL501 asks thousands of paths in a few
    folders; `realpath` walks every component of each again). Iterative: it climbs to
    the nearest folder already known, then walks down (#28: recursing once per folder,
    a link 1,000 folders deep was a RecursionError, GL502 a GL000 on its file)."""
    if not os.path.isabs(path):
        return os.path.realpath(path)
    below: list[tuple[str, str]] = []  # (a path not yet known, its last component)
    head = path
    found = known.get(head)
    while found is None:
        parent, tail = os.path.split(head)
        if parent == head:  # the file system's root
            found = known[head] = os.path.realpath(head)
            break
        below.append((head, tail))
        head = parent
        found = known.get(head)
    for at, (full, tail) in enumerate(reversed(below)):
        if tail == "..":
            found = os.path.dirname(found)
        elif tail not in ("", "."):
            candidate = os.path.join(found, tail)
            if not os.path.lexists(candidate):
                # Missing: the rest stays as written (as in realpath), and no folder
                # below it is kept (a link thousands of folders deep kept each prefix).
                rest = [name for _, name in reversed(below)][at:]
                found = known[path] = os.path.normpath(os.path.join(found, *rest))
                return found
            # Only a link needs resolving.
            found = os.path.realpath(candidate) if os.path.islink(candidate) else candidate
        known[full] = found
    return found


def _default_root(paths: list[Path]) -> Path:
    """With no configuration: the current folder; for paths outside it, their git
    repository's top folder, else the first path's folder."""
    cwd = Path.cwd().resolve()
    # Where the paths are named, not where their symlinks lead: a committed folder
    # link (`docs/link -> $HOME`) must not make its target the project.
    named = [Path(os.path.abspath(p)) for p in paths]
    if all(cwd in (p, *p.parents) for p in named):
        return cwd
    first = named[0]
    folder = first if first.is_dir() else first.parent
    import subprocess

    top = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "--show-toplevel"],
        capture_output=True,
        text=True,
        check=False,
    )
    return Path(top.stdout.strip()) if top.returncode == 0 else folder
