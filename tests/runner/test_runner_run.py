"""`guidelint run` on ordinary examples: outcomes, sessions, output blocks, reports, CLI."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest
from click.testing import CliRunner

from guidelint.commands.cli import main
from guidelint.runner.reports import render
from guidelint.runner.run import RunOptions, run_examples

FIXTURES = Path(__file__).parents[1] / "fixtures" / "runner"
SCHEMA = Path(__file__).parents[2] / "guidelint" / "runner" / "report_schema.json"


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
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert cases["hello"].get("file") == "tests/fixtures/runner/basic.md"  # id= names the case
    assert cases["hello"].get("line") == "3"
    image = cases["writes-image"].find("properties/property[@name='attachment']").get("value")
    assert image == basic[1]["writes-image"].images[0]
    assert f"[[ATTACHMENT|{image}]]" in cases["writes-image"].find("system-out").text
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
    statuses = [e["status"] for e in json.loads(pending.stdout)["examples"]]
    assert statuses == ["pending-passed", "pending-failed"]


def test_without_a_terminal_each_finished_example_is_one_line(tmp_path):
    guide = tmp_path / "guide.md"
    guide.write_text("```python\nprint(1)\n```\n\n```python {id=two}\nprint(2)\n```\n")
    args = ["run", str(guide), "--report-dir", str(tmp_path / "r"), "--format", "json"]
    shown = CliRunner().invoke(main, args)
    progress = shown.stderr.splitlines()
    assert [line[:9] for line in progress] == ["[1/2] ok ", "[2/2] ok "], shown.stderr
    ends = sorted(re.sub(r"^.*guide\.md", "", line) for line in progress)
    assert re.fullmatch(r":1 \(\d+\.\d\ds\)", ends[0]), ends
    assert re.fullmatch(r":5 \[two\] \(\d+\.\d\ds\)", ends[1]), ends
    assert json.loads(shown.stdout)["summary"]["passed"] == 2  # stdout is the report alone
    quiet = CliRunner().invoke(main, [*args, "--quiet"])
    assert quiet.stderr == "" and json.loads(quiet.stdout)["summary"]["passed"] == 2


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


def test_cli_id_runs_one_example_and_its_session(tmp_path):
    def run(*ids: str):
        args = [a for i in ids for a in ("--id", i)]
        report_dir = ["--report-dir", str(tmp_path / "r")]
        return CliRunner().invoke(
            main, ["run", str(FIXTURES / "basic.md"), "--format", "json", *args, *report_dir]
        )

    one = run("hello")
    assert one.exit_code == 0, one.output
    assert [e["id"] for e in json.loads(one.stdout)["examples"]] == ["hello"]
    session = run("session-2", "hello")
    assert sorted(e["id"] for e in json.loads(session.stdout)["examples"]) == [
        "hello",
        "session-1",
        "session-2",
    ]
    unknown = run("helo")
    assert unknown.exit_code == 2
    assert "no example has the id helo" in unknown.output and "Traceback" not in unknown.output
