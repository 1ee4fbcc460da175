"""Talking to a warm worker from `guidelint run` or the pytest plugin.

`run_units` is how both run examples: it sends the units to a worker, waits, and
settles what comes back into outcomes (plan.settle).
"""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from guidelint.confine import remove_tree
from guidelint.runner.config import RunnerSettings
from guidelint.runner.examples import Example
from guidelint.runner.outcomes import ExampleResult, Outcome
from guidelint.runner.plan import broken_unit, not_run, settle, unit_payload
from guidelint.runner.protocol import (
    RunRequest,
    UnitFinished,
    UnitPayload,
    WorkerReady,
    WorkerSetup,
    decode_unit_finished,
    encode,
    worker_message,
)

OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "DO_NOT_TRACK": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONUNBUFFERED": "1",
    "TOKENIZERS_PARALLELISM": "false",
    # Ask for GPUs without initialising CUDA, so children forked later can use it.
    "PYTORCH_NVML_BASED_CUDA_CHECK": "1",
}


# How long a worker told to stop (SIGTERM) gets to kill its examples and clean up.
ABORT_GRACE_S = 1.0
# Importing torch and diffusers takes seconds to a minute; a hang must not stall CI.
READY_TIMEOUT_S = 900.0


class WorkerDied(Exception):
    """The warm worker ended before answering; the message has its last words."""


# A variable whose name says it holds a credential (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY,
# OPENAI_API_KEY, NPM_CONFIG__AUTH, DB_PASSWORD, SENTRY_DSN), or whose value is a URL with
# a password in it (a private index), never reaches an example, whatever the allowlist says:
# the allowlist is the project's configuration, which a pull request may rewrite
# (`env-allowlist = ["*"]`), and an example can print what it reads into the report.
CREDENTIAL_NAME = re.compile(
    r"TOKEN(?!IZERS?_)|SECRET|PASSW|PASSPHRASE|CREDENTIAL|PRIVATE|COOKIE|WEBHOOK"
    r"|APIKEY|(?:^|_)(?:KEYS?|AUTH|DSN)(?:_|$)",
    re.IGNORECASE,
)
URL_WITH_PASSWORD = re.compile(r"://[^/@\s:]*:[^/@\s]+@")


def holds_credential(name: str, value: str) -> bool:
    return bool(CREDENTIAL_NAME.search(name) or URL_WITH_PASSWORD.search(value))


def build_env(
    allowlist: list[str], environ: dict[str, str] | None = None
) -> tuple[dict[str, str], list[str]]:
    """(the environment examples see, the names that were removed)."""
    environ = dict(os.environ if environ is None else environ)
    kept = {
        k: v
        for k, v in environ.items()
        if any(fnmatch.fnmatchcase(k, p) for p in allowlist) and not holds_credential(k, v)
    }
    removed = sorted(set(environ) - set(kept))
    env = {**kept, **OFFLINE_ENV}
    package_parent = str(Path(__file__).resolve().parents[2])
    # The worker must import guidelint itself; an allowlisted PYTHONPATH is kept after it.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, kept.get("PYTHONPATH")) if p)
    return env, removed


class WorkerClient:
    """One warm worker process; submit units, read their results as they finish."""

    def __init__(self, setup: WorkerSetup, allowlist: list[str]) -> None:
        env, self.removed_env = build_env(allowlist)
        self._home = tempfile.mkdtemp(prefix="guidelint-worker-")
        env["HOME"] = env["TMPDIR"] = self._home
        self._stderr = tempfile.TemporaryFile()
        read_fd, write_fd = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "guidelint.runner.worker", str(write_fd)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=self._stderr,
            pass_fds=(write_fd,),
            env=env,
            cwd=self._home,
            start_new_session=True,
        )
        os.close(write_fd)
        self._results = os.fdopen(read_fd, "rb")
        self._lock = threading.Lock()
        self.running: set[str] = set()  # units whose child was forked and has not finished
        self._write({**setup, "removed_env": self.removed_env})
        self.ready: WorkerReady = self._read(timeout=READY_TIMEOUT_S)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def submit(self, unit: UnitPayload) -> None:
        request: RunRequest = {"op": "run", "unit": unit}
        self._write(request)

    def submit_all(self, units: list[UnitPayload]) -> None:
        """Write in a thread: the worker's answers must be read meanwhile."""

        def feed() -> None:
            try:
                for unit in units:
                    self.submit(unit)
            except (BrokenPipeError, OSError):
                pass

        threading.Thread(target=feed, daemon=True).start()

    def results(self, count: int) -> Iterator[UnitFinished]:
        """The next `count` finished units; `running` follows the ones in between."""
        done = 0
        while done < count:
            message = self._read()
            if message["op"] == "started":
                self.running.add(str(message.get("unit_id")))
                continue
            try:
                finished = decode_unit_finished(message)
            except (KeyError, TypeError, ValueError):
                self.process.kill()
                raise WorkerDied("the warm worker sent a malformed result") from None
            self.running.discard(finished["unit_id"])
            done += 1
            yield finished

    def close(self, abort: bool = False) -> None:
        """Let the worker finish (it exits when stdin closes), or stop it at once: SIGTERM
        (it kills every example and removes their folders), SIGKILL if it lingers."""
        try:
            if abort:
                self.process.terminate()
                try:
                    self.process.wait(timeout=ABORT_GRACE_S)
                except subprocess.TimeoutExpired:
                    self.process.kill()
            if self.process.stdin and not self.process.stdin.closed:
                self.process.stdin.close()
            self.process.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        finally:
            self._results.close()
            self._stderr.close()
            remove_tree(self._home)

    def _write(self, message: WorkerSetup | RunRequest) -> None:
        with self._lock:
            assert self.process.stdin is not None
            self.process.stdin.write(encode(message))
            self.process.stdin.flush()

    def _read(self, timeout: float | None = None) -> Any:
        if timeout is not None:
            import select

            ready, _, _ = select.select([self._results], [], [], timeout)
            if not ready:
                self.process.kill()
                raise WorkerDied(
                    f"the warm worker was not ready after {timeout:g}s (importing heavy "
                    "modules or preloading the backend hung)"
                )
        line = self._results.readline()
        if not line:
            raise WorkerDied(self._last_words())
        try:
            return worker_message(line)
        except ValueError:
            self.process.kill()
            raise WorkerDied("the warm worker sent a line that is not a message") from None

    def _last_words(self) -> str:
        self.process.wait()
        self._stderr.seek(0)
        lines = [x for x in self._stderr.read().decode("utf-8", "replace").splitlines() if x]
        tail = lines[-1] if lines else "no message"
        return f"the warm worker exited with status {self.process.returncode}: {tail}"


StartWorker = Callable[[list[UnitPayload]], WorkerClient]


def run_units(
    units: list[list[Example]],
    start_worker: StartWorker,
    root: Path,
    config: RunnerSettings,
    report_dir: Path,
) -> Iterator[list[ExampleResult]]:
    """Each unit's outcomes, unit by unit as they are known.

    A unit with an example that cannot run is not sent. The others go to the warm
    worker `start_worker(payloads)` gives (a new one, or one kept warm); if it
    cannot start, or dies, the units it did not finish crash with its last words.
    The caller owns the worker: closing it, or killing it on Ctrl-C.
    """
    runnable = []
    for unit in units:
        broken = broken_unit(unit)
        if broken is None:
            runnable.append(unit)
        else:
            yield broken
    if not runnable:
        return
    payloads = [unit_payload(u, root, config, report_dir) for u in runnable]
    by_id = {p["unit_id"]: u for p, u in zip(payloads, runnable, strict=True)}
    waiting = list(payloads)  # neither finished nor suspected, in order
    suspects: list[UnitPayload] = []  # running when a worker died: each retried alone
    cold = False  # a worker died in its warm imports: children import for themselves
    while waiting or suspects:
        alone = bool(suspects)
        batch = [suspects.pop(0)] if alone else waiting
        sent = _without_warm_imports(batch) if cold else batch
        client: WorkerClient | None = None
        try:
            client = start_worker(sent)
            client.submit_all(sent)
            for message in client.results(len(batch)):
                batch = [p for p in batch if p["unit_id"] != message["unit_id"]]
                waiting = waiting if alone else batch
                unit = by_id[message["unit_id"]]
                yield [settle(e, r, config) for e, r in zip(unit, message["results"], strict=True)]
        except WorkerDied as error:
            running = [p for p in batch if client is not None and p["unit_id"] in client.running]
            if not running and not cold and any(p["warm_imports"] for p in batch):
                # An import the worker makes before forking killed it (a crashing
                # extension, memory): run cold, so only the examples needing it fail.
                cold = True
                suspects[:0] = batch if alone else []
                continue
            if not running:  # it died before running any: no worker will do better
                for payload in batch + (suspects + waiting if alone else suspects):
                    yield [
                        not_run(e, Outcome.CRASHED, str(error)) for e in by_id[payload["unit_id"]]
                    ]
                return
            if alone:  # this unit, alone in its worker, killed it
                why = f"the warm worker died while this example's unit ran alone in it: {error}"
                yield [not_run(e, Outcome.CRASHED, why) for e in by_id[batch[0]["unit_id"]]]
                continue
            suspects.extend(running)  # one of them killed it; the others are retried too
            waiting = [p for p in batch if p not in running]


def _without_warm_imports(payloads: list[UnitPayload]) -> list[UnitPayload]:
    return [{**p, "warm_imports": []} for p in payloads]
