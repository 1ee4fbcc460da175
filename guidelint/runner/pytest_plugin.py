"""pytest plugin: `pytest --guidelint-examples docs/` runs guide examples as test items.

Registered as a `pytest11` entry point, so it loads in every pytest run: this
module imports nothing but pytest at import time. Each example is one item whose
node id is `FILE::lineN` (pass it back to pytest to rerun that example); items
run in the same isolated warm worker as `guidelint run`. pytest-xdist spreads
items over processes and hosts (each process starts its own warm worker);
examples of one session carry an `xdist_group` mark, so `--dist loadgroup` keeps
a session on one worker.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.runner.client import WorkerClient
    from guidelint.runner.config import RunnerSettings
    from guidelint.runner.examples import Example
    from guidelint.runner.outcomes import ExampleResult
    from guidelint.runner.protocol import WorkerSetup

_CLIENTS: dict[Path, WorkerClient] = {}  # project root -> one warm worker per pytest process
_UNIT_RESULTS: dict[str, dict[int, ExampleResult]] = {}  # unit id -> {example line: result}


def pytest_addoption(parser):
    group = parser.getgroup("guidelint")
    group.addoption(
        "--guidelint-examples",
        action="store_true",
        default=False,
        help="collect the Python examples of Markdown files as test items",
    )


def pytest_collect_file(file_path, parent):
    if not parent.config.getoption("guidelint_examples", default=False):
        return None
    if file_path.suffix.lower() in (".md", ".markdown"):
        return GuideFile.from_parent(parent, path=file_path)
    return None


def pytest_unconfigure(config):
    while _CLIENTS:
        _, client = _CLIENTS.popitem()
        client.close()


def _warm_worker(root: Path, config: RunnerSettings) -> WorkerClient:
    """The project's warm worker: started on first use, and again after it died."""
    from guidelint.runner.client import WorkerClient

    client = _CLIENTS.get(root)
    if client is not None and not client.alive:  # it died: the unit it had crashed
        del _CLIENTS[root]
        client.close()
        client = None
    if client is None:
        setup: WorkerSetup = {
            "settings": config.model_dump(),
            "jobs": 1,
            "warm_imports": [],
            "root": str(root),
        }
        client = _CLIENTS[root] = WorkerClient(setup, config.env_allowlist)
    return client


class GuideFile(pytest.File):
    def collect(self):
        import os

        from guidelint.config import ConfigError
        from guidelint.confine import is_inside
        from guidelint.discovery import OUTSIDE_NOTE
        from guidelint.printable import printable
        from guidelint.project import Project
        from guidelint.runner.examples import extract
        from guidelint.runner.plan import group_units
        from guidelint.runner.run import confined_folders
        from guidelint.sources import Unreadable, load

        try:
            project = Project.load([self.path])
            # The report folder checked as `guidelint run` checks it (confine.py): a
            # pull request's `runner.report-dir` or a committed symlink leads nowhere.
            report_dir = confined_folders(project.root, project.config.runner, None)
        except ConfigError as error:
            raise self.CollectError(str(error)) from None
        if not is_inside(project.root, self.path):  # a committed link out: as `run`, skipped
            named = printable(os.path.relpath(self.path, project.root))  # a name may hold ESC
            pytest.skip(f"{named}: {OUTSIDE_NOTE} ({project.root})", allow_module_level=True)
        rel = project.rel(self.path)
        try:  # with the root too: a link swapped in meanwhile is not followed out
            file = load(self.path, rel, project.config.max_file_size, project.root)
        except Unreadable as error:
            raise self.CollectError(f"{rel}:{error.line}: {error.message}") from None
        for unit in group_units(extract(file.markdown, rel)):
            for example in unit:
                # The default node id, FILE::lineN, is one pytest accepts back to rerun it.
                item = GuideExample.from_parent(self, name=f"line{example.line}")
                item.setup_example(project, example, unit, report_dir)
                if example.settings.session:
                    item.add_marker(pytest.mark.xdist_group(f"{rel}:{example.settings.session}"))
                yield item


class ExampleFailed(Exception):
    def __init__(self, result: ExampleResult) -> None:
        super().__init__(result.message)
        self.result = result


class GuideExample(pytest.Item):
    def setup_example(
        self, project: Project, example: Example, unit: list[Example], report_dir: Path
    ) -> None:
        self.project, self.example, self.unit = project, example, unit
        self.report_dir = report_dir  # made and checked at collection (confine.py)

    def runtest(self) -> None:
        from guidelint.runner.outcomes import Outcome

        result = self._result()
        if result.status is Outcome.SKIPPED:
            pytest.skip(result.message or result.status.value)
        if result.status is Outcome.PENDING_FAILED:
            pytest.xfail(f"pending: {result.message}")
        if not result.status.ok:
            raise ExampleFailed(result)

    def _result(self) -> ExampleResult:
        key = f"{self.unit[0].rel}:{self.unit[0].line}"
        if key not in _UNIT_RESULTS:
            _UNIT_RESULTS[key] = {r.line: r for r in self._run_unit()}
        return _UNIT_RESULTS[key][self.example.line]

    def _run_unit(self) -> list[ExampleResult]:
        from guidelint.runner.client import run_units

        config = self.project.config.runner
        root = self.project.root
        (results,) = run_units(
            [self.unit],
            lambda _: _warm_worker(root, config),
            root,
            config,
            self.report_dir,
        )
        return results

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ExampleFailed):
            result = excinfo.value.result
            parts = [f"{result.path}:{result.line}: {result.status.value}: {result.message}"]
            if result.details.strip():
                parts.append(result.details.rstrip())
            if result.stdout.strip():
                parts.append("--- stdout ---\n" + result.stdout[-4000:].rstrip())
            return "\n".join(parts)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, self.example.line - 1, f"example {self.example.id}"
