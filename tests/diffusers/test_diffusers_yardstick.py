"""The yardstick's goal figure and its reviewed list of the examples' real bugs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("diffusers")

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "diffusers_yardstick.py"


@pytest.fixture(scope="module")
def yardstick():
    spec = importlib.util.spec_from_file_location("diffusers_yardstick", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def test_each_listed_bug_is_a_line_of_an_installed_example(yardstick):
    examples = {m.name: m.example.splitlines() for m in yardstick.collect()}
    for module, bug in yardstick.REAL_BUGS.items():
        assert module in examples, module
        assert 1 <= bug.line - 3 <= len(examples[module]), (module, bug.line)
        assert examples[module][bug.line - 4].strip(), (module, "a blank line")


def test_the_goal_leaves_out_missing_packages_and_confirmed_bugs_and_names_stale_ones(
    yardstick,
):
    row = yardstick.Row
    ddim = yardstick.REAL_BUGS["ddim.pipeline_ddim"]
    rows = [
        row("flux.pipeline_flux", "passed", "", 1.0),
        row("sana.pipeline_sana", "unsupported-model", "", 1.0),
        row("consisid.pipeline_consisid", "missing-dependency", "", 1.0),
        # fails as the list says: a real bug, out of the count
        row("ddim.pipeline_ddim", "error", "", 1.0, message=f"line {ddim.line}: {ddim.says}"),
        # listed, but now fails elsewhere: stale, so it stays in the count
        row("lucy.pipeline_lucy_edit", "error", "", 1.0, message="line 40: OSError: gone"),
    ]
    text, stale = yardstick.goal(rows)
    assert text.startswith("Goal (issue #10: at least 80 %): 1 passed of 3 examples ")
    assert "(5 modules - 1 missing-dependency - 1 real bugs) = 33 %." in text
    assert [r.module for r in stale] == ["lucy.pipeline_lucy_edit"]
    rendered = yardstick.table(rows, "a test")
    assert "The real-bug list is stale for: lucy.pipeline_lucy_edit (no longer line 4:" in rendered
    assert f"| ddim.pipeline_ddim | {ddim.line} | {ddim.wrong} |" in rendered


def test_a_doctest_mismatch_is_summed_up_by_its_statement_and_stated_output(yardstick):
    message = (
        "line 8:\nFailed example:\n    pipe.to('cuda')\nExpected:\n    # a comment\n"
        "Got:\n    X {\n    }\n    <BLANKLINE>\n"
    )
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    assert (
        yardstick.repl_reason(lines[1:])
        == "pipe.to('cuda') printed other than the stated '# a comment'"
    )
    raised = ["Traceback (most recent call last):", "NameError: name 'pipe' is not defined"]
    assert yardstick.repl_reason(raised) == "NameError: name 'pipe' is not defined"
