"""Which files to check: configured globs, explicit paths, minus what git ignores."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from guidelint.errors import ConfigError
from guidelint.globs import Globs
from guidelint.printable import printable
from guidelint.sources import MARKDOWN_SUFFIXES, file_kind

if TYPE_CHECKING:
    from guidelint.config import Settings

ALWAYS_SKIPPED = {".git", ".hg", ".svn"}


# -- what a file's findings rest on (the result cache's and `--since`'s lookups)

# How a lookup is stored in a cache file: a path as it is, a view after this prefix.
VIEW = "view:"
CHECKED = "checked:"  # after VIEW: whether a plain check checks one file


@dataclass(frozen=True, slots=True)
class PathLookup:
    """`Project.exists()` or `Project.read()` of a path."""

    path: str

    @property
    def key(self) -> str:
        return self.path


@dataclass(frozen=True, slots=True)
class ViewLookup:
    """A view of the file list: "listing" (all of it), "checked" (the files a plain
    check checks) or "extensions" (the set of suffixes)."""

    view: str

    @property
    def key(self) -> str:
        return VIEW + self.view


@dataclass(frozen=True, slots=True)
class CheckedLookup:
    """Whether a plain check checks one file (not the whole checked set)."""

    rel: str

    @property
    def key(self) -> str:
        return VIEW + CHECKED + self.rel


Lookup = PathLookup | ViewLookup | CheckedLookup
LISTING = ViewLookup("listing")
CHECKED_FILES = ViewLookup("checked")
EXTENSIONS = ViewLookup("extensions")


def lookup_from_key(key: str) -> Lookup:
    """The lookup a cache file's key (`Lookup.key`) stores."""
    if not key.startswith(VIEW):
        return PathLookup(key)
    view = key.removeprefix(VIEW)
    if view.startswith(CHECKED):
        return CheckedLookup(view.removeprefix(CHECKED))
    return ViewLookup(view)


class Listing(list[str]):
    """The project's file list as a recording project hands it to rules: any use
    notes a dependency on the whole list (`on_use("listing")`), except `discover()`,
    which notes one on what it selects (`on_use("checked")`): adding a `.txt` changes
    the list, not the files a check checks."""

    def __init__(
        self, names: list[str], on_use: Callable[[ViewLookup | CheckedLookup], None]
    ) -> None:
        super().__init__(names)
        self.on_use = on_use

    def quietly(self) -> list[str]:
        """The names, noting nothing (for discover)."""
        return list(super().__iter__())

    def __iter__(self) -> Iterator[str]:
        self.on_use(LISTING)
        return super().__iter__()

    def __len__(self) -> int:
        self.on_use(LISTING)
        return super().__len__()

    def __contains__(self, name: object) -> bool:
        self.on_use(LISTING)
        return super().__contains__(name)

    def __getitem__(self, index):  # untyped: list.__getitem__ is overloaded
        self.on_use(LISTING)
        return super().__getitem__(index)


def git_files(root: Path) -> list[str] | None:
    """Tracked and untracked-but-not-ignored files under root, or None outside git."""
    output = _git_output(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    if output is None:
        return None
    names = output.split("\0")
    return sorted({n for n in names if n})


def walk_files(root: Path, ignored: Callable[[str], bool]) -> list[str]:
    """Every file under root, honouring a root .gitignore when git is not available."""
    found = []
    for folder, dirs, files in os.walk(root):
        rel_folder = os.path.relpath(folder, root)
        rel_folder = "" if rel_folder == "." else rel_folder.replace(os.sep, "/") + "/"
        dirs[:] = sorted(
            d for d in dirs if d not in ALWAYS_SKIPPED and not ignored(f"{rel_folder}{d}/")
        )
        for name in files:
            rel = f"{rel_folder}{name}"
            if not ignored(rel):
                found.append(rel)
    return sorted(found)


def project_files(root: Path, config: Settings, skipped: list[str] | None = None) -> list[str]:
    """All candidate files of the project, relative to root: regular files, and
    symlinks that stay inside root. What is left out for a reason a person should
    hear (a FIFO, a symlink leaving the repository) goes into `skipped`, one line each."""
    listed = _listed_files(root, config)
    kept = []
    real_root = os.path.realpath(root)
    for rel in listed:
        reason = _not_checkable(root, real_root, rel)
        if reason is None:
            kept.append(rel)
        elif reason and skipped is not None:
            skipped.append(f"{printable(rel)}: skipped: {reason}")
    return kept


def _listed_files(root: Path, config: Settings) -> list[str]:
    if config.respect_gitignore:
        listed = git_files(root)
        if listed is not None:
            return listed
        lines = _gitignore_lines(root)
        if lines:
            return walk_files(root, Globs([*lines, f"{config.cache_dir}/"]).compiled())
    # The cache folder alone: a plain name, decided without pathspec.
    return walk_files(root, Globs([f"{config.cache_dir}/"]).matches)


def _gitignore_lines(root: Path) -> list[str]:
    """The root `.gitignore`'s patterns, read when git is not there to: not through a
    symlink out of the project, and without the lines pathspec cannot read (git
    ignores those too)."""
    from guidelint.globs import readable
    from guidelint.sources import Unreadable, read_bytes

    try:
        data = read_bytes(root / ".gitignore", MAX_GITIGNORE_BYTES, root)
    except Unreadable:
        return []
    lines = data.decode("utf-8", errors="replace").splitlines()
    return readable(lines)


def _not_checkable(root: Path, real_root: str, rel: str) -> str | None:
    """Why a listed path is not a file to read ("" when silently so), else None.

    Reading a FIFO blocks forever; following a symlink out of the repository would
    put a host file's contents (say /etc/shadow) into a report.
    """
    full = os.path.join(root, rel)
    try:
        mode = os.lstat(full).st_mode
    except OSError:
        return ""  # tracked but deleted, or gone since git listed it
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        target = os.path.realpath(full)
        if os.path.commonpath([real_root, target]) != real_root:
            return "a symlink to a path outside the repository (not followed)"
        try:
            mode = os.stat(target).st_mode
        except OSError:
            return ""  # a dangling link: nothing to read
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None if stat.S_ISREG(mode) else ""
    return "not a regular file (a FIFO, socket or device)"


OUTSIDE_NOTE = "not checked: it leads outside the project"  # a path named, one line
MAX_GITIGNORE_BYTES = 5_000_000  # a root .gitignore read without git; past this, none


def link_targets(root: Path, rels: Iterable[str]) -> dict[str, str]:
    """Of these project paths, the symlinks to a regular file inside the project,
    each with its target's path (relative to root, symlinks resolved).

    A renderer shows such a page as its target (GitHub shows the link as a link), so
    a check reads it once, as its target: its findings at the target's lines, its
    links resolved from the target's folder. A link out of the project is not one
    (`project_files` leaves it out, with a note), nor one whose name gives another
    kind of file (`README.md -> README` is read as Markdown only under its own name).
    """
    real_root = os.path.realpath(root)
    found: dict[str, str] = {}
    for rel in rels:
        full = os.path.join(root, rel)
        if not os.path.islink(full):
            continue
        target = os.path.realpath(full)
        if os.path.commonpath([real_root, target]) != real_root or not os.path.isfile(target):
            continue
        target_rel = os.path.relpath(target, real_root).replace(os.sep, "/")
        if file_kind(target_rel) == file_kind(rel):
            found[rel] = target_rel
    return found


def _as_targets(root: Path, rels: Iterable[str], links: dict[str, str] | None) -> list[str]:
    """The paths with each symlink inside the project replaced by its target (once,
    however many links lead to it); `links` hears link -> target."""
    found = link_targets(root, rels)
    if links is not None:
        links.update(found)
    return sorted({found.get(rel, rel) for rel in rels})


def discover(
    root: Path,
    config: Settings,
    paths: list[Path] | None = None,
    listing: list[str] | Callable[[], list[str]] | None = None,
    skipped: list[str] | None = None,
    links: dict[str, str] | None = None,
) -> list[str]:
    """Files to check, relative to root, sorted.

    With no paths, the configured include globs select from the project. A file
    argument is always checked; a folder argument selects its Markdown files and
    whatever the include globs select inside it. `listing` is the project's file
    list, or how to get it (`Project.files`): files named one by one need neither
    it (no `git ls-files`) nor the globs. A path that leads outside the project
    (a symlink, or a folder symlink on its way) is not checked: one line for it
    goes into `skipped`.

    A symlink to a file inside the project is checked as that file (`link_targets`),
    even where the globs leave the target out: the link is then how it is reached.
    `links` hears each such link and its target.
    """
    if paths:
        return _from_paths(root, config, paths, listing, skipped, links)
    included = Globs(config.include + config.extend_include).compiled()
    excluded = Globs(config.exclude).compiled()
    candidates = _candidates(root, config, listing, CHECKED_FILES)
    return _as_targets(root, [f for f in candidates if included(f) and not excluded(f)], links)


def _candidates(
    root: Path,
    config: Settings,
    listing: list[str] | Callable[[], list[str]] | None,
    use: ViewLookup,
) -> list[str]:
    if callable(listing):
        listing = listing()
    if isinstance(listing, Listing):
        listing.on_use(use)
        return listing.quietly()
    return project_files(root, config) if listing is None else listing


def _from_paths(
    root: Path,
    config: Settings,
    paths: list[Path],
    listing: list[str] | Callable[[], list[str]] | None,
    skipped: list[str] | None,
    links: dict[str, str] | None,
) -> list[str]:
    """The files named, and those selected inside the folders named; the file list
    and the globs are read only for a folder."""
    from guidelint.confine import is_inside

    chosen: set[str] = set()
    folders: list[str] = []
    real_root = os.path.realpath(root)
    for path in paths:
        # Every symlink resolved, the file itself included: nothing outside is read.
        if not is_inside(real_root, path):
            if skipped is not None:
                skipped.append(f"{printable(str(path))}: {OUTSIDE_NOTE} ({printable(real_root)})")
            continue
        # The folder resolved, the name kept: a symlink argument is judged as a link.
        absolute = path.parent.resolve() / path.name if path.name else path.resolve()
        rel = os.path.relpath(absolute, real_root).replace(os.sep, "/")
        if absolute.is_symlink():
            if _not_checkable(root, real_root, rel):
                continue  # a FIFO, socket or device
            target = os.path.relpath(absolute.resolve(), real_root).replace(os.sep, "/")
            if absolute.is_file() and file_kind(target) != file_kind(rel):
                chosen.add(rel)  # another kind of file under this name: checked as named
                continue
            if links is not None and absolute.is_file():
                links[rel] = target
            rel = target
        if absolute.is_file():
            chosen.add(rel)
        else:
            folders.append(rel)
    if not folders:
        return sorted(chosen)
    # Include is asked only of the folders' files that are not Markdown; exclude of
    # every file (one compiled pathspec when there is any).
    included = Globs(config.include + config.extend_include).matches
    excluded = Globs(config.exclude).compiled()
    candidates: list[str] | None = None
    in_folders: list[str] = []
    for rel in folders:
        if candidates is None:
            candidates = _candidates(root, config, listing, LISTING)
        prefix = "" if rel == "." else rel.rstrip("/") + "/"
        for f in candidates:
            if f.startswith(prefix) and not excluded(f):
                if f.lower().endswith(MARKDOWN_SUFFIXES) or included(f):
                    in_folders.append(f)
    return sorted(chosen.union(_as_targets(root, in_folders, links)))


@dataclass
class Changes:
    """What changed: every path, and which of them were added or deleted (a rename
    is both), relative to the project root. `known_status` is False when git could
    not say which were added (then the file list counts as changed)."""

    paths: set[str] = field(default_factory=set)
    added: set[str] = field(default_factory=set)
    deleted: set[str] = field(default_factory=set)
    known_status: bool = True


def changed_files(root: Path, rev: str) -> set[str]:
    """Files changed since `rev` (committed, staged, unstaged or untracked)."""
    return changes_since(root, rev).paths


def changes_since(root: Path, rev: str) -> Changes:
    """Files changed since `rev` (committed, staged, unstaged or untracked), with
    which were added or deleted. Every name is read NUL-separated (`-z`), so no
    file name is quoted, escaped or dropped.

    `rev` is checked to name a commit before it reaches `git diff`, and never as an
    option: `--since=--output=/tmp/f` would otherwise have git write that file.
    """

    def git(*args: str) -> list[str]:
        return _git_names(root, args, f"--since {rev}")

    if rev.startswith("-"):
        raise ConfigError(f"--since {rev}: not a revision (it starts with '-')")
    if "\0" in rev:  # an MCP caller's: no command line can hold one
        raise ConfigError(f"--since {rev!r}: not a revision (a NUL character)")
    git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    changes = _from_name_status(
        git("diff", "-z", "--name-status", "--no-renames", "--relative", rev, "--")
    )
    untracked = git("ls-files", "-z", "--others", "--exclude-standard")
    changes.paths.update(untracked)
    changes.added.update(untracked)
    return changes


def staged_changes(root: Path, paths: list[str]) -> Changes:
    """The given paths as changed, with what the index says was added or deleted
    against HEAD (a pre-commit hook's view; deleted files are never passed to it)."""
    changes = Changes(paths=set(paths))
    try:
        staged = _git_names(
            root, ("diff", "-z", "--cached", "--name-status", "--no-renames", "--relative"), ""
        )
    except ConfigError:  # outside git, or no commit yet: no status to go by
        changes.known_status = False
        return changes
    found = _from_name_status(staged)
    changes.paths |= found.deleted
    changes.added, changes.deleted = found.added, found.deleted
    return changes


def _from_name_status(fields: list[str]) -> Changes:
    """`git diff -z --name-status` output: status, NUL, path, NUL, ..."""
    changes = Changes()
    for status, path in zip(fields[::2], fields[1::2], strict=False):
        changes.paths.add(path)
        if status.startswith("A"):
            changes.added.add(path)
        elif status.startswith("D"):
            changes.deleted.add(path)
    return changes


def _git_names(root: Path, args: tuple[str, ...], what: str) -> list[str]:
    import subprocess  # only where git runs: a one-file check may never list

    result = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    if result.returncode != 0:
        stderr = result.stderr.decode("utf-8", "replace")
        raise ConfigError(f"{what}: {_git_error(stderr)}")
    names = result.stdout.decode("utf-8", "surrogateescape").split("\0")
    return [name for name in names if name]


def repository_root(root: Path) -> Path | None:
    """The git top level above (or at) root, None outside git: annotations and SARIF
    name files from there, wherever guidelint was started."""
    top = (_git_output(root, "rev-parse", "--show-toplevel") or "").rstrip("\n")
    return Path(top).resolve() if top else None


def _git_output(root: Path, *args: str) -> str | None:
    """What `git -C root ARGS` prints, or None when git is missing, hangs or fails."""
    import subprocess

    try:
        result = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if result.returncode != 0:
        return None
    return result.stdout.decode("utf-8", "surrogateescape")


def _git_error(stderr: str) -> str:
    """git's own one-line reason (its `fatal:` line), not the usage text after it."""
    if "not a git repository" in stderr.lower():
        return "not a git repository, so there is no history to compare with"
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line
    return lines[0] if lines else "git failed"
