"""The pipeline: load each file, run the selected rules, apply suppressions.

Data flows one way: discover -> load/parse -> rules -> findings -> suppress.
Reporting, fixing and baselines happen after, on the collected findings.
"""

from __future__ import annotations

import os
import posixpath
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from guidelint import suppress
from guidelint.cache import RecordingProject, ResultCache, Slot, open_cache
from guidelint.discovery import Lookup
from guidelint.errors import ConfigError
from guidelint.findings import Finding, Severity
from guidelint.globs import Globs
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.rules.gl000_internal_error import InternalError
from guidelint.rules.gl001_unreadable_file import UnreadableFile
from guidelint.rules.gl002_unused_suppression import UnusedSuppression
from guidelint.rules.index import BY_CODE, RuleEntry, idle_on, in_scope, load, rule_names
from guidelint.settings import table_name
from guidelint.sources import Derived, SourceFile, Unreadable, from_bytes, read_bytes

if TYPE_CHECKING:
    from guidelint.config import Settings

# Below this many files a process pool costs more than it saves.
PARALLEL_THRESHOLD = 64
# With the default jobs (none on the command line or in the configuration), a pool
# also needs this much text: a second process costs about 0.12 s of CPU (its start,
# page faults, lazy set-up, more GL402 ruff calls) and saves in wall time about half
# the work less its set-up; the wall time saved is worth that CPU from about 1.25 MB
# (0.25-0.3 s of CPU a MB). en/docs' 93 and 166 files (0.9 and 1.1 MB) cost 35-40 %
# more CPU with two processes, for no wall time measured on the loaded machine.
PARALLEL_BYTES = 1_250_000
# Files read, prepared together (Rule.prepare) and checked before the next ones are
# read: few enough that memory stays flat, enough that one ruff call serves many.
BATCH_SIZE = 256


@dataclass(frozen=True)
class Selection:
    """Which rule codes run, and per-file exceptions."""

    codes: frozenset[str]
    per_file_ignores: tuple[tuple[Globs, tuple[str, ...]], ...] = ()
    severity: tuple[tuple[str, Severity], ...] = ()

    def enabled_for(self, code: str, rel: str) -> bool:
        if code not in self.codes:
            return False
        for globs, prefixes in self.per_file_ignores:
            if globs.matches(rel) and any(_matches(code, p) for p in prefixes):
                return False
        return True

    def severity_of(self, code: str, default: Severity) -> Severity:
        best = None
        for prefix, severity in self.severity:
            if _matches(code, prefix) and (best is None or len(prefix) > len(best[0])):
                best = (prefix, severity)
        return best[1] if best else default


def _matches(code: str, selector: str) -> bool:
    selector = selector.upper()
    return selector == "ALL" or code.startswith(selector)


def select_codes(codes: Iterable[str], select: list[str], ignore: list[str]) -> frozenset[str]:
    """ruff-style: the longest matching selector decides; ignore wins ties."""
    enabled = set()
    for code in codes:
        best_select = max((len(s) for s in select if _matches(code, s)), default=-1)
        best_ignore = max((len(s) for s in ignore if _matches(code, s)), default=-1)
        if best_select >= 0 and best_select > best_ignore:
            enabled.add(code)
    return frozenset(enabled)


def build_selection(config: Settings, source: Path | None = None) -> Selection:
    """The rules a configuration selects; ConfigError names an unknown rule code, and
    where it was written (the configuration file `source`, else the command line)."""
    check_selectors(config, source)
    codes = select_codes(BY_CODE, config.select + config.extend_select, config.ignore)
    if config.harnesses:  # only the rules of the harnesses the repository steers
        codes = harness_codes(config.harnesses, codes, source)
    per_file = tuple(
        (Globs([pattern]), tuple(selectors))
        for pattern, selectors in config.per_file_ignores.items()
    )
    return Selection(codes, per_file, tuple((k.upper(), v) for k, v in config.severity.items()))


def harness_codes(keys: list[str], codes: Iterable[str], source: Path | None) -> frozenset[str]:
    """The selected codes that concern one of these harnesses; ConfigError for a key
    guidelint does not know (with a did-you-mean)."""
    from guidelint.tools.harnesses import codes_for, unknown_harness

    where = f"{source}: {table_name(source)}" if source else "command line:"
    for key in keys:
        problem = unknown_harness(key)
        if problem is not None:
            raise ConfigError(f"{where} harnesses: {problem}")
    chosen = codes_for(keys, sorted(codes))
    return frozenset(c for c in codes if c.startswith("GL0")) | frozenset(chosen)


def check_selectors(config: Settings, source: Path | None) -> None:
    """Every code or prefix in select/ignore/per-file-ignores/severity must name rules."""
    groups = {
        "select": config.select,
        "extend-select": config.extend_select,
        "ignore": config.ignore,
        "severity": list(config.severity),
    }
    for pattern, selectors in config.per_file_ignores.items():
        groups[f"per-file-ignores.{pattern}"] = selectors
    where = f"{source}: {table_name(source)}" if source else "command line:"
    codes = list(BY_CODE)
    for key, selectors in groups.items():
        for selector in selectors:
            _check_selector(selector, codes, f"{where} {key}")


def _check_selector(selector: str, codes: list[str], where: str) -> None:
    upper = selector.upper()
    if upper == "ALL" or any(code.startswith(upper) for code in codes):
        return
    import difflib

    hint = difflib.get_close_matches(upper, codes, n=1)
    suggestion = f" (did you mean '{hint[0]}'?)" if hint else ""
    raise ConfigError(f"{where}: unknown rule code '{selector}'{suggestion}")


# -- a file reached through symlinks: checked once, as its target, with their roles


def role_links(links: Mapping[str, str]) -> dict[str, str]:
    """Of the links inside the project (link -> target, `discovery.link_targets`),
    those through which a harness reads the target under a role of the link's own
    name or place: `CLAUDE.md -> AGENTS.md` makes Claude Code load AGENTS.md's text as
    a CLAUDE.md, so the rules of a CLAUDE.md apply to it as well. A README or a docs
    page linked elsewhere has no such role: it is only its target, checked once."""
    from guidelint.doc_kind import is_steering

    return {link: target for link, target in links.items() if is_steering(link)}


def sibling_roles(root: Path, rels: Iterable[str]) -> dict[str, str]:
    """Steering-named links beside the files that lead to them (`CLAUDE.md ->
    AGENTS.md`), link -> target: found with a few `lstat`s per folder, without the
    project's file list, so a check of AGENTS.md alone reads it as CLAUDE.md too."""
    from guidelint.discovery import link_targets
    from guidelint.doc_kind import STEERING_NAMES

    wanted = set(rels)
    folders = {posixpath.dirname(rel) for rel in wanted}
    near = {posixpath.join(folder, name) for folder in folders for name in STEERING_NAMES}
    found = link_targets(root, sorted(near - wanted))
    return {link: target for link, target in found.items() if target in wanted}


def fold_roles(findings: Iterable[Finding], roles: Mapping[str, str]) -> list[Finding]:
    """Findings of files checked under a role link's name (`role_links`) moved to the
    target's path, each line's finding once: what the target's own check found, or
    another link's, is not repeated. A moved finding names the link it was read
    through, and carries no fix: `--fix` edits the target through its own check.

    A suppression is unused (GL002) only when it is under every name: one that only
    the CLAUDE.md reading needs is used."""
    names = Counter(roles.values())  # per target, its role links (it is one name more)
    findings = sorted(findings, key=lambda f: f.path in roles)  # the target's own first
    unused = Counter(_role_key(f, roles.get(f.path, f.path)) for f in findings if _is_unused(f))
    kept: list[Finding] = []
    seen: set[tuple[str, int, int, str, str]] = set()
    for finding in findings:
        target = roles.get(finding.path, finding.path)
        if not names[target]:
            kept.append(finding)  # no role link leads to it
            continue
        key = _role_key(finding, target)
        if key in seen or (_is_unused(finding) and unused[key] <= names[target]):
            continue  # reported already, or a suppression used under another name
        seen.add(key)
        if finding.path != target:
            note = f" (read as `{finding.path}`, a symlink to this file)"
            finding = finding.replace(path=target, message=finding.message + note, fix=None)
        kept.append(finding)
    return sorted(kept, key=lambda f: f.sort_key)


def _is_unused(finding: Finding) -> bool:
    return finding.code == UnusedSuppression.code


def _role_key(finding: Finding, path: str) -> tuple[str, int, int, str, str]:
    return (path, finding.line, finding.column, finding.code, finding.message)


class Engine:
    def __init__(self, project: Project, selection: Selection) -> None:
        self.project = project
        self.selection = selection
        # Rules load when a file they may apply to comes (rules.index): `rules` holds
        # those loaded so far (and any a caller adds), `_unloaded` the other selected ones.
        self.rules: list[Rule] = []
        self._unloaded = [e for e in BY_CODE.values() if e.code in selection.codes and e.kinds]
        self._gated = [entry for entry in self._unloaded if entry.needs]
        self._idle = Derived("engine.idle", self._load_for)  # this engine's, per file
        # The engine's own rules: it reports what no other rule can see.
        self._internal_error = InternalError()
        self._unreadable_file = UnreadableFile()
        self._unused_suppression = UnusedSuppression()
        self.cache: ResultCache | None = None
        # While recording: what each checked file's findings rest on (lookup -> kind).
        self.lookups: dict[str, dict[Lookup, str]] | None = None

    def use_cache(self) -> ResultCache | None:
        """Turn on the result cache for check_files (None when off or not possible).

        From then on rules see a RecordingProject, which notes what they look up.
        """
        self.cache = open_cache(self.project, self.rules_with_inputs(), self.rule_codes())
        if self.cache is not None:
            self.record_lookups()
        return self.cache

    def record_lookups(self) -> None:
        """Note per file what its rules looked up (`self.lookups`, for `--since`)."""
        if not isinstance(self.project, RecordingProject):
            self.project = RecordingProject(self.project)
        if self.lookups is None:
            self.lookups = {}

    def rule_codes(self) -> list[str]:
        """The codes of every selected rule, loaded or not."""
        codes = {code for code in self.selection.codes if code in BY_CODE}
        return sorted(codes | {rule.code for rule in self.rules})

    def rules_with_inputs(self) -> list[Rule]:
        """Every selected rule that declares `cache_inputs` (loaded now), for the
        result cache's key and `--since`."""
        # A rule already imported costs nothing to load, and may have been given
        # inputs after its class was indexed (a test patching `cache_inputs`).
        self._load_where(lambda e: e.inputs or f"guidelint.rules.{e.module}" in sys.modules)
        return [rule for rule in self.rules if type(rule).cache_inputs is not Rule.cache_inputs]

    def _load_where(self, wanted: Callable[[RuleEntry], bool]) -> None:
        still = []
        for entry in self._unloaded:
            if wanted(entry):
                self.rules.append(load(entry)())
            else:
                still.append(entry)
        self._unloaded = still

    def _rules_for(self, file: SourceFile) -> set[str]:
        """Load the selected rules that may apply to this file; the codes of those
        that apply but find nothing in it (`RuleEntry.needs`): they are not run.
        Asked twice per file (prepare, check): the second time is the first's answer,
        as every rule the file wanted is loaded by then."""
        return file.derived(self._idle)

    def _load_for(self, file: SourceFile) -> set[str]:
        idle = {
            entry.code
            for entry in self._gated
            if file.kind in entry.kinds
            and self.selection.enabled_for(entry.code, file.rel)
            and idle_on(entry, file, self.project)
        }
        scopes: dict[str, bool] = {}  # several rules share a scope test (GL2xx: gotchas)

        def wanted(entry: RuleEntry) -> bool:
            if file.kind not in entry.kinds or entry.code in idle:
                return False
            if not self.selection.enabled_for(entry.code, file.rel):
                return False
            if entry.scope not in scopes:
                scopes[entry.scope] = in_scope(entry, file, self.project)
            return scopes[entry.scope]

        self._load_where(wanted)
        return idle

    def _take_recorded(self) -> dict[Lookup, str]:
        project = self.project
        return project.take_recorded() if isinstance(project, RecordingProject) else {}

    # -- one file -------------------------------------------------------------

    def check_file(self, rel: str) -> list[Finding]:
        """Every finding for one file; never raises for bad input."""
        return self.check_batch([rel])

    def check_batch(self, rels: list[str]) -> list[Finding]:
        """Every finding for a few files (BATCH_SIZE at most at a time): each is read
        and looked up in the cache, rules `prepare` the rest together (one ruff call
        for the batch), then each is checked and let go."""
        findings: list[Finding] = []
        for start in range(0, len(rels), BATCH_SIZE):
            pending: list[tuple[SourceFile, Slot | None]] = []
            for rel in rels[start : start + BATCH_SIZE]:
                loaded = self._load(rel, findings)
                if loaded is not None:
                    pending.append(loaded)
            self.prepare([file for file, _ in pending])
            pending.reverse()
            while pending:  # popped: a checked file is let go before the next one
                file, slot = pending.pop()
                self._take_recorded()  # nothing asked before this file counts for it
                found = self.check_source(file)
                recorded = self._take_recorded()
                self._note_lookups(file.rel, recorded)
                if slot is not None and self.cache is not None:
                    self.cache.store(slot, found, recorded)
                findings.extend(found)
        return findings

    def check_sources(self, files: list[SourceFile]) -> list[Finding]:
        """Every finding for files already loaded, prepared together (Rule.prepare)."""
        self.prepare(files)
        return [finding for file in files for finding in self.check_source(file)]

    def _load(self, rel: str, findings: list[Finding]) -> tuple[SourceFile, Slot | None] | None:
        """The file to check and its cache slot; None when its findings are known
        already (unreadable, or cached), which then go to `findings`."""
        path = self.project.root / rel
        try:
            data = read_bytes(path, self.project.config.max_file_size, self.project.root)
        except Unreadable as error:
            self._note_lookups(rel, {})  # it rests on its own bytes alone
            findings.extend(self._unreadable(rel, error))
            return None
        slot = None
        if self.cache is not None:
            slot = self.cache.lookup(rel, data)
            if slot.findings is not None:
                self._note_lookups(rel, slot.lookups)
                findings.extend(slot.findings)
                return None
        try:
            return from_bytes(path, rel, data, self.project.config.max_file_size), slot
        except Unreadable as error:
            self._note_lookups(rel, {})
            findings.extend(self._unreadable(rel, error))
            return None

    def prepare(self, files: list[SourceFile]) -> None:
        """Let each rule do the work it shares over many files once (Rule.prepare)."""
        if not files:
            return
        for file in files:
            self._rules_for(file)
        for rule in self.rules:
            if type(rule).prepare is Rule.prepare:
                continue
            mine = [
                f
                for f in files
                if f.kind in rule.file_kinds and self.selection.enabled_for(rule.code, f.rel)
            ]
            if not mine:
                continue
            try:
                rule.prepare(mine, self.project)
            except ConfigError:
                raise
            except Exception:  # its check() does the work again, and reports the crash
                continue

    def _note_lookups(self, rel: str, lookups: dict[Lookup, str]) -> None:
        if self.lookups is not None:
            self.lookups[rel] = lookups

    def check_text(self, rel: str, text: str) -> list[Finding]:
        """Every finding for a file's text as given (`--fix` checks what it edits)."""
        return self.check_source(SourceFile(path=self.project.root / rel, rel=rel, text=text))

    def _unreadable(self, rel: str, error: Unreadable) -> list[Finding]:
        if not self.selection.enabled_for(UnreadableFile.code, rel):
            return []
        return [self._unreadable_file.from_error(rel, error)]

    def check_source(self, file: SourceFile) -> list[Finding]:
        findings: list[Finding] = []
        idle = self._rules_for(file)
        ran = set(idle)  # they apply, and find nothing: as if they ran
        for rule in self.rules:
            if rule.code in idle:
                continue
            # file_kinds first: applies_to() only narrows, and may import heavy modules.
            if file.kind not in rule.file_kinds:
                continue
            if not self.selection.enabled_for(rule.code, file.rel):
                continue
            try:
                if not rule.applies_to(file, self.project):
                    continue
                ran.add(rule.code)
                findings.extend(rule.check(file, self.project))
            except ConfigError:  # a usage problem (e.g. a live server failed): exit 2
                raise
            except Exception as error:  # one broken rule must not stop the others
                if self._extra_missing(error):
                    continue
                findings.append(self._internal_error.from_exception(file, rule.code, error))
        findings = [self._with_severity(f) for f in findings]
        return sorted(self._suppress(file, findings, ran), key=lambda f: f.sort_key)

    def _extra_missing(self, error: Exception) -> bool:
        """An optional extra is not installed: one line naming it, not a GL000 per file."""
        from guidelint.extras import install_hint, missing_extra

        extra = missing_extra(error)
        if extra is None:
            return False
        assert isinstance(error, ImportError)
        self.project.warn(install_hint(error, extra))  # once per run, whatever the rules
        return True

    def _with_severity(self, finding: Finding) -> Finding:
        severity = self.selection.severity_of(finding.code, finding.severity)
        if severity == finding.severity:
            return finding
        return finding.replace(severity=severity)

    def _suppress(self, file: SourceFile, findings: list[Finding], ran: set[str]) -> list[Finding]:
        applied = suppress.apply(file, findings, ran, self._known_rules)
        if not applied.unused and not applied.problems:
            return applied.kept
        kept = applied.kept
        if self.selection.enabled_for(UnusedSuppression.code, file.rel):
            gl002 = self._unused_suppression
            kept.extend(
                gl002.from_suppression(file, u.directive, list(u.codes)) for u in applied.unused
            )
            kept.extend(gl002.from_problem(file, p.span, p.message) for p in applied.problems)
        return kept

    def _known_rules(self) -> suppress.KnownRules:
        """Every rule the registry has, and any this engine was given besides."""
        names = {**rule_names(), **{rule.name: rule.code for rule in self.rules}}
        codes = list({**BY_CODE, **{rule.code: rule for rule in self.rules}})
        return suppress.KnownRules(codes, names)

    # -- many files -------------------------------------------------------------

    def check_files(
        self,
        rels: list[str],
        jobs: int | None = None,
        progress: Progress | None = None,
        progress_every: int = 500,
    ) -> list[Finding]:
        """Findings of many files: cached ones first, the rest in parallel when worth it.

        `progress(done, total)` hears of the run every `progress_every` files or so; the
        run stays one: one pool, one cache save (a pool forked and a cache written per
        slice of files cost each slice the workers' set-up and the whole cache's write).
        """
        findings: list[Finding] = []
        todo = rels
        if self.cache is not None:
            todo = []
            for rel in rels:
                cached = self._cached(rel)
                if cached is None:
                    todo.append(rel)
                else:
                    findings.extend(cached)
        heard = _Heard(progress, len(rels) - len(todo), len(rels), progress_every)
        asked = jobs or self.project.config.jobs
        jobs = asked or os.cpu_count() or 1
        if jobs > 1 and len(todo) >= PARALLEL_THRESHOLD and (asked or self._worth_a_pool(todo)):
            for result in _check_in_pool(self._check_chunk, todo, jobs, heard):
                findings.extend(self._take_in(result))
        else:
            every = max(1, progress_every) if progress is not None else max(1, len(todo))
            for start in range(0, len(todo), every):
                part = todo[start : start + every]
                findings.extend(self.check_batch(part))
                heard.done(len(part))
        if self.cache is not None:
            for notice in self.cache.finish(self.project.warnings):
                self.project.warn(notice)  # what the cached files' rules said before
        return sorted(findings, key=lambda f: f.sort_key)

    def _worth_a_pool(self, rels: list[str]) -> bool:
        """Whether the files hold PARALLEL_BYTES (their sizes added up until they do)."""
        root = self.project.root
        total = 0
        for rel in rels:
            try:
                total += os.stat(os.path.join(root, rel)).st_size
            except OSError:
                continue  # unreadable: GL001 says so, at no cost worth a process
            if total >= PARALLEL_BYTES:
                return True
        return False

    def _cached(self, rel: str) -> list[Finding] | None:
        assert self.cache is not None
        try:
            data = read_bytes(self.project.root / rel, self.project.config.max_file_size)
        except Unreadable:
            return None
        slot = self.cache.lookup(rel, data)
        if slot.findings is not None:
            self._note_lookups(rel, slot.lookups)
        return slot.findings

    # -- in a pool worker, and back in the parent

    def _check_chunk(self, chunk: list[str]) -> _ChunkResult:
        """A pool worker's part: its files' findings, and what the parent must learn."""
        if self.lookups is not None:
            self.lookups = {}  # only this chunk's go back
        findings = self.check_batch(chunk)
        fresh = self.cache.take_fresh() if self.cache is not None else {}
        return _ChunkResult(findings, fresh, self.lookups or {}, list(self.project.warnings))

    def _take_in(self, result: _ChunkResult) -> list[Finding]:
        """What a worker learnt, made this process's; its findings."""
        for message in result.warnings:
            self.project.warn(message)
        if self.cache is not None:
            self.cache.merge(result.fresh)
        if self.lookups is not None:
            self.lookups.update(result.lookups)
        return result.findings


Progress = Callable[[int, int], None]


class _Heard:
    """Tells `progress` (done, total) each time another `every` files are done, and at
    the end; files answered by the cache count as done from the start."""

    def __init__(self, progress: Progress | None, done: int, total: int, every: int) -> None:
        self.progress = progress
        self.start = self.count = done
        self.total = total
        self.every = max(1, every)
        self.next_mark = done + self.every

    def restart(self) -> None:
        """Count again from the start (the pool broke: its chunks are done again)."""
        self.count = self.start
        self.next_mark = self.start + self.every

    def done(self, files: int) -> None:
        self.count += files
        if self.progress is None or (self.count < self.next_mark and self.count < self.total):
            return
        self.progress(self.count, self.total)
        while self.next_mark <= self.count:
            self.next_mark += self.every


@dataclass
class _ChunkResult:
    """What a worker sends back: findings, and what the parent must learn."""

    findings: list[Finding]
    fresh: dict[str, dict[str, Any]]  # new cache entries
    lookups: dict[str, dict[Lookup, str]]  # per file, what its rules looked up
    warnings: list[str]  # Project.warn() notes


ChunkCheck = Callable[[list[str]], _ChunkResult]
# The function a forked worker runs: set while a pool runs (the workers inherit it).
_POOL_CHECK: ChunkCheck | None = None


def _pool_check(chunk: list[str]) -> _ChunkResult:
    assert _POOL_CHECK is not None
    return _POOL_CHECK(chunk)


def _check_in_pool(
    check: ChunkCheck, rels: list[str], jobs: int, heard: _Heard
) -> list[_ChunkResult]:
    """Run `check` over chunks of `rels` in forked workers (they inherit it);
    interleaved chunks balance big files. With progress to tell, no chunk holds more
    than its `every` files. The results come in chunk order, whichever finished first."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    global _POOL_CHECK
    _POOL_CHECK = check
    count = jobs * 4
    if heard.progress is not None:
        count = max(count, -(-len(rels) // heard.every))
    chunks = [rels[i::count] for i in range(count)]
    results: list[_ChunkResult | None] = [None] * len(chunks)
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            running = {pool.submit(_pool_check, chunk): i for i, chunk in enumerate(chunks)}
            for future in as_completed(running):
                results[running[future]] = future.result()
                heard.done(len(chunks[running[future]]))
    except (OSError, ValueError, RuntimeError):  # no fork here: do it in-process
        results = []
        heard.restart()
        for chunk in chunks:
            results.append(check(chunk))
            heard.done(len(chunk))
    finally:
        _POOL_CHECK = None
    return [result for result in results if result is not None]
