"""Shared fixtures: scratch projects and running the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
    return root


@pytest.fixture
def make_project(tmp_path):
    """Create a scratch project from {relpath: content}; returns its root."""

    def make(files: dict[str, str | bytes], config: str | None = "") -> Path:
        if config is not None:
            files = {"pyproject.toml": f"[tool.guidelint]\n{config}\n", **files}
        return write_tree(tmp_path, files)

    return make


def run_cli(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the real `guidelint` entry point in a subprocess (no stdin, like CI)."""
    full_env = {**os.environ, **(env or {})}
    full_env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "guidelint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=full_env,
        timeout=600,
    )


def scratch_file(name: str, seconds: float = 30.0) -> Path | None:
    """A file a running example wrote in its scratch folder (its working folder), found
    where the warm worker makes scratch folders: examples cannot write anywhere else
    (not even their report folder), so tests that must watch one read it there."""
    import glob
    import tempfile
    import time

    pattern = f"{tempfile.gettempdir()}/guidelint-worker-*/guidelint-example-*/{name}"
    for _ in range(int(seconds / 0.05)):
        found = [Path(p) for p in glob.glob(pattern)]
        if found and found[0].read_text():
            return found[0]
        time.sleep(0.05)
    return None
