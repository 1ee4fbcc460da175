"""The runner's own guide runs: every example in docs/RUNNING.md passes."""

from __future__ import annotations

from pathlib import Path

from guidelint.runner.run import RunOptions, run_examples

DOC = Path(__file__).parents[2] / "docs" / "RUNNING.md"


def test_running_md_examples_pass(tmp_path):
    report = run_examples(RunOptions(paths=[DOC], report_dir=tmp_path))
    failures = [(r.line, r.status.value, r.message) for r in report.results if not r.status.ok]
    assert failures == []
    assert len(report.results) == 5
    assert {r.status.value for r in report.results} == {"passed"}
