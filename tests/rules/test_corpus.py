"""A real-world corpus as a false-positive check: the OpenTelemetry website's 1,885
Markdown files, written by people outside this project.

Every rule runs over it and the findings must equal the reviewed snapshot in
tests/fixtures/corpus/opentelemetry-findings.json. A change that adds or removes
findings fails with the difference; when the change is intended (a new rule, a
fixed heuristic), review the new findings and regenerate the snapshot:

    GUIDELINT_UPDATE_CORPUS=1 .venv/bin/pytest tests/rules/test_corpus.py

The test is skipped when ../shared/corpus is not there.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from guidelint.config import Config
from guidelint.discovery import discover
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from tests.conftest import shared_corpus

CORPUS = shared_corpus("opentelemetry-docs")
SNAPSHOT = Path(__file__).parents[1] / "fixtures" / "corpus" / "opentelemetry-findings.json"
UPDATE = os.environ.get("GUIDELINT_UPDATE_CORPUS") == "1"

pytestmark = pytest.mark.corpus("opentelemetry-docs")


def corpus_findings() -> tuple[int, list[dict]]:
    """Every rule over every Markdown file of the corpus (read-only: no cache)."""
    config = Config(include=["**/*.md"], cache=False)
    project = Project(CORPUS, config)
    rels = discover(project.root, config)
    findings = Engine(project, build_selection(config)).check_files(rels)
    rows = [
        {"path": f.path, "line": f.line, "column": f.column, "code": f.code, "message": f.message}
        for f in findings
    ]
    return len(rels), rows


def _line(row: dict) -> str:
    return f"{row['path']}:{row['line']}:{row['column']}: {row['code']} {row['message']}"


def describe_difference(expected: list[dict], actual: list[dict]) -> str:
    """The findings a change added and removed, one per line."""
    before = {_line(r) for r in expected}
    after = {_line(r) for r in actual}
    added = sorted(after - before)
    removed = sorted(before - after)
    parts = [f"corpus findings changed: {len(added)} added, {len(removed)} removed"]
    parts += [f"+ {line}" for line in added]
    parts += [f"- {line}" for line in removed]
    parts.append("If intended, review them and run: GUIDELINT_UPDATE_CORPUS=1 pytest " + __file__)
    return "\n".join(parts)


@pytest.fixture(scope="module")
def checked():
    return corpus_findings()


@pytest.mark.slow  # all 1,885 corpus files
def test_corpus_findings_match_the_reviewed_snapshot(checked):
    files, rows = checked
    if UPDATE:
        SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
        payload = {"corpus": CORPUS.name, "files": files, "findings": rows}
        SNAPSHOT.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", "utf-8")
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert expected["files"] == files, "the corpus itself changed: regenerate the snapshot"
    assert expected["findings"] == rows, describe_difference(expected["findings"], rows)


@pytest.mark.slow  # all 1,885 corpus files
def test_corpus_is_readable_and_no_rule_crashes(checked):
    files, rows = checked
    assert files == 1885
    broken = [_line(r) for r in rows if r["code"] in ("GL000", "GL001")]
    assert broken == []


def test_difference_report_names_added_and_removed_findings():
    old = [{"path": "a.md", "line": 1, "column": 2, "code": "GL501", "message": "gone"}]
    new = [{"path": "b.md", "line": 3, "column": 4, "code": "GL101", "message": "new"}]
    text = describe_difference(old, new)
    assert "1 added, 1 removed" in text
    assert "+ b.md:3:4: GL101 new" in text and "- a.md:1:2: GL501 gone" in text
