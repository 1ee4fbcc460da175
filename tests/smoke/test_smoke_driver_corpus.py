"""GL301-GL304 over a corpus of drivers: each file marks its expected findings inline.

A line ending in `# expect: GL301(n=1)` must get GL301 there, with a message whose
counterexample is realized n=1; `# expect: GL303` just the code. Lines without a
mark must get no GL3xx finding; files without marks must be clean.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from tests.smoke.marks import assert_findings_match_marks, expectations

CORPUS = Path(__file__).parents[1] / "fixtures" / "smoke" / "drivers"
DRIVERS = sorted(CORPUS.glob("*.py"))


def lint(path: Path, tmp_path: Path):
    target = tmp_path / "scripts" / path.name
    target.parent.mkdir(parents=True)
    shutil.copy(path, target)
    project = Project(tmp_path, Config(select=["GL3"]))
    return Engine(project, build_selection(project.config)).check_file(f"scripts/{path.name}")


def test_corpus_is_large_and_mixed():
    assert len(DRIVERS) >= 20
    marked = [p for p in DRIVERS if expectations(p.read_text())]
    assert len(marked) >= 10 and len(DRIVERS) - len(marked) >= 8


@pytest.mark.parametrize("path", DRIVERS, ids=[p.stem for p in DRIVERS])
def test_driver_findings_match_marks(path, tmp_path):
    findings = lint(path, tmp_path)
    assert_findings_match_marks(findings, path.read_text())


def test_incident_message_names_counterexample_dial_and_suggestion(tmp_path):
    [finding] = lint(CORPUS / "trainer_incident_bad.py", tmp_path)
    assert finding.message.startswith(
        "realized n=1 row -> 1 optimizer step -> 1 checkpoint < floor 2: "
        "dial epochs=1 at line 9 is a constant (fails for 16 of 30 realized sizes in [1, 30]; "
        "guidelint smoke dial suggests epochs=2 for every n, or per realized n: "
        "epochs = ceil(2 / steps_per_epoch), "
    )


def test_files_outside_driver_globs_are_not_read(tmp_path):
    target = tmp_path / "lib" / "train.py"
    target.parent.mkdir()
    shutil.copy(CORPUS / "trainer_incident_bad.py", target)
    project = Project(tmp_path, Config(select=["GL3"]))
    assert Engine(project, build_selection(project.config)).check_file("lib/train.py") == []


def test_driver_globs_are_configurable(tmp_path):
    target = tmp_path / "experiments" / "train.py"
    target.parent.mkdir()
    shutil.copy(CORPUS / "trainer_incident_bad.py", target)
    config = Config.model_validate(
        {"select": ["GL3"], "smoke": {"drivers": ["experiments/*.py"], "default-cap": 50}}
    )
    project = Project(tmp_path, config)
    findings = Engine(project, build_selection(project.config)).check_file("experiments/train.py")
    assert [f.code for f in findings] == ["GL301"]


def test_out_of_range_settings_are_unproven_not_a_crash(tmp_path):
    target = tmp_path / "scripts" / "negative.py"
    target.parent.mkdir()
    target.write_text(
        "from transformers import Trainer, TrainingArguments\n"
        "args = TrainingArguments(per_device_train_batch_size=4, num_train_epochs=-1)\n"
        "assert trainer.state.global_step >= 2\n"
    )
    project = Project(tmp_path, Config())
    findings = Engine(project, build_selection(project.config)).check_file("scripts/negative.py")
    assert [(f.code, f.line) for f in findings] == [("GL304", 3)]
    assert "out of range" in findings[0].message


def test_huge_caps_are_searched_at_both_ends(tmp_path):
    target = tmp_path / "scripts" / "huge.py"
    target.parent.mkdir()
    target.write_text(
        "from transformers import Trainer, TrainingArguments\n"
        "args = TrainingArguments(per_device_train_batch_size=1, max_steps=3,\n"
        "                         save_strategy='epoch')\n"
        "Trainer(args=args, train_dataset=rows[:10_000_000]).train()\n"
        "assert len(list(out.glob('checkpoint-*'))) >= 2\n"
    )
    project = Project(tmp_path, Config())
    [finding] = Engine(project, build_selection(project.config)).check_file("scripts/huge.py")
    assert finding.message.startswith("realized n=3 rows -> 3 optimizer steps -> 1 checkpoint")


def test_huge_caps_with_a_derived_dial_are_searched_at_the_breakpoints(tmp_path):
    target = tmp_path / "scripts" / "huge_derived.py"
    target.parent.mkdir()
    target.write_text(
        "from transformers import Trainer, TrainingArguments\n"
        "def smoke(model, rows, out):\n"
        "    rows = rows[:10_000_000]\n"
        "    epochs = 1 if len(rows) >= 70_000 else 2\n"
        "    args = TrainingArguments(per_device_train_batch_size=8, num_train_epochs=epochs,\n"
        "                             save_strategy='epoch')\n"
        "    Trainer(args=args, train_dataset=rows).train()\n"
        "    assert len(list(out.glob('checkpoint-*'))) >= 2\n"
    )
    project = Project(tmp_path, Config())
    [finding] = Engine(project, build_selection(project.config)).check_file(
        "scripts/huge_derived.py"
    )
    assert finding.code == "GL301"
    expected = "realized n=70000 rows -> 8750 optimizer steps -> 1 checkpoint"
    assert finding.message.startswith(expected)
    assert "the ends and breakpoints of [1, 10000000]" in finding.message


def test_corpus_has_buggy_drivers_with_fixed_twins():
    bad = sorted(p.stem.removesuffix("_bad") for p in CORPUS.glob("dial_*_bad.py"))
    fixed = sorted(p.stem.removesuffix("_fixed") for p in CORPUS.glob("dial_*_fixed.py"))
    assert len(bad) >= 12 and bad == fixed
    for stem in bad:
        assert expectations((CORPUS / f"{stem}_bad.py").read_text()), stem
        assert not expectations((CORPUS / f"{stem}_fixed.py").read_text()), stem
