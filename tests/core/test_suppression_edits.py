"""`suppress.suppression_edits`: the comments the editor's "disable GLnnn for this
line / file" actions insert, checked by the engine they are written for."""

from __future__ import annotations

from pathlib import Path

from guidelint.engine import Engine, build_selection
from guidelint.findings import Edit
from guidelint.project import Project
from guidelint.suppress import suppression_edits

FRONT = "---\ntitle: Guide\n---\n"
BODY = "# Guide\n\n- Run `scripts/train.py` first.\n"
FENCED = "# Guide\n\n```python\nx = 1\nif x is 1:\n    pass\n```\n"  # GL402 (ruff F632)


def _engine(root: Path) -> Engine:
    (root / "pyproject.toml").write_text('[tool.guidelint]\nselect = ["GL501", "GL402"]\n')
    (root / "scripts").mkdir()
    (root / "scripts" / "report.py").write_text("print(1)\n")
    project = Project.load([root])
    return Engine(project, build_selection(project.config))


def _apply(text: str, edits: tuple[Edit, ...]) -> str:
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[: edit.start] + edit.content + text[edit.end :]
    return text


def test_line_and_file_comments_silence_the_finding_below_front_matter(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    text = FRONT + BODY
    (finding,) = engine.check_text("docs/guide.md", text)
    edits = dict(suppression_edits(text, "docs/guide.md", finding))
    line = _apply(text, edits["line"])
    assert "# Guide\n\n<!-- guidelint: disable-next-line GL501 -->\n- Run" in line
    whole = _apply(text, edits["file"])
    assert whole.startswith(FRONT + "<!-- guidelint: disable-file GL501 -->\n# Guide")
    for edited in (line, whole):
        assert engine.check_text("docs/guide.md", edited) == []  # and no GL002: it is used


def test_a_line_in_a_fence_is_covered_by_disable_and_enable_around_the_fence(
    tmp_path: Path,
) -> None:
    engine = _engine(tmp_path)
    (finding,) = engine.check_text("docs/guide.md", FENCED)
    edits = dict(suppression_edits(FENCED, "docs/guide.md", finding))
    assert set(edits) == {"block", "file"}  # a comment inside the fence would be code
    block = _apply(FENCED, edits["block"])
    assert block == (
        "# Guide\n\n<!-- guidelint: disable GL402 -->\n```python\nx = 1\nif x is 1:\n"
        "    pass\n```\n<!-- guidelint: enable GL402 -->\n"
    )
    for edited in (block, _apply(FENCED, edits["file"])):
        assert engine.check_text("docs/guide.md", edited) == []


def test_python_takes_an_ignore_comment_at_the_end_and_json_none() -> None:
    from guidelint.findings import Finding, Severity

    finding = Finding("GL301", "x", Severity.ERROR, "m", "train.py", 2, 1, 2, 5)
    text = "import os\nrun(steps=10)\r\nprint(1)\n"
    ((where, edits),) = suppression_edits(text, "train.py", finding)
    assert where == "line"
    assert (
        _apply(text, edits) == "import os\nrun(steps=10)  # guidelint: ignore[GL301]\r\nprint(1)\n"
    )
    assert suppression_edits('{"a": 1}\n', "settings.json", finding) == []
