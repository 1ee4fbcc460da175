"""The result cache: an unchanged file in an unchanged project is not checked again.

A file's findings are stored under a key made of its path and the hash of its bytes,
inside a cache file named by a *context* digest that covers everything else that
can change findings:

- guidelint itself: version, the hash of its own source, Python and markdown-it-py,
  and which optional packages (libcst, mcp, ruff, torch, ...) are installed;
- the configuration, the selected rules and `--live`;
- the project: the names of all files git lists (GL501's view of the tree), the
  contents of those that are not Markdown (settings, snapshots, scripts; size and
  mtime for files over 1 MB), and the contents of whatever the rules declare in
  `Rule.cache_inputs(project)`.

Reads a rule makes through `Project.exists()` / `Project.read()` (a referenced
path, the gotchas index) are recorded during a run (rules see a `RecordingProject`)
and stored with the cache file; a later run re-checks those answers first and drops
the cached results when one has changed. A file whose results hold a GL000 (a rule
crashed) is never stored. Writes are atomic, and a cache file that cannot be read,
parsed or understood is ignored: the cache can make a run faster, never wrong or
broken.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from guidelint import __version__
from guidelint.findings import Edit, Finding, Fix, Severity
from guidelint.fsio import write_atomic
from guidelint.project import Project
from guidelint.sources import MARKDOWN_SUFFIXES, SourceFile

if TYPE_CHECKING:
    from guidelint.rules.base import Rule

FORMAT = 1
KEEP_CONTEXTS = 8  # cache files kept per project; older contexts are pruned
# Project files above this size (data, weights) count by size and mtime, not content:
# hashing gigabytes of tracked data on every run would cost more than checking.
STATE_HASH_LIMIT = 1_000_000


def _sha(data: bytes) -> str:
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


def _code_digest() -> str:
    """guidelint's own source: a rule edited in place must not reuse old results."""
    package = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def context_digest(project: Project, rules: list[Rule], listing: list[str]) -> str:
    """Everything besides a file's own bytes that can change its findings."""
    import markdown_it

    root, max_size = project.root, project.config.max_file_size
    declared = sorted({rel for rule in rules for rel in rule.cache_inputs(project)})
    state = {
        "format": FORMAT,
        "guidelint": __version__,
        "code": _code_digest(),
        "python": sys.version,
        "markdown-it-py": markdown_it.__version__,
        "optional": optional_packages(),
        "config": project.config.model_dump(mode="json"),
        "rules": sorted(rule.code for rule in rules),
        "live": project.live,
        "files": listing,
        "contents": {
            rel: _file_digest(root / rel, STATE_HASH_LIMIT)
            for rel in listing
            if not rel.lower().endswith(MARKDOWN_SUFFIXES)
        },
        "declared": {rel: _file_digest(root / rel, max_size) for rel in declared},
    }
    return _sha(json.dumps(state, sort_keys=True, default=str).encode())


# Packages whose presence changes findings (a rule that needs libcst reports GL000
# without it; GL402 needs ruff): a cache made in another environment must not apply.
OPTIONAL_PACKAGES = ("libcst", "mcp", "ruff", "torch", "diffusers", "transformers")


def optional_packages() -> dict[str, str | None]:
    """Installed version of each optional package (None: absent); no import needed."""
    from importlib.metadata import PackageNotFoundError, version

    found: dict[str, str | None] = {}
    for name in OPTIONAL_PACKAGES:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = None
    return found


def cacheable(findings: list[Finding]) -> bool:
    """A rule that crashed (GL000) may work next time: never replay its crash."""
    return not any(f.code == "GL000" for f in findings)


def entry_key(rel: str, data: bytes) -> str:
    return _sha(rel.encode("utf-8", "surrogatepass") + b"\0" + data)


class RecordingProject(Project):
    """The project as rules see it while the cache is on: each `exists()` and `read()`
    is noted, so a later run can tell when an answer the findings rest on changed."""

    def __init__(self, project: Project) -> None:
        # A view, not a new project: the same configuration and the same caches.
        self.__dict__.update(project.__dict__)
        self.recorded: dict[str, str] = {}  # path -> "exists" or "read"

    def exists(self, path: str) -> bool:
        self.recorded.setdefault(path, "exists")
        return super().exists(path)

    def read(self, rel: str) -> SourceFile | None:
        self.recorded[rel] = "read"
        return super().read(rel)

    def take_recorded(self) -> dict[str, str]:
        """What was asked since the last call."""
        recorded, self.recorded = self.recorded, {}
        return recorded


# -- findings as JSON ------------------------------------------------------------


def finding_to_json(finding: Finding) -> dict[str, Any]:
    fix = finding.fix
    return {
        "code": finding.code,
        "name": finding.name,
        "severity": finding.severity.value,
        "message": finding.message,
        "path": finding.path,
        "position": [finding.line, finding.column, finding.end_line, finding.end_column],
        "snippet": finding.snippet,
        "fix": None
        if fix is None
        else {
            "edits": [[e.start, e.end, e.content] for e in fix.edits],
            "description": fix.description,
            "safe": fix.safe,
        },
    }


def finding_from_json(data: dict[str, Any]) -> Finding:
    """Raises KeyError/TypeError/ValueError on anything malformed."""
    line, column, end_line, end_column = (int(n) for n in data["position"])
    fix = data["fix"]
    return Finding(
        code=str(data["code"]),
        name=str(data["name"]),
        severity=Severity(data["severity"]),
        message=str(data["message"]),
        path=str(data["path"]),
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        snippet=str(data["snippet"]),
        fix=None
        if fix is None
        else Fix(
            edits=tuple(Edit(int(s), int(e), str(c)) for s, e, c in fix["edits"]),
            description=str(fix["description"]),
            safe=bool(fix["safe"]),
        ),
    )


# -- the cache ---------------------------------------------------------------------


class ResultCache:
    """Cached findings for one context; `put` collects new ones until `save`."""

    def __init__(self, project: Project, folder: Path, context: str) -> None:
        self.project = project
        self.folder = folder
        self.context = context
        self.path = folder / f"results-{context[:32]}.json"
        self.entries: dict[str, list[dict[str, Any]]] = {}
        self.fresh: dict[str, list[dict[str, Any]]] = {}
        self.lookups: dict[str, Any] = {}  # path -> answer seen ("exists" bool / digest)
        # Project.warn() notes of the runs this context has seen: a run whose every
        # file comes from the cache runs no rule, yet must say the same.
        self.notices: list[str] = []
        self.hits = 0

    # ---- reading

    def load(self) -> None:
        """Read the cache file; keep nothing if it is unreadable or the project moved on."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT or data.get("context") != self.context:
                return
            entries, lookups = data["entries"], data["lookups"]
            if not isinstance(entries, dict) or not isinstance(lookups, dict):
                return
            for path, answer in lookups.items():
                kind, seen = answer
                if self._answer(path, kind) != seen:
                    return  # a path a rule consulted changed: every result may be stale
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return
        notices = data.get("notices", [])
        self.entries = entries
        self.lookups = lookups
        self.notices = [n for n in notices if isinstance(n, str)]

    def get(self, key: str) -> list[Finding] | None:
        raw = self.entries.get(key)
        if raw is None:
            return None
        try:
            findings = [finding_from_json(item) for item in raw]
        except (KeyError, TypeError, ValueError):
            del self.entries[key]  # one mangled entry: check that file again
            return None
        self.hits += 1
        return findings

    # ---- writing

    def put(self, key: str, findings: list[Finding]) -> None:
        self.fresh[key] = [finding_to_json(f) for f in findings]

    def merge(self, fresh: dict[str, list[dict[str, Any]]], lookups: dict[str, str]) -> None:
        """Take in what a worker process computed."""
        self.fresh.update(fresh)
        self.note_lookups(lookups)

    def note_lookups(self, lookups: dict[str, str]) -> None:
        for path, kind in lookups.items():
            known = self.lookups.get(path)
            if known is None or (kind == "read" and known[0] != "read"):
                self.lookups[path] = [kind, self._answer(path, kind)]

    def _answer(self, path: str, kind: str) -> Any:
        full = self.project.root / path
        if kind == "read":
            return _file_digest(full, self.project.config.max_file_size)
        return os.path.exists(full)

    def note(self, notices: list[str]) -> bool:
        """Remember this run's notes; True when one is new."""
        new = [n for n in notices if n not in self.notices]
        self.notices.extend(new)
        return bool(new)

    def save(self, notices_changed: bool = False) -> None:
        """Write atomically; a read-only or vanished folder just means no cache."""
        if not self.fresh and not notices_changed and self.path.exists():
            return
        payload = {
            "format": FORMAT,
            "context": self.context,
            "guidelint": __version__,
            "lookups": self.lookups,
            "notices": self.notices,
            "entries": {**self.entries, **self.fresh},
        }
        try:
            self._prepare_folder()
            write_atomic(self.path, json.dumps(payload, separators=(",", ":")))
            self._prune()
        except OSError:
            pass

    def _prepare_folder(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        ignore = self.folder / ".gitignore"
        if not ignore.exists():
            write_atomic(ignore, "# Created by guidelint: the result cache.\n*\n")
        tag = self.folder / "CACHEDIR.TAG"
        if not tag.exists():
            write_atomic(tag, "Signature: 8a477f597d28d172789f06886806bc55\n")

    def _prune(self) -> None:
        """Keep the newest few contexts (config and rule edits each start a new one)."""
        files = sorted(self.folder.glob("results-*.json"), key=_mtime, reverse=True)
        for old in files[KEEP_CONTEXTS:]:
            try:
                old.unlink()
            except OSError:
                pass


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def open_cache(project: Project, rules: list[Rule]) -> ResultCache | None:
    """The cache for this run, or None when caching is off or cannot apply.

    `--live` answers come from servers, not files, so a live run is never cached.
    """
    if not project.config.cache or project.live:
        return None
    listing = project.files()
    try:
        context = context_digest(project, rules, listing)
    except Exception:  # a rule's cache_inputs failing costs the cache, not the run
        return None
    cache = ResultCache(project, project.root / project.config.cache_dir, context)
    cache.load()
    return cache
