"""Shared fixtures: scratch projects, running the real CLI, and the shared corpus.

The corpus (`../shared/corpus` beside the checkout, or wherever GUIDELINT_CORPUS
points) is not part of the repository. A test that reads it carries
`@pytest.mark.corpus("agent-repos")` (a path under the corpus): where that path is
absent the test is skipped with a reason, and under GUIDELINT_REQUIRE_CORPUS=1
(set by .ci/run) it fails instead. Parametrise over corpus folders with
`corpus_folders(...)`, which never fails at collection.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS_ENV = "GUIDELINT_CORPUS"
REQUIRE_CORPUS_ENV = "GUIDELINT_REQUIRE_CORPUS"
CORPUS = Path(os.environ.get(CORPUS_ENV) or REPO.parent / "shared" / "corpus")


def shared_corpus(*parts: str) -> Path:
    """A path under the shared corpus; it may be absent, so mark the test `corpus`."""
    return CORPUS.joinpath(*parts)


def corpus_folders(*parts: str) -> list[Path]:
    """The folders in shared_corpus(*parts), sorted, to parametrise over.

    Where that folder is absent, the folder itself: one case, which its `corpus`
    mark skips (or fails under GUIDELINT_REQUIRE_CORPUS=1), instead of an error at
    collection or a silently empty parametrisation.
    """
    base = shared_corpus(*parts)
    if not base.is_dir():
        return [base]
    return sorted(path for path in base.iterdir() if path.is_dir())


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "corpus(*parts): reads shared_corpus(*parts); skipped where it is absent, "
        f"failed there under {REQUIRE_CORPUS_ENV}=1",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip (or, where CI requires the corpus, fail) a test whose corpus is absent."""
    for mark in item.iter_markers("corpus"):
        path = shared_corpus(*mark.args)
        if path.is_dir():
            continue
        reason = f"corpus not found at {path} (set {CORPUS_ENV} to where it is)"
        if os.environ.get(REQUIRE_CORPUS_ENV) == "1":
            pytest.fail(f"{reason}; {REQUIRE_CORPUS_ENV}=1 requires it", pytrace=False)
        pytest.skip(reason)


def write_tree(root: Path, files: Mapping[str, object]) -> Path:
    """A scratch project: each {relpath: content} written below `root`, folders made.
    Text is written as UTF-8 with its line endings kept, bytes as they are, and anything
    else (a dict, a list) as JSON indented by two; returns `root`."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            text = content if isinstance(content, str) else json.dumps(content, indent=2)
            path.write_text(text, encoding="utf-8", newline="")
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


@pytest.fixture(autouse=True)
def _autograd_as_found():
    """Autograd back on after each test: importing cosmos_guardrail (a diffusers test
    that plans a Cosmos pipeline) turns it off for the whole process, and the real
    Trainer's backward in a later smoke test of the same worker then fails."""
    yield
    torch = sys.modules.get("torch")
    if torch is not None and not torch.is_grad_enabled():
        torch.set_grad_enabled(True)
