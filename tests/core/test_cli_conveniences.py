"""`guidelint check --diff`, `--stdin-filename` and `--watch`."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from guidelint.commands.cli import main

REPO = Path(__file__).parents[2]
GOTCHAS = """# Gotchas

## LESSONS index

- [Smoke gates use the realized slice](#smoke-gates-use-the-realized-slice)
- [Checkpoints are written only at save steps](#checkpoints-are-written-only-at-save-steps)

## Lessons

- **Smoke gates use the realized slice.** Never the assumed row cap (#1489).
"""
GUIDE = "# Guide\n\nRun `scripts/train.py`.\n"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint]\n")
    (tmp_path / ".claude" / "rules").mkdir(parents=True)
    (tmp_path / ".claude" / "rules" / "gotchas.md").write_text(GOTCHAS)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "train.py").write_text("print('train')\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(GUIDE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_diff_shows_the_fixes_and_writes_nothing(workspace):
    result = CliRunner().invoke(main, ["check", "--diff", "--no-cache"])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:2] == [
        "--- a/.claude/rules/gotchas.md",
        "+++ b/.claude/rules/gotchas.md",
    ]
    assert "-- [Checkpoints are written only at save steps]" in result.stdout
    assert "Would fix 1 finding(s) in 1 file(s)." in result.stderr
    assert (workspace / ".claude" / "rules" / "gotchas.md").read_text() == GOTCHAS


def test_diff_on_a_clean_project_is_empty_and_exit_0(workspace):
    (workspace / ".claude" / "rules" / "gotchas.md").unlink()
    result = CliRunner().invoke(main, ["check", "--diff", "--no-cache"])
    assert (result.exit_code, result.stdout) == (0, "")


def test_stdin_is_checked_as_the_named_file(workspace):
    text = "# New\n\nRun `scripts/missing.py`.\n"
    result = CliRunner().invoke(
        main, ["check", "--stdin-filename", "docs/new.md", "--format", "json"], input=text
    )
    assert result.exit_code == 1, result.output
    assert '"path": "docs/new.md"' in result.stdout and "GL501" in result.stdout
    assert not (workspace / "docs" / "new.md").exists()


def test_stdin_with_fix_prints_the_fixed_text(workspace):
    result = CliRunner().invoke(
        main, ["check", "--stdin-filename", ".claude/rules/gotchas.md", "--fix"], input=GOTCHAS
    )
    assert result.exit_code == 0, result.output
    assert "checkpoints-are-written" not in result.stdout
    assert result.stdout.startswith("# Gotchas\n")
    assert (workspace / ".claude" / "rules" / "gotchas.md").read_text() == GOTCHAS


def test_stdin_that_is_not_utf8_is_one_line(workspace):
    result = CliRunner().invoke(
        main, ["check", "--stdin-filename", "docs/x.md"], input=b"\xff\xfe\x00bad"
    )
    assert result.exit_code == 2
    assert result.stderr == "guidelint: error: docs/x.md: stdin is not valid UTF-8 (byte 0)\n"


def _lines(stream, into: queue.Queue) -> None:
    for line in iter(stream.readline, ""):
        into.put(line)


@pytest.mark.slow  # a watching process, real file events
def test_watch_checks_again_when_a_file_changes(workspace):
    pytest.importorskip("watchfiles")
    process = subprocess.Popen(
        [sys.executable, "-m", "guidelint", "check", "--watch", "--no-cache"],
        cwd=workspace,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    seen: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(process.stdout, seen), daemon=True).start()

    def wait_for(text: str) -> list[str]:
        got = []
        while True:
            line = seen.get(timeout=60)  # a guard against a hang, not a measure
            got.append(line)
            if text in line:
                return got

    try:
        first = wait_for("guidelint: watching")
        assert any("GL203" in line for line in first)  # the first check, before watching
        (workspace / "docs" / "guide.md").write_text("# Guide\n\nRun `scripts/gone.py`.\n")
        again = wait_for("GL501")
        assert any("changed: guide.md; checking again" in line for line in again)
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_long_check_reports_progress_in_batches_with_the_same_findings(workspace):
    from guidelint.check import CheckOptions, run_check

    for number in range(5):
        (workspace / "docs" / f"extra{number}.md").write_text(f"See `scripts/gone{number}.py`.\n")
    heard: list[tuple[int, int]] = []
    batched = run_check(
        CheckOptions(use_cache=False, progress=lambda *seen: heard.append(seen), progress_every=3)
    )
    assert heard == [(3, 8), (6, 8), (8, 8)]  # 7 guides and scripts/train.py
    whole = run_check(CheckOptions(use_cache=False))
    assert batched.findings == whole.findings and len(whole.findings) == 6


def test_a_short_check_without_a_terminal_prints_no_progress(workspace):
    result = CliRunner().invoke(main, ["check", "--no-cache"])
    assert result.stderr == ""
    assert "GL203" in result.stdout
