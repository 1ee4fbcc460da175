"""Hostile drivers: nothing a script in scripts/ holds may crash or stall `check`.

libcst's parser is native: deep nesting overflowed its C stack and `check` died with
a segfault (exit 139, no output). The full runs go through a subprocess, so a
regression fails this test instead of killing pytest.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guidelint.smoke import parse_guard, rulebase
from guidelint.smoke.parse_guard import MAX_DEPTH, NotPython, TooDeep, check_parsable
from guidelint.sources import SourceFile
from tests.conftest import run_cli

REFUSED = "GL301-GL304 cannot check its smoke gates"


def _findings(root):
    result = run_cli("check", "--no-cache", "--format", "json", cwd=root)
    assert result.returncode in (0, 1), (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout)["findings"]


def test_2000_nested_parentheses_do_not_segfault_check(make_project):
    # The reproduction: exit 139 and no output before the guard.
    root = make_project({"scripts/deep.py": "x = " + "(" * 2000 + "1" + ")" * 2000 + "\n"})
    result = run_cli("check", "--no-cache", cwd=root)
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    assert result.stdout.splitlines() == ["All checks passed (1 file checked)."]
    assert result.stderr == ""


def test_deep_nesting_of_every_kind_is_skipped_or_one_warning(make_project):
    drivers = {
        # CPython refuses these itself (too many brackets, or too deep to compile):
        # not Python, skipped as a syntax error is.
        "scripts/brackets.py": "x = " + "[" * 1000 + "]" * 1000 + "\n",
        "scripts/sum_chain.py": "x = " + "+".join(["a"] * 100_000) + "\n",
        "scripts/not_chain.py": "x = " + "not " * 100_000 + "a\n",
        "scripts/power_chain.py": "x = " + "**".join(["a"] * 100_000) + "\n",
        # Valid Python that libcst cannot read safely: one warning each.
        "scripts/and_chain.py": "x = " + " and ".join(["a"] * 100_000) + "\n",  # segfaulted
        "scripts/dotted.py": "import a" + ".b" * 100_000 + "\n",  # 14 s in ast.parse
        "scripts/calls.py": "\n\nx = " + "f(" * 150 + ")" * 150 + "\n",  # RecursionError
        "scripts/elifs.py": "if a:\n    pass\n" + "elif a:\n    pass\n" * 1000,  # traceback
        "scripts/fine.py": "import a.b.c\nx = f(g(h(1))) and a and b\n",
    }
    findings = _findings(make_project(drivers))
    got = {(f["path"], f["line"], f["code"], f["severity"]) for f in findings}
    assert got == {
        ("scripts/and_chain.py", 1, "GL301", "warning"),
        ("scripts/dotted.py", 1, "GL301", "warning"),
        ("scripts/calls.py", 3, "GL301", "warning"),
        ("scripts/elifs.py", 2 * MAX_DEPTH - 1, "GL301", "warning"),  # elif 99
    }, findings
    assert all(f["message"].startswith("driver not read: ") for f in findings)
    assert all(f["message"].endswith(REFUSED) for f in findings)


def test_guard_passes_real_drivers_and_refuses_past_the_limit():
    assert check_parsable("import a.b.c\nx = f(g(1)) if a and b else -c\n") is None
    nested = "x = " + "f(" * (MAX_DEPTH - 10) + ")" * (MAX_DEPTH - 10) + "\n"
    assert check_parsable(nested) is None
    too_deep = "\n" * 4 + "x = " + "f(" * (MAX_DEPTH + 1) + ")" * (MAX_DEPTH + 1) + "\n"
    assert check_parsable(too_deep) == TooDeep(5, f"nested more than {MAX_DEPTH} levels deep")
    assert check_parsable("x = " + " or ".join(["a"] * (MAX_DEPTH + 1))) is not None


@pytest.mark.parametrize(
    "text",
    [
        "def smoke(:\n",
        "x = " + "(" * 201 + ")" * 201,  # CPython's own limit: 200 nested brackets
        "x = \0",
    ],
)
def test_what_cpython_refuses_is_not_python(text):
    with pytest.raises(NotPython):
        check_parsable(text)


def test_dotted_names_are_refused_before_ast_parse_even_across_continuations():
    text = "import os\nimport a" + ". \\\n b" * (MAX_DEPTH + 5) + "\n"
    assert check_parsable(text) == TooDeep(2, f"a dotted name of more than {MAX_DEPTH} parts")
    assert check_parsable("import a" + ".b" * (MAX_DEPTH // 2)) is None


def test_a_huge_flat_driver_is_refused_by_node_count(monkeypatch):
    # 100,000 comparisons (26 s through libcst) at the real limit; scaled down here.
    monkeypatch.setattr(parse_guard, "MAX_NODES", 50)
    refusal = check_parsable("x = " + " < ".join(["a"] * 40) + "\n")
    assert refusal == TooDeep(1, "more than 50 syntax nodes")


def test_a_recursion_error_inside_libcst_is_a_refusal_not_gl000(monkeypatch):
    """libcst re-raises a RecursionError as a KeyError whose repr recurses again."""

    def deep_reader(text, origin=None):
        try:
            raise RecursionError("maximum recursion depth exceeded")
        except RecursionError:
            raise KeyError("node") from None

    monkeypatch.setattr("guidelint.smoke.driver_reader.read_driver", deep_reader)
    file = SourceFile(path=Path("scripts/d.py"), rel="scripts/d.py", text="x = 1\n")
    assert rulebase.driver_facts(file) is None
    assert rulebase.driver_refusal(file) == TooDeep(1)


def test_other_reader_errors_still_surface(monkeypatch):
    def broken_reader(text, origin=None):
        raise KeyError("a bug, not a deep file")

    monkeypatch.setattr("guidelint.smoke.driver_reader.read_driver", broken_reader)
    file = SourceFile(path=Path("scripts/d.py"), rel="scripts/d.py", text="x = 1\n")
    with pytest.raises(KeyError):
        rulebase.driver_facts(file)


HUGE_POWER_DRIVER = """import math
from transformers import Trainer, TrainingArguments
rows = load_rows()[:30]
EPOCHS = 10 ** 10 ** 10
args = TrainingArguments(output_dir="out", per_device_train_batch_size=4,
                         gradient_accumulation_steps=4, num_train_epochs=EPOCHS, save_steps=1)
Trainer(args=args).train()
assert len(list(Path("out").glob("checkpoint-*"))) >= 2
"""


def test_a_power_beyond_any_dial_is_not_computed(make_project):
    # `10 ** 10 ** 10` would take the check's CPU and memory for ever: it is refused.
    findings = _findings(make_project({"scripts/smoke_train.py": HUGE_POWER_DRIVER}))
    codes = {f["code"] for f in findings}
    assert "GL000" not in codes and "GL304" in codes, findings
    unprovable = next(f for f in findings if f["code"] == "GL304")
    assert "a power beyond any dial" in unprovable["message"]
