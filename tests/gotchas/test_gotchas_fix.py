"""--fix regenerates the LESSONS index: converges, idempotent, CRLF kept, nothing else touched."""

from __future__ import annotations

import shutil
from pathlib import Path

from guidelint.check import CheckOptions, run_check
from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.fixes import fix_file
from guidelint.gotchas.config import GotchasConfig
from guidelint.gotchas.parse import parse_gotchas
from guidelint.project import Project

ROOT = Path(__file__).parents[2]
FIXTURES = Path(__file__).parents[1] / "fixtures" / "gotchas"
WORKSPACE = ROOT / "examples" / "workspace"
GOTCHAS = ".claude/rules/gotchas.md"
DRIFTED = """\
# Gotchas

Intro prose stays.

## LESSONS index

Rows are generated; keep notes after the links.

- [Second](#second) (see also #2)
- [First, old words](#first)
- [Gone](#gone)

Text after the index stays too.

## Lessons

- <a id="first"></a>**First.** Body one (#1).
- <a id="second"></a>**Second.** Body two (#2).
- <a id="third"></a>**Third.** Body three
  on two lines (#3).
"""
FIXED_ROWS = """\
- [First](#first)
- [Second](#second) (see also #2)
- [Third](#third)
"""


def engine_for(root: Path, **gotchas) -> Engine:
    config = Config(select=["GL2"], gotchas=GotchasConfig(**gotchas))
    return Engine(Project(root, config), build_selection(config))


def fix(root: Path, rel: str = GOTCHAS, **gotchas):
    """Run --fix on one file; return (its bytes, remaining findings)."""
    engine = engine_for(root, **gotchas)
    _, remaining = fix_file(root / rel, lambda text: engine.check_text(rel, text))
    return (root / rel).read_bytes(), remaining


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def test_fix_regenerates_rows_and_touches_nothing_else(tmp_path):
    write(tmp_path, GOTCHAS, DRIFTED)
    fixed, remaining = fix(tmp_path)
    text = fixed.decode("utf-8")
    assert remaining == []
    start = DRIFTED.index("- [Second]")
    end = DRIFTED.index("\n\nText after")
    assert text == DRIFTED[:start] + FIXED_ROWS.rstrip("\n") + DRIFTED[end:]


def test_fix_is_idempotent(tmp_path):
    write(tmp_path, GOTCHAS, DRIFTED)
    once, _ = fix(tmp_path)
    twice, _ = fix(tmp_path)
    assert once == twice


def test_fix_keeps_crlf_line_endings(tmp_path):
    write(tmp_path, GOTCHAS, DRIFTED.replace("\n", "\r\n"))
    fixed, remaining = fix(tmp_path)
    assert remaining == []
    assert b"\n" not in fixed.replace(b"\r\n", b"")  # no bare LF was introduced
    write(tmp_path / "lf", GOTCHAS, DRIFTED)
    lf, _ = fix(tmp_path / "lf")
    assert fixed == lf.replace(b"\n", b"\r\n")


def test_fix_never_drops_an_entry(tmp_path):
    write(tmp_path, GOTCHAS, DRIFTED)
    before = parse_gotchas(DRIFTED).entries
    fixed, _ = fix(tmp_path)
    after = parse_gotchas(fixed.decode("utf-8")).entries
    assert [e.text for e in after] == [e.text for e in before]


def test_fix_table_index_keeps_cells_and_renumbers(tmp_path):
    write(tmp_path, GOTCHAS, (FIXTURES / "table_index.md").read_text(encoding="utf-8"))
    fixed, remaining = fix(tmp_path)
    lines = fixed.decode("utf-8").splitlines()
    assert remaining == []
    assert lines[8:11] == [
        "| 1 | [Smoke gates use the realized slice](#realized-slice) | Training "
        "| the expensive one |",
        "| 2 | [Geometry lives in one file](#geometry) | Training | |",
        "| 3 | [One workspace per experiment](#one-workspace) | Workspaces |  |",
    ]
    assert lines[11] == ""


def test_fix_appends_a_missing_index_section(tmp_path):
    text = "# Gotchas\r\n\r\n- **Only lesson.** Body (#1).\r\n"
    write(tmp_path, GOTCHAS, text)
    fixed, remaining = fix(tmp_path)
    assert remaining == []
    assert fixed.decode("utf-8") == text + (
        "\r\n## LESSONS index\r\n\r\n- [Only lesson](#only-lesson)\r\n"
    )


def test_fix_fills_an_empty_index_section(tmp_path):
    text = "# Gotchas\n\n## LESSONS index\n\n## Lessons\n\n- **A lesson.** (#1)\n"
    write(tmp_path, GOTCHAS, text)
    fixed, remaining = fix(tmp_path)
    assert remaining == []
    assert fixed.decode("utf-8") == text.replace(
        "## LESSONS index\n", "## LESSONS index\n\n- [A lesson](#a-lesson)\n"
    )


def test_fix_of_a_separate_index_file_edits_only_that_file(tmp_path):
    gotchas = '# Gotchas\n\n- <a id="one"></a>**One.** (#1)\n- <a id="two"></a>**Two.** (#2)\n'
    write(tmp_path, GOTCHAS, gotchas)
    write(tmp_path, "docs/LESSONS.md", "# Lessons\n\n- [One](../.claude/rules/gotchas.md#one)\n")
    fixed, remaining = fix(tmp_path, "docs/LESSONS.md", index_file="docs/LESSONS.md")
    assert remaining == []
    assert fixed.decode("utf-8") == (
        "# Lessons\n\n- [One](../.claude/rules/gotchas.md#one)\n"
        "- [Two](../.claude/rules/gotchas.md#two)\n"
    )
    assert (tmp_path / GOTCHAS).read_text(encoding="utf-8") == gotchas


def test_example_workspace_shows_drift_and_fix_repairs_it(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    report = run_check(CheckOptions(paths=[Path("examples/workspace")], use_cache=False))
    drift = sorted(f.code for f in report.findings if f.code.startswith("GL2"))
    assert drift == ["GL202", "GL203"]

    copy = tmp_path / "workspace"
    shutil.copytree(WORKSPACE, copy)
    original = (copy / GOTCHAS).read_bytes()
    options = CheckOptions(paths=[copy], select=["GL2"], fix=True, use_cache=False)
    run_check(options)
    once = (copy / GOTCHAS).read_bytes()
    report = run_check(options)
    assert [f for f in report.findings if f.code.startswith("GL2")] == []
    assert (copy / GOTCHAS).read_bytes() == once
    # Only index rows changed: every entry and every other line is still there.
    changed = set(original.decode().splitlines()) ^ set(once.decode().splitlines())
    assert all(line.startswith("- [") for line in changed), changed
