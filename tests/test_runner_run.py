"""`guidelint run` on ordinary examples: outcomes, sessions, output blocks, reports, CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest
from click.testing import CliRunner

from guidelint.cli import main
from guidelint.runner.reports import render
from guidelint.runner.run import RunOptions, run_examples

FIXTURES = Path(__file__).parent / "fixtures" / "runner"
SCHEMA = Path(__file__).parent.parent / "guidelint" / "runner" / "report_schema.json"


@pytest.fixture(scope="module")
def basic(tmp_path_factory):
    report_dir = tmp_path_factory.mktemp("report")
    report = run_examples(RunOptions(paths=[FIXTURES / "basic.md"], report_dir=report_dir))
    return report, {r.id: r for r in report.results}, report_dir


@pytest.mark.parametrize(
    ("example_id", "status"),
    [
        ("hello", "passed"),
        ("wrong-output", "failed"),
        ("raises", "error"),
        ("expected-error", "passed"),
        ("expected-error-missing", "failed"),
        ("session-1", "passed"),
        ("session-2", "passed"),
        ("repl-wrong", "failed"),
        ("skipped", "skipped"),
        ("gpu-only", "skipped"),
        ("missing-module", "missing-dependency"),
        ("writes-image", "passed"),
        ("async", "passed"),
    ],
)
def test_outcome(basic, example_id, status):
    result = basic[1][example_id]
    assert result.status.value == status, result.message


def test_output_mismatch_shows_a_diff_with_the_block_line(basic):
    message = basic[1]["wrong-output"].message
    assert "output block at line 15" in message
    assert "-expected" in message and "+actual" in message


def test_exception_message_points_at_the_markdown_line(basic):
    result = basic[1]["raises"]
    assert result.message == "line 20: ValueError: boom"
    assert 'File "' in result.details and 'basic.md", line 20' in result.details


def test_repl_failure_names_the_statement_line(basic):
    message = basic[1]["repl-wrong"].message
    assert message.startswith("line 47:") and "Expected" in message


def test_session_shares_names_across_blocks(basic):
    assert basic[1]["session-2"].status.value == "passed"


def test_images_are_kept_in_the_report_folder(basic):
    result = basic[1]["writes-image"]
    assert len(result.images) == 1
    image = Path(result.images[0])
    assert image.is_file() and image.read_bytes().startswith(b"\x89PNG")
    assert str(image).startswith(str(basic[2]))


def test_json_report_follows_the_versioned_schema(basic):
    data = json.loads(render(basic[0], "json"))
    jsonschema.validate(data, json.loads(SCHEMA.read_text()))
    assert data["version"] == 2
    assert data["summary"]["total"] == len(basic[1])
    assert data["summary"]["missing-dependency"] == 1
    assert set(data["examples"][0]) == {
        "id",
        "path",
        "line",
        "status",
        "duration_s",
        "message",
        "stdout",
        "substitutions",
        "images",
        "pipelines",
    }


def test_junit_report_parses_and_counts(basic):
    suite = ElementTree.fromstring(render(basic[0], "junit"))
    assert suite.tag == "testsuite"
    assert int(suite.get("tests")) == len(basic[1])
    names = [case.get("name") for case in suite.iter("testcase")]
    assert "tests/fixtures/runner/basic.md:3" in names
    assert len(list(suite.iter("failure"))) == 3  # wrong-output, expected-error-missing, repl


def test_github_report_annotates_failures_only(basic):
    text = render(basic[0], "github")
    errors = [line for line in text.splitlines() if line.startswith("::error")]
    assert len(errors) == 5  # 3 failed, 1 error, 1 missing-dependency
    assert "file=tests/fixtures/runner/basic.md,line=11" in text


def test_text_report_ends_with_summary(basic):
    text = render(basic[0], "text")
    assert text.splitlines()[-1].startswith("FAILED: 13 example(s)")


def test_cli_exit_codes_and_pending_only(tmp_path):
    guide = tmp_path / "docs" / "guide.md"
    guide.parent.mkdir()
    shutil.copy(FIXTURES / "pending.md", guide)
    runner = CliRunner()
    everything = runner.invoke(main, ["run", str(guide), "--report-dir", str(tmp_path / "r")])
    assert everything.exit_code == 1  # the listed example's output block is stale
    pending = runner.invoke(
        main,
        ["run", "--pending", "--format", "json", str(guide), "--report-dir", str(tmp_path / "r")],
    )
    assert pending.exit_code == 0, pending.output
    statuses = [e["status"] for e in json.loads(pending.output)["examples"]]
    assert statuses == ["pending-passed", "pending-failed"]


def test_cli_config_error_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.runner]\ntimeout = -1\n")
    (tmp_path / "guide.md").write_text("```python\nprint(1)\n```\n")
    result = CliRunner().invoke(main, ["run", str(tmp_path / "guide.md")])
    assert result.exit_code == 2
    assert "timeout" in result.output and "Traceback" not in result.output


def test_cli_report_dir_that_cannot_exist_is_exit_2(tmp_path):
    (tmp_path / "file").write_text("")
    (tmp_path / "guide.md").write_text("```python\nprint(1)\n```\n")
    args = ["run", str(tmp_path / "guide.md"), "--report-dir", str(tmp_path / "file" / "x")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert "cannot create the report folder" in result.output
