"""Talking to a warm worker from `guidelint run` or the pytest plugin."""

from __future__ import annotations

import fnmatch
import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

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


# Importing torch and diffusers takes seconds to a minute; a hang must not stall CI.
READY_TIMEOUT_S = 900.0


class WorkerDied(Exception):
    """The warm worker ended before answering; the message has its last words."""


def build_env(allowlist: list[str], environ: dict[str, str] | None = None) -> tuple[dict, list]:
    """(the environment examples see, the names that were removed)."""
    environ = dict(os.environ if environ is None else environ)
    kept = {k: v for k, v in environ.items() if any(fnmatch.fnmatchcase(k, p) for p in allowlist)}
    removed = sorted(set(environ) - set(kept))
    env = {**kept, **OFFLINE_ENV}
    package_parent = str(Path(__file__).resolve().parents[2])
    # The worker must import guidelint itself; an allowlisted PYTHONPATH is kept after it.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, kept.get("PYTHONPATH")) if p)
    return env, removed


class WorkerClient:
    """One warm worker process; submit units, read their results as they finish."""

    def __init__(self, setup: dict, allowlist: list[str]) -> None:
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
        self._write(setup)
        self.ready = self._read(timeout=READY_TIMEOUT_S)

    def submit(self, unit: dict) -> None:
        self._write({"op": "run", "unit": unit})

    def submit_all(self, units: list[dict]) -> None:
        """Write in a thread: the worker's answers must be read meanwhile."""

        def feed() -> None:
            try:
                for unit in units:
                    self.submit(unit)
            except (BrokenPipeError, OSError):
                pass

        threading.Thread(target=feed, daemon=True).start()

    def results(self, count: int) -> Iterator[dict]:
        for _ in range(count):
            yield self._read()

    def close(self, abort: bool = False) -> None:
        """Let the worker finish (it exits when stdin closes), or kill it at once."""
        try:
            if abort:
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
            import shutil

            shutil.rmtree(self._home, ignore_errors=True)

    def _write(self, message: dict) -> None:
        with self._lock:
            assert self.process.stdin is not None
            self.process.stdin.write((json.dumps(message) + "\n").encode())
            self.process.stdin.flush()

    def _read(self, timeout: float | None = None) -> dict:
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
        return json.loads(line)

    def _last_words(self) -> str:
        self.process.wait()
        self._stderr.seek(0)
        lines = [x for x in self._stderr.read().decode("utf-8", "replace").splitlines() if x]
        tail = lines[-1] if lines else "no message"
        return f"the warm worker exited with status {self.process.returncode}: {tail}"
