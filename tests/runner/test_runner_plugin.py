"""The pytest plugin: examples as items with FILE::lineN node ids, under pytest-xdist."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parents[1] / "fixtures" / "runner" / "plugin"


def _run_pytest(root: Path, *args: str, target: str = "docs/") -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-rA",
            "--guidelint-examples",
            *args,
            target,
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )


def _outcomes(output: str) -> dict[str, str]:
    found = {}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in {"PASSED", "FAILED", "SKIPPED", "XFAIL", "ERROR"}:
            node = parts[1] if parts[0] != "SKIPPED" else parts[-1]
            found[node.rstrip(":")] = parts[0]
    return found


@pytest.mark.slow  # a pytest run under xdist, in a subprocess
def test_examples_are_items_with_runnable_ids_under_xdist(tmp_path):
    shutil.copytree(FIXTURE, tmp_path, dirs_exist_ok=True)
    result = _run_pytest(tmp_path, "-n", "2", "--dist", "loadgroup")
    outcomes = _outcomes(result.stdout)
    assert outcomes["docs/guide.md::line3"] == "PASSED", result.stdout[-3000:]
    assert outcomes["docs/guide.md::line11"] == "FAILED"
    assert outcomes["docs/guide.md::line16"] == "PASSED"
    assert outcomes["docs/guide.md::line21"] == "PASSED"  # shares `value` with line 16
    assert outcomes["docs/guide.md::line31"] == "XFAIL"  # pending and failing
    assert "1 failed" in result.stdout and "1 skipped" in result.stdout
    assert "created: 2/2 workers" in result.stdout
    assert "RuntimeError: fails on purpose" in result.stdout
    assert result.returncode == 1


@pytest.mark.slow  # a pytest run in a subprocess
def test_a_node_id_from_the_report_reruns_that_example(tmp_path):
    shutil.copytree(FIXTURE, tmp_path, dirs_exist_ok=True)
    result = _run_pytest(tmp_path, target="docs/guide.md::line21")
    # line 21 is the second block of a session: rerun alone, it still gets line 16's names
    assert _outcomes(result.stdout) == {"docs/guide.md::line21": "PASSED"}, result.stdout[-3000:]
    assert result.returncode == 0


def test_without_the_flag_markdown_is_not_collected():
    from types import SimpleNamespace

    from guidelint.runner.pytest_plugin import pytest_collect_file

    def parent(flag: bool):
        return SimpleNamespace(config=SimpleNamespace(getoption=lambda name, default: flag))

    assert pytest_collect_file(FIXTURE / "docs" / "guide.md", parent(False)) is None
    assert pytest_collect_file(FIXTURE / "pyproject.toml", parent(True)) is None
