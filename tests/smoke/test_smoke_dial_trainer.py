"""The corpus's counterexamples on disk: the real Trainer runs the driver at the finding's n.

For three buggy drivers of tests/fixtures/smoke/drivers, GL301/GL302 name a realized
n and the checkpoints the run leaves; the driver itself is imported and run on n
rows with a tiny CPU model: its gate fails, and the checkpoint-* dirs it left are
exactly the predicted count. Its fixed twin, on the same n, passes its gate.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from guidelint.smoke.disk import checkpoint_dirs

pytest.importorskip("torch")
pytest.importorskip("transformers")

CORPUS = Path(__file__).parents[1] / "fixtures" / "smoke" / "drivers"
PREDICTION = re.compile(r"realized n=(\d+) rows? -> \d+ optimizer steps? -> (\d+) checkpoints? <")
CASES = ["dial_cap_formula", "dial_rule_of_thumb_save_steps", "dial_rotation"]


def finding_for(path: Path, tmp_path: Path):
    target = tmp_path / "scripts" / path.name
    target.parent.mkdir(parents=True)
    shutil.copy(path, target)
    project = Project(tmp_path, Config(select=["GL3"]))
    [finding] = Engine(project, build_selection(project.config)).check_file(f"scripts/{path.name}")
    return finding


def run_driver(path: Path, rows: int, out: Path) -> None:
    from tests.smoke.test_smoke_trainer_grid import TinyRegressor, _rows

    spec = importlib.util.spec_from_file_location(f"driver_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out.mkdir()
    module.smoke(TinyRegressor(), _rows(rows), out)


@pytest.mark.slow
@pytest.mark.parametrize("stem", CASES)
def test_counterexample_holds_on_disk(stem, tmp_path):
    finding = finding_for(CORPUS / f"{stem}_bad.py", tmp_path / "lint")
    match = PREDICTION.search(finding.message)
    assert match, finding.message
    rows, predicted = int(match.group(1)), int(match.group(2))
    out = tmp_path / "bad"
    with pytest.raises(AssertionError):  # the driver's own gate fails
        run_driver(CORPUS / f"{stem}_bad.py", rows, out)
    assert len(checkpoint_dirs(out)) == predicted
    run_driver(CORPUS / f"{stem}_fixed.py", rows, tmp_path / "fixed")  # its gate holds
