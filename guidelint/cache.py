"""The result cache: an unchanged file in an unchanged project is not checked again.

A file's findings are stored under a key made of its path and the hash of its bytes,
inside a cache file named by a *context* digest that covers what can change every
file's findings:

- guidelint itself: version, the hash of its own source, Python and markdown-it-py,
  and which optional packages (libcst, mcp, ruff, torch, ...) are installed;
- the configuration, the selected rules and `--live`;
- the contents of whatever the rules declare in `Rule.cache_inputs(project)`.

Everything else a file's findings rest on is what its rules looked up, recorded per
file while it is checked (rules see a `RecordingProject`): `Project.exists()` and
`Project.read()` of a path, and the file list (`Project.files()`: the whole list;
through `discover()`: only the files a plain check checks; `Project.extensions()`:
only the set of suffixes; `Listing.on_use(CheckedLookup(rel))`: only whether a plain
check checks that one file, as the tool catalog asks to place its GL109 problems).
Each entry keeps its lookups and the cache file the answer each got; a later run
uses an entry only while all its answers still hold. Editing a script re-checks the
guides that read it, adding a `.txt` the files that used the whole list. A file
whose results hold a GL000 (a rule crashed) is never stored.
Writes are atomic, and a cache file that cannot be read, parsed or understood is
ignored: the cache can make a run faster, never wrong or broken.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from guidelint import __version__
from guidelint.discovery import (
    EXTENSIONS,
    CheckedLookup,
    Listing,
    Lookup,
    PathLookup,
    ViewLookup,
    discover,
    lookup_from_key,
)
from guidelint.findings import Finding
from guidelint.project import Memo, Project
from guidelint.sources import SourceFile

if TYPE_CHECKING:
    from guidelint.rule import Rule

T = TypeVar("T")

FORMAT = 3  # 2: each entry keeps its own lookups; 3: findings as Finding.as_json
KEEP_CONTEXTS = 8  # cache files kept per project; older contexts are pruned
RESULTS_FILE = re.compile(r"results-[0-9a-f]{32}\.json")  # what `ResultCache` names them
GITIGNORE = "# Created by guidelint: the result cache.\n*\n"
DEFAULT_FOLDER = ".guidelint_cache"  # guidelint's by its name (`run` makes folders in it too)


def _sha(data: bytes) -> str:
    import hashlib  # only with the cache on: `--no-cache` never hashes

    return hashlib.sha256(data).hexdigest()


def _file_digest(path: Path, max_size: int) -> str | None:
    """Content hash of a file; size and mtime for huge ones; None when it is absent."""
    try:
        stat = path.stat()
        if stat.st_size > max_size:
            return f"size={stat.st_size},mtime={stat.st_mtime_ns}"
        return _sha(path.read_bytes())
    except OSError:
        return None


# A file changed this recently may change again within one tick of the file
# system's clock without its stat changing (git's "racy" files): its bytes count too.
RACY_NS = 3_000_000_000


def _code_digest(package: Path | None = None, now_ns: int | None = None) -> str:
    """guidelint's own files: a rule edited in place must not reuse old results.

    Keyed on each file's path, size, mtime, ctime and inode (a stat, not a read:
    hashing every source cost more than the rest of a warm one-file check). Any
    write changes the ctime, which no tool can set back; a file whose mtime or
    ctime is within RACY_NS of now is also hashed, so an edit within the same clock
    tick still changes the key (and the key of a file just written changes once
    more when it settles: one extra miss, never a stale hit).
    """
    import hashlib

    package = package or Path(__file__).parent
    now_ns = time.time_ns() if now_ns is None else now_ns
    digest = hashlib.sha256()
    stats = []
    for rel, entry in _package_files(str(package), ""):
        stat = entry.stat()
        stats.append(
            f"{rel}\0{stat.st_size}\0{stat.st_mtime_ns}\0{stat.st_ctime_ns}\0{stat.st_ino}"
        )
        if now_ns - max(stat.st_mtime_ns, stat.st_ctime_ns) < RACY_NS:
            with open(entry.path, "rb") as source:
                stats.append(hashlib.sha256(source.read()).hexdigest())
    digest.update("\n".join(stats).encode())
    return digest.hexdigest()


def _package_files(folder: str, prefix: str) -> Iterator[tuple[str, os.DirEntry[str]]]:
    """(relative path, entry) of every file of the package but compiled bytecode, sorted."""
    with os.scandir(folder) as listing:
        entries = sorted(listing, key=lambda e: e.name)
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                yield from _package_files(entry.path, f"{prefix}{entry.name}/")
        elif not entry.name.endswith((".pyc", ".pyo")):
            yield prefix + entry.name, entry


def context_digest(project: Project, rules: list[Rule], codes: list[str] | None = None) -> str:
    """Everything besides a file's own bytes that can change its findings: `codes`
    the selected rules (default: those of `rules`), `rules` those that declare inputs."""
    root, max_size = project.root, project.config.max_file_size  # files above: size, mtime
    declared = sorted({rel for rule in rules for rel in rule.cache_inputs(project)})
    state = {
        "format": FORMAT,
        "guidelint": __version__,
        "code": _code_digest(),
        "python": sys.version,
        "parsers": installed_versions(PARSERS),
        "optional": optional_packages(),
        "config": project.config.model_dump(mode="json"),
        "rules": sorted(codes if codes is not None else (rule.code for rule in rules)),
        "live": project.live,
        "declared": {rel: _file_digest(root / rel, max_size) for rel in declared},
    }
    return _sha(json.dumps(state, sort_keys=True, default=str).encode())


# Packages whose presence changes findings (a rule that needs libcst reports GL000
# without it; GL402 needs ruff): a cache made in another environment must not apply.
OPTIONAL_PACKAGES = ("libcst", "mcp", "ruff", "torch", "diffusers", "transformers")


def optional_packages() -> dict[str, str | None]:
    """Installed version of each optional package (None: absent); no import needed."""
    return installed_versions(OPTIONAL_PACKAGES)


# The Markdown parsers: a new release may place spans differently.
PARSERS = ("markdown-it-py", "markdown-it-pyrs")


def installed_versions(names: tuple[str, ...]) -> dict[str, str | None]:
    """The version of each distribution as its `NAME-VERSION.dist-info` (or egg-info)
    folder on sys.path names it, the first one found winning as for an import.

    Read from folder names, not with importlib.metadata, which imports the email
    package and parses every METADATA file: a one-file check would pay for it.
    """
    wanted = {_normal(name): name for name in names}
    found: dict[str, str | None] = dict.fromkeys(names)
    for entry in sys.path:
        try:
            listing = os.listdir(entry or ".")
        except OSError:
            continue
        for item in listing:
            stem, dot, suffix = item.rpartition(".")
            if not dot or suffix not in ("dist-info", "egg-info"):
                continue
            distribution, _, version = stem.partition("-")
            name = wanted.get(_normal(distribution))
            if name is not None and found[name] is None:
                found[name] = version.split("-")[0] or None
    return found


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


@dataclass(frozen=True)
class Slot:
    """A file's place in the cache (`ResultCache.lookup`): its key, and the findings
    held there with the lookups they rest on (None: none hold, check it)."""

    key: str
    findings: list[Finding] | None
    lookups: dict[Lookup, str]


def cacheable(findings: list[Finding]) -> bool:
    """A rule that crashed (GL000) may work next time: never replay its crash."""
    return not any(f.code == "GL000" for f in findings)


def entry_key(rel: str, data: bytes) -> str:
    return _sha(rel.encode("utf-8", "surrogatepass") + b"\0" + data)


class RecordingProject(Project):
    """The project as rules see it while lookups are recorded: each `exists()`,
    `read()` and use of the file list is noted, so a later run (or `--since`) can
    tell which files' findings rest on an answer that changed.

    A `memo()` value is computed once per run but feeds every file that asks for
    it: the lookups its factory made are kept with it and noted again for each
    file that uses it.
    """

    def __init__(self, project: Project) -> None:
        # A view, not a new project: the same configuration and the same caches.
        self.__dict__.update(project.__dict__)
        self.recorded: dict[Lookup, str] = {}  # lookup -> "exists", "read" or "view"
        self._memo_lookups: dict[Memo[Any, Any] | str, dict[Lookup, str]] = {}
        self._listing: Listing | None = None

    def _note(self, lookup: Lookup, kind: str) -> None:
        if kind == "read" or lookup not in self.recorded:
            self.recorded[lookup] = kind

    def exists(self, path: str) -> bool:
        self._note(PathLookup(path), "exists")
        return super().exists(path)

    def read(self, rel: str) -> SourceFile | None:
        self._note(PathLookup(rel), "read")
        return super().read(rel)

    def files(self) -> list[str]:
        if self._listing is None:
            self._listing = Listing(super().files(), lambda view: self._note(view, "view"))
        return self._listing

    def extensions(self) -> frozenset[str]:
        self._note(EXTENSIONS, "view")
        return super().extensions()

    def _memoized(self, key: Memo[Any, T] | str, factory: Callable[[], T]) -> T:
        lookups = self._memo_lookups.get(key)
        if lookups is None:
            outer, self.recorded = self.recorded, {}
            try:
                value = super()._memoized(key, factory)
            finally:
                lookups, self.recorded = self.recorded, outer
            self._memo_lookups[key] = lookups
        else:
            value = super()._memoized(key, factory)
        for looked_up, kind in lookups.items():
            self._note(looked_up, kind)
        return value

    def take_recorded(self) -> dict[Lookup, str]:
        """What was asked since the last call."""
        recorded, self.recorded = self.recorded, {}
        return recorded


# -- the cache ---------------------------------------------------------------------


class ResultCache:
    """Cached findings for one context: `lookup` a file, `store` what checking it
    found, `finish` the run (new entries are written then).

    Each entry keeps the lookups its file's rules made; the answer each lookup got is
    stored once per cache file. An entry is used only while every one of its answers
    still holds, so an edit re-checks just the files that looked at what changed.
    """

    def __init__(self, project: Project, folder: Path, context: str) -> None:
        self.project = project
        self.folder = folder
        self.context = context
        self.path = folder / f"results-{context[:32]}.json"
        self.entries: dict[str, dict[str, Any]] = {}
        self.fresh: dict[str, dict[str, Any]] = {}
        self.answers: dict[str, list[Any]] = {}  # lookup key -> [kind, answer seen]
        self._current: dict[tuple[str, str], Any] = {}  # this run's answers, once each
        self._checked_now: frozenset[str] | None = None
        # Project.warn() notes of the runs this context has seen: a run whose every
        # file comes from the cache runs no rule, yet must say the same.
        self.notices: list[str] = []
        self.hits = 0  # files answered from the cache (tests and benchmarks read it)

    # ---- the folder: opened below the root with no symlink followed (confine.py)

    def open_folder(self) -> int:
        """A descriptor of the cache folder, made if missing. Raises Outside (one
        line) when it is, or lies under, a symlink: a committed `.guidelint_cache ->
        $HOME` is neither read nor written through; OSError when it cannot be made."""
        root = self.project.root
        named = self.folder.relative_to(root) if self.folder.is_relative_to(root) else self.folder
        from guidelint.confine import Outside, open_dir  # `secrets` imports hashlib: not at start

        folder = open_dir(root, named, "cache folder")
        if named != Path(DEFAULT_FOLDER) and not _ours(folder):
            os.close(folder)
            raise Outside(
                f"{named}: cache folder is not guidelint's (it holds files and no "
                "guidelint .gitignore); guidelint does not write there"
            )
        return folder

    def _read(self) -> str:
        folder = self.open_folder()
        try:
            flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
            with os.fdopen(os.open(self.path.name, flags, dir_fd=folder), "rb") as handle:
                return handle.read().decode("utf-8")
        finally:
            os.close(folder)

    # ---- reading

    def load(self) -> None:
        """Read the cache file, keeping the entries whose lookups still hold; keep
        nothing if it is unreadable or made for another context."""
        try:
            data = json.loads(self._read())
            if data.get("format") != FORMAT or data.get("context") != self.context:
                return
            entries, answers = data["entries"], data["answers"]
            if not isinstance(entries, dict) or not isinstance(answers, dict):
                return
            holds = {key: self.answer(key, kind) == seen for key, (kind, seen) in answers.items()}
            kept = {
                key: entry
                for key, entry in entries.items()
                if all(holds.get(looked_up, False) for looked_up in entry["lookups"])
            }
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return
        notices = data.get("notices", [])
        self.entries = kept
        self.answers = {key: answers[key] for key, held in holds.items() if held}
        self.notices = [n for n in notices if isinstance(n, str)]

    def lookup(self, rel: str, data: bytes) -> Slot:
        """The file's place in the cache: its findings when an entry still holds, and
        the lookups they rest on; else a slot for `store`."""
        key = entry_key(rel, data)
        findings = self._get(key)
        if findings is None:
            return Slot(key, None, {})
        return Slot(key, findings, self._lookups_of(key))

    def _get(self, key: str) -> list[Finding] | None:
        entry = self.entries.get(key)
        if entry is None:
            return None
        try:
            findings = [Finding.from_json(item) for item in entry["findings"]]
        except (KeyError, TypeError, ValueError):
            del self.entries[key]  # one mangled entry: check that file again
            return None
        self.hits += 1
        return findings

    def _lookups_of(self, key: str) -> dict[Lookup, str]:
        """The lookups (-> kind) a cached entry's findings rest on."""
        entry = self.entries.get(key) or self.fresh.get(key) or {}
        answers = self.answers
        return {lookup_from_key(k): answers[k][0] for k in entry.get("lookups", ()) if k in answers}

    # ---- writing

    def store(self, slot: Slot, findings: list[Finding], lookups: dict[Lookup, str]) -> None:
        """Keep a checked file's findings and what they rest on, unless a rule
        crashed (GL000): that may work next time, and its crash is never replayed."""
        if cacheable(findings):
            self.merge({slot.key: entry_json(findings, lookups)})

    def take_fresh(self) -> dict[str, dict[str, Any]]:
        """The entries stored since the last call, each with its lookups' kinds, for
        the parent's `merge` (a pool worker's): the parent computes the answers."""
        fresh, self.fresh = self.fresh, {}
        for entry in fresh.values():
            entry["kinds"] = {k: self.answers[k][0] for k in entry["lookups"]}
        return fresh

    def merge(self, fresh: dict[str, dict[str, Any]]) -> None:
        """Take in new entries (this process's or a worker's), with today's answers."""
        for entry in fresh.values():
            for looked_up, kind in entry.pop("kinds", {}).items():
                known = self.answers.get(looked_up)
                if known is None or (kind == "read" and known[0] != "read"):
                    self.answers[looked_up] = [kind, self.answer(looked_up, kind)]
        self.fresh.update(fresh)

    def answer(self, key: str, kind: str) -> Any:
        """What a lookup (stored as `key`) answers now (computed once per run)."""
        if (key, kind) not in self._current:
            self._current[key, kind] = self._compute(lookup_from_key(key), kind)
        return self._current[key, kind]

    def _compute(self, lookup: Lookup, kind: str) -> Any:
        project = self.project
        if isinstance(lookup, CheckedLookup):  # one file's place, not the whole checked set
            return lookup.rel in self._checked()
        if isinstance(lookup, ViewLookup):
            return _view_digest(project, lookup.view)
        full = project.root / lookup.path
        if kind == "read":
            return _file_digest(full, project.config.max_file_size)
        return os.path.exists(full)

    def _checked(self) -> frozenset[str]:
        """The files a plain check checks (once per run, for the `checked:REL` views)."""
        if self._checked_now is None:
            project = self.project
            listing = Project.files(project)
            self._checked_now = frozenset(
                discover(project.root, project.config, [], listing=listing)
            )
        return self._checked_now

    def finish(self, notices: list[str]) -> list[str]:
        """Remember this run's notes and save; the notes of every run this context
        has seen, which a run must say even when no rule ran."""
        new = [n for n in notices if n not in self.notices]
        self.notices.extend(new)
        self.save(notices_changed=bool(new))
        return self.notices

    def save(self, notices_changed: bool = False) -> None:
        """Write atomically; a read-only or vanished folder just means no cache."""
        if not self.fresh and not notices_changed and self.path.exists():
            return
        entries = {**self.entries, **self.fresh}
        used = {looked_up for entry in entries.values() for looked_up in entry["lookups"]}
        payload = {
            "format": FORMAT,
            "context": self.context,
            "guidelint": __version__,
            "answers": {key: self.answers[key] for key in sorted(used) if key in self.answers},
            "notices": self.notices,
            "entries": entries,
        }
        try:
            folder = self.open_folder()
        except (OSError, ValueError):  # ValueError: confine.Outside, a symlink
            return
        try:
            _prepare_folder(folder)
            data = json.dumps(payload, separators=(",", ":")).encode()
            write_at(folder, self.path.name, data)
            _prune(folder)
        except OSError:
            pass
        finally:
            os.close(folder)


def write_at(folder: int, name: str, data: bytes) -> None:
    """`confine.write_at`: a temporary file and a rename in the folder, no link followed."""
    from guidelint.confine import write_at as write_no_follow

    write_no_follow(folder, name, data)


def _ours(folder: int) -> bool:
    """Whether a configured cache folder is guidelint's: empty (just made, or made
    empty), or holding the `.gitignore` guidelint writes first. A pull request's
    `cache-dir = "data"` (or `"."`) names a folder of the user's, whose files the
    prune would delete and whose new files the `*` would hide from git."""
    if not os.listdir(folder):
        return True
    try:
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
        with os.fdopen(os.open(".gitignore", flags, dir_fd=folder), "rb") as handle:
            return handle.read(len(GITIGNORE)) == GITIGNORE.encode()
    except OSError:
        return False


def _prepare_folder(folder: int) -> None:
    for name, text in (
        (".gitignore", GITIGNORE),
        ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"),
    ):
        try:
            os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            write_at(folder, name, text.encode())


def _prune(folder: int) -> None:
    """Keep the newest few contexts (config and rule edits each start a new one); only
    files named as guidelint names them (`results-` and 32 hex digits) are removed."""
    files = [n for n in os.listdir(folder) if RESULTS_FILE.fullmatch(n)]
    files.sort(key=lambda name: _mtime_at(folder, name), reverse=True)
    for old in files[KEEP_CONTEXTS:]:
        try:
            os.unlink(old, dir_fd=folder)
        except OSError:
            pass


def _mtime_at(folder: int, name: str) -> float:
    try:
        return os.stat(name, dir_fd=folder, follow_symlinks=False).st_mtime
    except OSError:
        return 0.0


def entry_json(findings: list[Finding], lookups: dict[Lookup, str]) -> dict[str, Any]:
    """A new cache entry; `kinds` travels to `merge`, which turns it into answers."""
    kinds = {lookup.key: kind for lookup, kind in lookups.items()}
    return {
        "findings": [f.as_json(stored=True) for f in findings],
        "lookups": sorted(kinds),
        "kinds": kinds,
    }


def _view_digest(project: Project, view: str) -> str:
    """A view of the file list, as a digest: the whole list, what a plain check
    checks, or the set of file-name suffixes."""
    listing = Project.files(project)
    if view == "checked":
        names = discover(project.root, project.config, [], listing=listing)
    elif view == "extensions":
        names = sorted(Project.extensions(project))
    else:
        names = listing
    return _sha("\0".join(names).encode("utf-8", "surrogateescape"))


def open_cache(
    project: Project, rules: list[Rule], codes: list[str] | None = None
) -> ResultCache | None:
    """The cache for this run, or None when caching is off or cannot apply.

    `--live` answers come from servers, not files, so a live run is never cached.
    """
    if not project.config.cache or project.live:
        return None
    try:
        context = context_digest(project, rules, codes)
    except Exception:  # a rule's cache_inputs failing costs the cache, not the run
        return None
    cache = ResultCache(project, project.root / project.config.cache_dir, context)
    try:
        os.close(cache.open_folder())
    except ValueError as outside:  # confine.Outside: a symlink; say so, then no cache
        project.warn(f"{outside} (no result cache this run)")
    except OSError:
        pass  # a file in its place, a read-only tree: no cache, no word
    cache.load()
    return cache
