"""The warm worker and the backend hook: torch imported once, fork-safe, contract honoured."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from guidelint.runner.run import RunOptions, run_examples

FIXTURES = Path(__file__).parents[1] / "fixtures" / "runner"

pytest.importorskip("torch")


def _project(tmp_path: Path, monkeypatch) -> Path:
    (tmp_path / "docs").mkdir()
    shutil.copy(FIXTURES / "torch.md", tmp_path / "docs" / "torch.md")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.guidelint.runner]\nenv-allowlist = ["PATH", "PYTHONPATH"]\n'
        'models = {"acme/*" = "tiny-sd"}\n'
    )
    monkeypatch.setenv("PYTHONPATH", str(FIXTURES / "probe"))
    return tmp_path


def test_fork_after_torch_ops_does_not_deadlock_and_backend_is_activated(tmp_path, monkeypatch):
    root = _project(tmp_path, monkeypatch)
    report = run_examples(
        RunOptions(
            paths=[root / "docs"],
            backend_module="guidelint_probe_backend",
            report_dir=tmp_path / "report",
        )
    )
    by_id = {r.id: r for r in report.results}
    # The probe's preload ran a two-thread matmul in the warm worker before forking.
    assert by_id["torch-after-fork"].status.value == "passed", by_id["torch-after-fork"].message
    backend = by_id["needs-backend"]
    assert backend.status.value == "passed", backend.message
    assert backend.substitutions[0] == "probe: activated"
    settings = json.loads(backend.substitutions[1])
    assert settings == {
        "report_dir": True,
        "gpu": False,
        "timeout": 60.0,
        "models": {"acme/*": "tiny-sd"},
    }


def test_missing_backend_is_a_missing_dependency_only_where_needed(tmp_path):
    guide = tmp_path / "guide.md"
    guide.write_text(
        "<!-- guidelint: needs=diffusers -->\n```python\nprint(1)\n```\n\n"
        "```python\nprint(2)\n```\n"
    )
    report = run_examples(
        RunOptions(
            paths=[guide], backend_module="no_such_backend_mod", report_dir=tmp_path / "report"
        )
    )
    needs, plain = report.results
    assert needs.status.value == "missing-dependency"
    assert "no_such_backend_mod" in needs.message
    assert plain.status.value == "passed" and plain.substitutions == []
