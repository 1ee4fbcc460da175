"""`>>>` blocks compare output only where the example states one (doctest-output)."""

from __future__ import annotations

import pytest

from guidelint.runner.run import RunOptions, run_examples

GUIDE = """# REPL

```python {id=unstated}
>>> items = [1, 2]
>>> items.append(3)
>>> items
>>> len(items)
3
```

```python {id=stated-wrong}
>>> sorted([3, 1])
[3, 1]
```

```python {id=raises}
>>> {}["missing"]
```

```python {id=missing-package}
>>> import a_package_nobody_installed
```

A function written without prompts is read as the output expected of the line above:

```python {id=unprompted-def}
>>> value = 1
def helper():
    return 2
>>> helper()
```
"""


def run_with(tmp_path, mode: str | None):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "GUIDE.md").write_text(GUIDE)
    setting = f'[tool.guidelint.runner]\ndoctest-output = "{mode}"\n' if mode else ""
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.guidelint]\ninclude = ["docs/*.md"]\n{setting}'
    )
    report = run_examples(RunOptions(paths=[tmp_path / "docs"], report_dir=tmp_path / "report"))
    return {r.id: r for r in report.results}


@pytest.mark.parametrize("mode", [None, "stated"])
def test_stated_runs_a_statement_with_no_output_under_it_as_a_script_line(tmp_path, mode):
    results = run_with(tmp_path, mode)
    assert results["unstated"].status.value == "passed", results["unstated"].message
    wrong = results["stated-wrong"]
    assert wrong.status.value == "failed"  # a stated output is still compared
    assert wrong.message.startswith("line 12:")
    raised = results["raises"]  # an exception is never "no output"
    assert raised.status.value == "error"
    # the exception first, as a script's error reads, then doctest's report of it
    assert raised.message.startswith("line 17: KeyError: 'missing'\n"), raised.message
    assert "Failed example:" in raised.message
    unprompted = results["unprompted-def"]  # the NameError's cause is named too
    assert unprompted.status.value == "error"
    assert unprompted.message.startswith(
        "line 30: NameError: name 'helper' is not defined\n(earlier, line 27: its output "
        "differed from the lines under it)"
    ), unprompted.message
    missing = results["missing-package"]
    assert missing.status.value == "missing-dependency"
    assert missing.message.startswith("line 21: ModuleNotFoundError: ")
    assert "(missing package: a_package_nobody_installed;" in missing.message


def test_strict_compares_every_statement_as_doctest_does(tmp_path):
    results = run_with(tmp_path, "strict")
    unstated = results["unstated"]
    assert unstated.status.value == "failed"
    assert unstated.message.startswith("line 6:")
    assert "Expected nothing" in unstated.message
    assert results["stated-wrong"].status.value == "failed"


def test_an_unknown_mode_is_a_configuration_error(tmp_path):
    from guidelint.config import ConfigError

    with pytest.raises(ConfigError, match="doctest-output"):
        run_with(tmp_path, "lenient")
