"""`guidelint smoke plan|dial` through click, and the import budget of the smoke pillar."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from guidelint.commands.cli import main

INCIDENT = ["--batch", "4", "--accum", "4", "--save-steps", "1"]


def invoke(*args: str):
    return CliRunner().invoke(main, ["smoke", *args])


def test_plan_json_keys_and_values():
    result = invoke("plan", "--rows", "2", "--epochs", "1", *INCIDENT, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["steps"] == 1 and data["epochs_run"] == 1.0 and data["outcome"] == "ok"
    assert data["saved_steps"] == [1] and data["checkpoints_on_disk"] == ["checkpoint-1"]
    assert "rows" not in data


def test_plan_table_marks_each_failing_n_and_exits_1():
    result = invoke(
        "plan",
        "--rows",
        "2",
        "--cap",
        "30",
        "--epochs",
        "1",
        "--floor",
        "2",
        *INCIDENT,
        "--format",
        "json",
    )
    assert result.exit_code == 1
    rows = json.loads(result.output)["rows"]
    assert [r["n"] for r in rows] == list(range(1, 31))
    assert [r["n"] for r in rows if not r["meets_floor"]] == list(range(1, 17))
    text = invoke("plan", "--rows", "2", "--cap", "30", "--epochs", "1", "--floor", "2", *INCIDENT)
    assert "1-16" in text.output and "FAILS floor" in text.output
    assert "floor 2 checkpoints fails for 16 of 30 realized sizes" in text.output


def test_plan_names_failure_outcomes():
    result = invoke(
        "plan", "--rows", "3", "--batch", "4", "--drop-last", "--epochs", "1", "--format", "json"
    )
    assert json.loads(result.output)["outcome"] == "empty-dataloader"
    result = invoke(
        "plan",
        "--rows",
        "2",
        "--batch",
        "2",
        "--accum",
        "4",
        "--iterable",
        "--max-steps",
        "3",
        "--format",
        "json",
    )
    assert json.loads(result.output)["outcome"] == "never-ends"


def test_plan_with_stale_dirs_and_rotation():
    result = invoke(
        "plan",
        "--rows",
        "12",
        "--batch",
        "4",
        "--epochs",
        "1",
        "--save-steps",
        "1",
        "--save-total-limit",
        "2",
        "--existing",
        "100",
        "--format",
        "json",
    )
    assert json.loads(result.output)["checkpoints_on_disk"] == ["checkpoint-2", "checkpoint-3"]


def test_dial_json():
    result = invoke("dial", "--floor", "2", "--cap", "30", *INCIDENT, "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data | {"formula": None} == {
        "request": data["request"],
        "feasible": True,
        "epochs": 2,
        "max_steps": 2,
        "reason": None,
        "worst_rows": 1,
        "formula": None,
    }
    assert data["request"]["floor"] == 2 and data["request"]["cap"] == 30
    assert data["formula"]["max_steps"] == "max_steps = (2 - 1) * 1 + 1 = 2"
    assert data["formula"]["rule_of_thumb"] is None  # every step saves: the card is right


def test_dial_gives_the_formula_that_holds_with_sparse_saves():
    result = invoke("dial", "--floor", "2", "--cap", "30", "--batch", "4", "--accum", "4",
                    "--save-steps", "5")  # fmt: skip
    assert result.exit_code == 0
    assert "epochs: 6 (worst case n=1)" in result.output
    assert (
        "per realized n: epochs = (2 - 1) * 5 // steps_per_epoch + 1, "
        "steps_per_epoch = max(1, ceil(ceil(len(rows) / 4) / 4))"
    ) in result.output
    assert "for every n: max_steps = (2 - 1) * 5 + 1 = 6" in result.output
    assert "rule of thumb epochs = max(1, ceil(2 / steps_per_epoch)) gives 2 at n=1" in (
        result.output
    )


def test_plan_says_why_a_floor_fails_without_a_table():
    args = ("plan", "--rows", "2", "--epochs", "1", "--floor", "2", *INCIDENT)
    text = invoke(*args)
    assert text.exit_code == 1
    assert "floor 2 checkpoints: FAILS for 1 n; fails at the realized n=2 (exit 1)" in text.output
    assert "fails at n=2: 1 optimizer step -> 1 checkpoint < floor 2" in text.output
    assert "guidelint smoke dial suggests epochs=2 or max_steps=2" in text.output
    data = json.loads(invoke(*args, "--format", "json").output)["floor"]
    assert (data["holds"], data["failing_n"]) == (False, [2])
    assert data["failures"] == [
        {"first": 2, "last": 2, "why": "1 optimizer step -> 1 checkpoint < floor 2"}
    ]
    held = invoke("plan", "--rows", "20", "--epochs", "1", "--floor", "2", *INCIDENT)
    assert held.exit_code == 0 and "floor 2 checkpoints: holds (exit 0)" in held.output


def test_plan_table_lists_failing_ranges_and_why():
    data = json.loads(
        invoke(
            "plan",
            "--rows",
            "20",
            "--cap",
            "30",
            "--epochs",
            "1",
            "--floor",
            "2",
            *INCIDENT,
            "--format",
            "json",
        ).output  # fmt: skip
    )["floor"]
    assert data["failing_n"] == list(range(1, 17)) and not data["holds"]
    assert data["failures"] == [
        {"first": 1, "last": 16, "why": "1 optimizer step -> 1 checkpoint < floor 2"}
    ]


def test_dial_infeasible_exits_1_with_reason():
    result = invoke(
        "dial",
        "--floor",
        "3",
        "--cap",
        "30",
        *INCIDENT,
        "--save-total-limit",
        "2",
        "--format",
        "json",
    )
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["feasible"] is False and "save_total_limit 2" in data["reason"]


def test_dial_text_names_the_worst_case():
    result = invoke(
        "dial", "--floor", "2", "--cap", "30", "--batch", "4", "--save-strategy", "epoch"
    )
    assert "epochs: 2 (worst case n=1)" in result.output
    assert "max_steps: 9" in result.output


def test_bad_options_are_one_line_and_exit_2():
    both = invoke("plan", "--rows", "2", "--batch", "4", "--epochs", "1", "--max-steps", "2")
    assert both.exit_code == 2
    assert both.output.strip() == "guidelint: error: give exactly one of --epochs and --max-steps"
    bad = invoke("dial", "--floor", "2", "--cap", "30", "--min-rows", "40", "--batch", "4")
    assert bad.exit_code == 2 and "min_rows 40 is above the cap 30" in bad.output
    assert "Traceback" not in bad.output


def test_smoke_package_and_markdown_check_stay_light(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\nRun `make`.\n")
    code = (
        "import sys, pathlib, guidelint.smoke\n"
        "from guidelint.check import CheckOptions, run_check\n"
        "run_check(CheckOptions(paths=[pathlib.Path('docs')], use_cache=False, jobs=1))\n"
        "heavy = {'torch', 'transformers', 'libcst', 'diffusers'} & set(sys.modules)\n"
        "print(sorted(heavy))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=True
    )
    assert out.stdout.strip() == "[]"
