"""--update rewrites output blocks; --promote turns passing pending examples into verified ones."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from guidelint.runner.run import RunOptions, run_examples

FIXTURES = Path(__file__).parents[1] / "fixtures" / "runner"

PROMOTED = """# Pending examples

<!-- guidelint: verified=2026-01-02 -->
```python {id=pending-good}
print(2 + 2)
```

```output
4
```

```python {pending id=pending-bad}
raise RuntimeError("not yet")
```

- In a list:

  ```python {id=listed}
  print("one")
  print("two")
  ```

  ```output
  one
  two
  ```
"""


def _copy(tmp_path: Path) -> Path:
    guide = tmp_path / "pending.md"
    shutil.copy(FIXTURES / "pending.md", guide)
    return guide


def test_update_and_promote_rewrite_in_place_and_converge(tmp_path):
    guide = _copy(tmp_path)
    options = RunOptions(
        paths=[guide], update=True, promote=True, today="2026-01-02", report_dir=tmp_path / "report"
    )
    first = run_examples(options)
    assert guide.read_text() == PROMOTED
    assert [r.status.value for r in first.results] == ["pending-passed", "pending-failed", "failed"]
    second = run_examples(options)
    assert guide.read_text() == PROMOTED  # idempotent
    assert [r.status.value for r in second.results] == ["passed", "pending-failed", "passed"]
    assert second.ok


def test_failing_pending_example_keeps_its_reason(tmp_path):
    guide = _copy(tmp_path)
    report = run_examples(
        RunOptions(paths=[guide], pending_only=True, promote=True, report_dir=tmp_path / "report")
    )
    bad = next(r for r in report.results if r.id == "pending-bad")
    assert bad.status.value == "pending-failed"
    assert bad.message.startswith("error: line 13: RuntimeError: not yet")
    assert "{pending id=pending-bad}" in guide.read_text()


def test_no_rewrite_when_the_file_changed_during_the_run(tmp_path):
    from guidelint.findings import Edit
    from guidelint.runner.rewrite import rewrite_file

    guide = _copy(tmp_path)
    note = rewrite_file(guide, "something else", [Edit(0, 1, "x")], tmp_path)
    assert note.endswith("the file changed during the run")
    assert guide.read_text() == (FIXTURES / "pending.md").read_text()


def test_update_never_writes_a_fence_into_an_output_block(tmp_path):
    guide = tmp_path / "guide.md"
    original = "```python\nprint('`' * 3)\nprint('after')\n```\n\n```output\nstale\n```\n"
    guide.write_text(original)
    report = run_examples(RunOptions(paths=[guide], update=True, report_dir=tmp_path / "r"))
    assert report.results[0].status.value == "failed"
    assert guide.read_text() == original


def test_the_json_report_says_what_the_text_says_about_promotion(tmp_path):
    # The text says "marked verified" / "ready: run with --promote"; so must the JSON.
    from guidelint.runner.reports import render

    guide = _copy(tmp_path)
    for promote in (False, True):
        options = RunOptions(
            paths=[guide], pending_only=True, promote=promote, report_dir=tmp_path / "report"
        )
        report = run_examples(options)
        text, data = render(report, "text"), json.loads(render(report, "json"))
        [passed] = [e for e in data["examples"] if e["status"] == "pending-passed"]
        assert passed["promoted"] is promote
        assert ("marked verified" in text) is promote
        assert all("images" in e for e in data["examples"])


def _linked_out(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose docs/pending.md is a symlink to a guide outside it."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "docs").mkdir(parents=True)
    (project / "guidelint.toml").write_text("")
    outside.mkdir()
    shutil.copy(FIXTURES / "pending.md", outside / "pending.md")
    (project / "docs" / "pending.md").symlink_to(outside / "pending.md")
    return project, outside / "pending.md"


def test_update_never_rewrites_a_guide_linked_from_outside_the_project(tmp_path):
    """--update and --promote read and write the guide inside the project only (#28):
    a committed symlink to another project's guide is one line, never rewritten."""
    project, target = _linked_out(tmp_path)
    for named in (project / "docs", project / "docs" / "pending.md"):
        options = RunOptions(paths=[named], update=True, promote=True, report_dir=project / "r")
        report = run_examples(options)
        assert target.read_text() == (FIXTURES / "pending.md").read_text()
        assert report.results == []
    [note] = report.notes  # the file named: one line says why it was not run
    assert note.startswith(f"{project}/docs/pending.md: not checked: it leads outside")


def test_rewrite_file_refuses_a_guide_swapped_for_a_link_out_during_the_run(tmp_path):
    from guidelint.findings import Edit
    from guidelint.runner.rewrite import rewrite_file

    project, target = _linked_out(tmp_path)
    text = target.read_text()
    note = rewrite_file(project / "docs" / "pending.md", text, [Edit(0, 1, "x")], project)
    assert note is not None and "outside the project" in note
    assert target.read_text() == text
