"""`guidelint run` as a function: discover guides, extract, run in a warm worker, settle."""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from guidelint.runner.config import RunnerSettings
from guidelint.runner.examples import Example, extract
from guidelint.runner.outcomes import ExampleResult, Outcome
from guidelint.runner.plan import group_units
from guidelint.runner.protocol import UnitPayload, WorkerSetup

REPORT_VERSION = 2  # 2: "sandbox" and "unreadable" added


@dataclass
class RunOptions:
    paths: list[Path] = field(default_factory=list)
    config_file: Path | None = None
    pending_only: bool = False
    ids: list[str] = field(default_factory=list)  # run only these examples (and their sessions)
    update: bool = False
    promote: bool = False
    jobs: int | None = None
    report_dir: Path | None = None
    backend_module: str | None = None  # another backend (tests, third parties)
    today: str | None = None  # the date --promote records (default: today, UTC)


@dataclass
class RunReport:
    results: list[ExampleResult]
    duration_s: float
    report_dir: Path
    notes: list[str] = field(default_factory=list)  # files not rewritten, unreadable files
    promoted: bool = False  # --promote rewrote the pending examples that passed
    unreadable: list[str] = field(default_factory=list)  # guides that could not be read
    sandbox: dict[str, Any] | None = None  # the worker's SandboxFeatures.as_json()
    root: Path | None = None  # the project root: --html must stay inside it (confine.py)

    @property
    def ok(self) -> bool:
        """No example failed, and every guide asked for could be read."""
        return not self.unreadable and all(r.status.ok for r in self.results)

    def counts(self) -> dict[Outcome, int]:
        """How many examples ended with each outcome (every outcome, in enum order)."""
        return {o: sum(r.status is o for r in self.results) for o in Outcome}

    def as_json(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"unreadable": self.unreadable} if self.unreadable else {}
        if self.sandbox is not None:
            extra["sandbox"] = self.sandbox
        if self.notes:
            extra["notes"] = list(self.notes)  # the same lines the text report ends with
        return {
            **extra,
            "version": REPORT_VERSION,
            "examples": [self._example_json(r) for r in self.results],
            "summary": {
                "total": len(self.results),
                **{o.value: count for o, count in self.counts().items()},
                "ok": self.ok,
                "duration_s": round(self.duration_s, 3),
                "report_dir": str(self.report_dir),
            },
        }

    def _example_json(self, result: ExampleResult) -> dict[str, Any]:
        data = result.as_json()
        if result.status is Outcome.PENDING_PASSED:
            data["promoted"] = self.promoted  # "marked verified" in the text report
        return data


Progress = Callable[[ExampleResult, int, int], None]


def run_examples(options: RunOptions, progress: Progress | None = None) -> RunReport:
    from guidelint.discovery import discover
    from guidelint.project import Project
    from guidelint.sources import MARKDOWN_SUFFIXES, Unreadable, load

    clock = time.perf_counter()
    project = Project.load(options.paths, options.config_file)
    config = project.config.runner
    report_dir = confined_folders(project.root, config, options.report_dir)
    notes: list[str] = []
    unreadable: list[str] = []
    documents: dict[str, tuple[Path, str, list[Example]]] = {}
    for rel in discover(project.root, project.config, options.paths, skipped=notes):
        if not rel.lower().endswith(MARKDOWN_SUFFIXES):
            continue
        path = Path(rel) if Path(rel).is_absolute() else project.root / rel
        try:
            file = load(path, rel, project.config.max_file_size, project.root)
        except Unreadable as error:
            notes.append(f"{rel}:{error.line}: {error.message}")
            unreadable.append(rel)
            continue
        documents[rel] = (path, file.text, extract(file.markdown, rel))

    examples = [e for _, _, found in documents.values() for e in found]
    units = group_units(examples)
    if options.pending_only:
        units = [u for u in units if any(e.settings.pending for e in u)]
    if options.ids:
        units = _select_ids(units, examples, options.ids)
    sandbox: list[dict[str, Any]] = []  # what the first worker reported
    results = _run_units(units, project.root, config, report_dir, options, progress, sandbox)
    results.sort(key=lambda r: (r.path, r.line))
    notes.extend(sandbox[0]["gaps"] if sandbox else [])
    report = RunReport(
        results,
        0.0,
        report_dir,
        notes,
        promoted=options.promote,
        unreadable=unreadable,
        sandbox=sandbox[0] if sandbox else None,
        root=project.root,
    )
    if options.update or options.promote:
        notes.extend(_rewrite(documents, results, options, project.root))
    report.duration_s = time.perf_counter() - clock
    return report


def confined_folders(root: Path, config: RunnerSettings, report_dir: Path | None) -> Path:
    """The report folder, made and checked (guidelint/confine.py): the configured one
    (from a file a pull request may change) must lie inside the project, an explicit
    `--report-dir` inside it or be guidelint's own; no component may be a symlink.
    `runner.tiny-cache` is checked the same way. ConfigError (one line) when not."""
    import os

    from guidelint.config import ConfigError
    from guidelint.confine import Outside, open_dir

    # --report-dir is relative to the working folder, runner.report-dir to the root.
    wanted = report_dir.absolute() if report_dir is not None else Path(config.report_dir)
    folders = [(wanted, "report folder", report_dir is not None)]
    if config.tiny_cache:
        folders.append((Path(config.tiny_cache), "runner.tiny-cache", True))
    for folder, what, outside_ok in folders:
        full = Path(os.path.normpath(root / os.path.expanduser(folder)))
        try:
            if not outside_ok and not _lexically_inside(root, full):
                raise Outside(f"{folder}: {what} leads outside the project ({root})")
            os.close(open_dir(root, full, what))
        except Outside as error:
            raise ConfigError(str(error)) from None
        except OSError as error:
            raise ConfigError(f"{full}: cannot create the {what}: {error}") from None
    return Path(os.path.normpath(root / wanted)).absolute()


def _lexically_inside(root: Path, path: Path) -> bool:
    import os

    relative = os.path.relpath(path, root.absolute())
    return relative != ".." and not relative.startswith(".." + os.sep)


def _select_ids(units: list[list[Example]], examples: list[Example], ids: list[str]):
    """The units holding an example asked for by id; an id no example has is an error."""
    from guidelint.config import ConfigError

    known = {e.id for e in examples}
    unknown = [i for i in ids if i not in known]
    if unknown:
        hint = ", ".join(sorted(known)[:5]) or "none"
        raise ConfigError(f"no example has the id {', '.join(unknown)} (ids here: {hint})")
    wanted = set(ids)
    return [u for u in units if any(e.id in wanted for e in u)]


def _run_units(
    units: list[list[Example]],
    root: Path,
    config: RunnerSettings,
    report_dir: Path,
    options: RunOptions,
    progress: Progress | None,
    sandbox: list[dict[str, Any]],
) -> list[ExampleResult]:
    from guidelint.runner.client import WorkerClient, run_units

    results: list[ExampleResult] = []
    total = sum(len(u) for u in units)
    started: list[WorkerClient] = []

    def start_worker(payloads: list[UnitPayload]) -> WorkerClient:
        client = WorkerClient(_setup(payloads, root, config, options), config.env_allowlist)
        started.append(client)
        if not sandbox and "sandbox" in client.ready:
            sandbox.append(client.ready["sandbox"])
        return client

    try:
        for settled in run_units(units, start_worker, root, config, report_dir):
            for result in settled:
                results.append(result)
                if progress:
                    progress(result, len(results), total)
    except BaseException:  # Ctrl-C: stop the worker (its children die with it)
        while started:
            started.pop().close(abort=True)
        raise
    finally:
        while started:
            started.pop().close()
    return results


def _setup(
    payloads: list[UnitPayload], root: Path, config: RunnerSettings, options: RunOptions
) -> WorkerSetup:
    """One worker for the whole run: it warms up for what the units import."""
    return {
        "settings": _with_tiny_cache_env(config.model_dump()),
        "jobs": options.jobs or config.jobs or _default_jobs(),
        "warm_imports": sorted({m for p in payloads for m in p["warm_imports"]}),
        "preload_backend": any(p["wants_backend"] for p in payloads),
        "backend_names": backend_names(payloads),
        "backend_module": options.backend_module,
        "root": str(root),
    }


# The diffusers backend's variables, which the worker's filtered environment drops,
# passed on as settings of their own: $GUIDELINT_TINY_CACHE, its default cache (not made
# writable for the examples as a configured `runner.tiny-cache` is), and
# $GUIDELINT_DIFFUSERS_DEVICE, the one switch of its GPU path (auto, gpu, cpu).
BACKEND_ENV = {"GUIDELINT_TINY_CACHE": "tiny_cache_env", "GUIDELINT_DIFFUSERS_DEVICE": "device"}


def _with_tiny_cache_env(settings: dict) -> dict:
    import os

    passed = {key: os.environ[name] for name, key in BACKEND_ENV.items() if os.environ.get(name)}
    return {**settings, **passed}


def backend_names(payloads: list[UnitPayload]) -> list[str]:
    """Capitalised names and quoted `owner/name` ids in the backend's examples: the
    classes its preload imports and the tiny checkpoints it builds before forking."""
    import re

    sources = [e["source"] for p in payloads if p["wants_backend"] for e in p["examples"]]
    names = {name for s in sources for name in re.findall(r"\b[A-Z][A-Za-z0-9_]+", s)}
    ids = {i for s in sources for i in re.findall(r"[\"']([\w.-]+/[\w.-]+)[\"']", s)}
    # AutoPipeline*(enable_pag=True) loads a checkpoint planned with the PAG class's recipes
    pag = any(re.search(r"\benable_pag\s*=\s*True", s) for s in sources)
    # transformers.pipeline("depth-estimation") with no model= loads the task's default
    tasks = {
        "task:" + t
        for s in sources
        for t in re.findall(r"\bpipeline\(\s*(?:task\s*=\s*)?[\"']([\w-]+)[\"']", s)
    }
    return sorted(names | ids | tasks | ({"enable_pag"} if pag else set()))


def _default_jobs() -> int:
    import os

    return max(1, min(4, os.cpu_count() or 1))


def _rewrite(documents, results: list[ExampleResult], options: RunOptions, root: Path) -> list[str]:
    from guidelint.runner.rewrite import output_edit, output_refusal, promote_edits, rewrite_file

    today = options.today or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    by_key = {(r.path, r.line): r for r in results}
    notes = []
    for rel, (path, text, examples) in documents.items():
        edits = []
        for example in examples:
            result = by_key.get((rel, example.line))
            if result is None:
                continue
            if options.update:
                refusal = output_refusal(example, result)
                notes.extend([refusal] if refusal else [])
                edit = output_edit(example, result, text)
                edits.extend([edit] if edit else [])
            if options.promote:
                edits.extend(promote_edits(example, result, today))
        note = rewrite_file(path, text, edits, root)
        if note:
            notes.append(note)
    return notes
