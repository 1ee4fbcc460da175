"""`guidelint gotcha add|list|find`: through click's CliRunner and a real subprocess."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from guidelint.commands.cli import main
from tests.conftest import run_cli

GOTCHAS = ".claude/rules/gotchas.md"
FILE = """\
# Gotchas

<!-- guidelint: row-cap=4 -->

## LESSONS index

- [Smoke gates use the realized slice](#realized-slice)
- [Geometry lives in one file](#geometry-lives-in-one-file)

## Training

- <a id="realized-slice"></a>**Smoke gates use the realized slice.** Never the
  assumed row cap (#1489). fingerprint: `9c1e4f27a0b3`
- **Geometry lives in one file.** Smoke runs change the dial only (#1502).
"""
ADD = [
    "gotcha",
    "add",
    "--headline",
    "Eval loaders never share a sampler seed",
    "--body",
    "Two loaders seeded alike saw the same rows.",
    "--provenance",
    "#1533",
]


@pytest.fixture
def project(make_project, monkeypatch):
    root = make_project({GOTCHAS: FILE})
    monkeypatch.chdir(root)
    return root


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def gotchas_text(root) -> str:
    return (root / GOTCHAS).read_bytes().decode("utf-8")


def check_gl2(root) -> list:
    result = invoke("check", "--select", "GL2", "--format", "json", "--no-cache", str(root))
    return json.loads(result.stdout)["findings"]


def test_add_appends_entry_and_row_and_leaves_the_file_clean(project):
    result = invoke(*ADD, "--fingerprint", "ABC123def")
    assert result.exit_code == 0, result.output
    text = gotchas_text(project)
    assert text.startswith(
        FILE[: FILE.index("\n## Training")].replace(
            "(#geometry-lives-in-one-file)\n",
            "(#geometry-lives-in-one-file)\n"
            "- [Eval loaders never share a sampler seed]"
            "(#eval-loaders-never-share-a-sampler-seed)\n",
        )
    )
    assert text.endswith(
        '- <a id="eval-loaders-never-share-a-sampler-seed"></a>**Eval loaders never share a '
        "sampler seed.** Two loaders seeded alike saw the same rows. "
        "(#1533; fingerprint: `abc123def`)\n"
    )
    assert "added entry 3 of cap 4 at .claude/rules/gotchas.md:16" in result.output
    assert check_gl2(project) == []


def test_dry_run_prints_a_diff_and_writes_nothing(project):
    result = invoke(*ADD, "--dry-run")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"--- a/{GOTCHAS}\n+++ b/{GOTCHAS}\n")
    assert "+- [Eval loaders never share a sampler seed]" in result.stdout
    assert gotchas_text(project) == FILE


def test_add_json(project):
    result = invoke(*ADD, "--format", "json", "--dry-run")
    payload = json.loads(result.stdout)
    assert payload["anchor"] == "eval-loaders-never-share-a-sampler-seed"
    assert (payload["entries"], payload["row_cap"], payload["written"]) == (3, 4, False)
    assert payload["diff"].startswith("--- a/")


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--fingerprint", "9C1E4F27A0B3"], "fingerprint 9c1e4f27a0b3 is already entry"),
        (
            ["--headline", "Smoke gate floors use the realized smoke slice"],
            "headline repeats entry 'Smoke gates use the realized slice'",
        ),
        (["--provenance", "issue 1533"], "is not an issue id like #1489"),
        (["--fingerprint", "xyz"], "is not 6-64 hex digits"),
        (["--headline", "  "], "--headline is empty"),
    ],
)
def test_add_refuses_with_one_line(project, extra, says):
    args = list(ADD)
    for i in range(0, len(extra), 2):
        if extra[i] in args:
            args[args.index(extra[i]) + 1] = extra[i + 1]
        else:
            args += extra[i : i + 2]
    result = invoke(*args)
    assert result.exit_code == 1
    assert says in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert gotchas_text(project) == FILE


def test_add_refuses_over_the_cap(project):
    (project / GOTCHAS).write_text(FILE.replace("row-cap=4", "row-cap=2"), encoding="utf-8")
    result = invoke(*ADD)
    assert result.exit_code == 1
    assert "holds 2 entries, its row cap is 2" in result.stderr
    assert "the oldest is 'Smoke gates use the realized slice', line 12" in result.stderr


def test_add_refuses_an_invalid_file(project):
    drifted = FILE.replace("- [Geometry lives in one file](#geometry-lives-in-one-file)\n", "")
    (project / GOTCHAS).write_text(drifted, encoding="utf-8")
    result = invoke(*ADD)
    assert result.exit_code == 1
    assert f"{GOTCHAS}:13: GL202" in result.stderr and "check --fix" in result.stderr
    assert gotchas_text(project) == drifted


def test_add_keeps_crlf(project):
    (project / GOTCHAS).write_bytes(FILE.replace("\n", "\r\n").encode())
    assert invoke(*ADD).exit_code == 0
    data = (project / GOTCHAS).read_bytes()
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert data.count(b"\r\n") == FILE.count("\n") + 2  # the entry and its row
    assert check_gl2(project) == []


def test_add_to_a_new_section_and_to_an_existing_one(project):
    assert invoke(*ADD, "--section", "Evaluation").exit_code == 0
    args = ["gotcha", "add", "--headline", "Checkpoints appear only at save steps"]
    args += ["--body", "Count them on disk.", "--provenance", "#1540", "--section", "training"]
    assert invoke(*args).exit_code == 0
    text = gotchas_text(project)
    assert text.index("**Checkpoints appear") < text.index("## Evaluation")
    assert text.index("## Evaluation") < text.index("**Eval loaders")
    assert check_gl2(project) == []


def test_add_creates_a_missing_gotchas_file(make_project, monkeypatch):
    root = make_project({"docs/README.md": "# Docs\n"})
    monkeypatch.chdir(root)
    assert invoke(*ADD).exit_code == 0
    assert "**Eval loaders never share a sampler seed.**" in gotchas_text(root)
    assert check_gl2(root) == []


def test_list_text_and_json(project):
    result = invoke("gotcha", "list")
    assert result.stdout.splitlines() == [
        f"{GOTCHAS}:12: #1489  Smoke gates use the realized slice",
        f"{GOTCHAS}:14: #1502  Geometry lives in one file",
    ]
    [first, _] = json.loads(invoke("gotcha", "list", "--format", "json").stdout)
    assert first["anchor"] == "realized-slice" and first["fingerprint"] == "9c1e4f27a0b3"


def test_find_is_case_insensitive_regex_like_grep(project):
    hit = invoke("gotcha", "find", "ROW\\s+CAP")
    assert (hit.exit_code, hit.stdout) == (0, f"{GOTCHAS}:12: Smoke gates use the realized slice\n")
    assert "1 matching entry" in hit.stderr
    miss = invoke("gotcha", "find", "--count", "tokenizer")
    assert (miss.exit_code, miss.stdout) == (1, "0\n")
    bad = invoke("gotcha", "find", "(unclosed")
    assert bad.exit_code == 2 and "not a valid regular expression" in bad.stderr


def test_real_subprocess_add_then_check(project):
    result = run_cli(*ADD, cwd=project)
    assert result.returncode == 0, result.stderr
    assert "added entry 3" in result.stdout
    assert check_gl2(project) == []
    again = run_cli(*ADD, cwd=project)
    assert again.returncode == 1
    assert again.stderr.startswith("guidelint: error: gotcha not added: headline repeats")
    assert "Traceback" not in again.stderr


def test_add_refuses_a_file_that_is_not_a_gotchas_file(project):
    (project / "docs").mkdir()
    (project / "docs/notes.md").write_text("# Notes\n", encoding="utf-8")
    result = invoke(*ADD, "--file", "docs/notes.md")
    assert result.exit_code == 1
    assert "docs/notes.md is not a configured gotchas file" in result.stderr


def test_unreadable_gotchas_file_is_one_line_never_a_traceback(project):
    (project / GOTCHAS).write_bytes(b"# Gotchas\n\n- **Caf\xe9.** (#1)\n")
    added = invoke(*ADD)
    assert added.exit_code == 1 and "cannot read" in added.stderr
    listed = invoke("gotcha", "list")
    assert listed.exit_code == 2 and len(listed.stderr.strip().splitlines()) == 1
    assert "Traceback" not in added.stderr + listed.stderr


def test_add_with_a_separate_index_file(make_project, monkeypatch):
    gotchas = '# Gotchas\n\n- <a id="one"></a>**Smoke gates use the realized slice.** (#1489)\n'
    index = "# Lessons\n\n- [Smoke gates use the realized slice](../.claude/rules/gotchas.md#one)\n"
    root = make_project(
        {GOTCHAS: gotchas, "docs/LESSONS.md": index},
        config='[tool.guidelint.gotchas]\nindex-file = "docs/LESSONS.md"',
    )
    monkeypatch.chdir(root)
    result = invoke(*ADD)
    assert result.exit_code == 0, result.output
    assert (root / "docs/LESSONS.md").read_text(encoding="utf-8") == index + (
        "- [Eval loaders never share a sampler seed]"
        "(../.claude/rules/gotchas.md#eval-loaders-never-share-a-sampler-seed)\n"
    )
    assert "**Eval loaders never share a sampler seed.**" in gotchas_text(root)
    assert check_gl2(root) == []


def test_a_headline_that_breaks_its_bold_is_one_line(project):
    # "Note the *star": the lone * opens emphasis inside **...**, so the entry would
    # not parse as one (it was a StopIteration traceback, issue #14).
    star = ["--body", "b", "--provenance", "#7"]
    result = invoke("gotcha", "add", "--headline", "Note the *star", *star)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert "does not survive as Markdown bold text" in result.stderr
    escaped = invoke("gotcha", "add", "--headline", "Note the \\*star", *star)
    assert escaped.exit_code == 0, escaped.stderr
    assert check_gl2(project) == []


def test_a_refusal_in_json_is_json_too(project):
    # An agent asking for JSON gets the refusal as data (issue #16), and still exit 1.
    invoke(*ADD)
    again = invoke(*ADD, "--format", "json")
    assert again.exit_code == 1
    payload = json.loads(again.stdout)
    assert payload["refused"] is True and payload["written"] is False
    assert payload["reason"].startswith("headline repeats")
    assert again.stderr.startswith("guidelint: error: gotcha not added: headline repeats")
