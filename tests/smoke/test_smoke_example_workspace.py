"""The example workspace's incident driver and its fixed twin: linted, then run for real."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check

WORKSPACE = Path(__file__).parents[2] / "examples" / "workspace"
SCRIPTS = WORKSPACE / "scripts"


def test_check_reports_the_incident_and_passes_the_twin(monkeypatch):
    monkeypatch.chdir(WORKSPACE.parent.parent)
    report = run_check(
        CheckOptions(paths=[Path("examples/workspace")], use_cache=False, select=["GL3"])
    )
    found = [(f.path, f.code) for f in report.findings]
    assert found == [("scripts/smoke_distill.py", "GL301")]
    message = report.findings[0].message
    assert message.startswith("realized n=1 row -> 1 optimizer step -> 1 checkpoint < floor 2")
    assert "guidelint smoke dial suggests epochs=2" in message


torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


class TinyRegressor(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(2, 1)

    def forward(self, x, labels=None):
        prediction = self.linear(x).squeeze(-1)
        return {"loss": torch.nn.functional.mse_loss(prediction, labels)}


def load_rows(path: Path) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [{"x": torch.tensor(r["x"]), "labels": torch.tensor(r["y"])} for r in rows]


@pytest.fixture
def drivers(monkeypatch):
    monkeypatch.syspath_prepend(str(SCRIPTS))
    modules = {}
    for name in ("smoke_distill", "smoke_distill_fixed"):
        sys.modules.pop(name, None)
        modules[name] = importlib.import_module(name)
    yield modules
    for name in (*modules, "prepare_slice"):
        sys.modules.pop(name, None)


@pytest.fixture
def two_row_source(tmp_path) -> Path:
    source = tmp_path / "distill.jsonl"
    source.write_text('{"x": [0.5, 1.0], "y": 1.0}\n{"x": [1.5, -1.0], "y": 0.0}\n')
    return source


def test_the_incident_driver_dies_on_two_realized_rows(drivers, two_row_source, tmp_path):
    out = tmp_path / "incident"
    out.mkdir()
    with pytest.raises(AssertionError, match="smoke saved 1 checkpoints"):
        drivers["smoke_distill"].run_smoke(TinyRegressor(), load_rows, two_row_source, out)


def test_the_fixed_driver_meets_its_gate_on_two_realized_rows(drivers, two_row_source, tmp_path):
    out = tmp_path / "fixed"
    out.mkdir()
    (out / "checkpoint-900").mkdir()  # a stale dir from an earlier run does not count
    drivers["smoke_distill_fixed"].run_smoke(TinyRegressor(), load_rows, two_row_source, out)
    assert sorted(p.name for p in out.glob("checkpoint-*")) == [
        "checkpoint-1",
        "checkpoint-2",
        "checkpoint-900",
    ]
