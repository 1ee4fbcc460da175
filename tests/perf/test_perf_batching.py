"""Files are checked in batches: GL402 runs ruff once per batch, not once per file,
and the findings are those of a file-by-file check."""

from __future__ import annotations

import pytest

from guidelint.config import Config
from guidelint.engine import BATCH_SIZE, Engine, build_selection
from guidelint.project import Project
from guidelint.runner import lint

GUIDE = """\
# Guide {n}

```python
status = {n}
if status is 200:
    print(f"no placeholders")
```

```python
print("clean")
```
"""

pytestmark = pytest.mark.skipif(lint.find_ruff() is None, reason="ruff is not installed")


@pytest.fixture
def guides(make_project):
    files = {f"docs/guide_{n}.md": GUIDE.format(n=n) for n in range(6)}
    files["docs/no_examples.md"] = "# Prose\n\nNothing to lint.\n"
    return make_project(files, config='select = ["GL402"]')


def engine_at(root) -> Engine:
    config = Config(select=["GL402"])
    return Engine(Project(root, config), build_selection(config))


def test_one_ruff_call_for_a_batch_and_the_same_findings(guides, monkeypatch):
    rels = sorted(p.relative_to(guides).as_posix() for p in (guides / "docs").glob("*.md"))
    one_by_one = engine_at(guides)
    expected = [f for rel in rels for f in one_by_one.check_text(rel, (guides / rel).read_text())]
    calls: list[int] = []
    real = lint.lint_sources

    def counting(sources, select, ignore):
        calls.append(len(sources))
        return real(sources, select, ignore)

    monkeypatch.setattr(lint, "lint_sources", counting)
    found = engine_at(guides).check_batch(rels)
    assert calls == [12]  # every example of the six guides, in one call
    assert sorted(found, key=lambda f: f.sort_key) == sorted(expected, key=lambda f: f.sort_key)
    assert {(f.path, f.message) for f in found} >= {
        ("docs/guide_0.md", "ruff F632: Use `==` to compare constant literals"),
        ("docs/guide_5.md", "ruff F632: Use `==` to compare constant literals"),
    }


def test_batches_are_bounded(guides, monkeypatch):
    calls: list[int] = []
    real = lint.lint_sources
    monkeypatch.setattr(lint, "lint_sources", lambda s, *a: calls.append(len(s)) or real(s, *a))
    monkeypatch.setattr("guidelint.engine.BATCH_SIZE", 4)
    rels = [f"docs/guide_{n}.md" for n in range(6)]
    engine_at(guides).check_batch(rels)
    assert calls == [8, 4]  # four files, then two, each batch one call
    assert BATCH_SIZE > 4


def test_a_file_with_nothing_a_rule_reads_is_not_parsed(make_project):
    from guidelint.sources import SourceFile

    root = make_project({"scripts/train.py": "print(1)\n"})
    config = Config(select=["GL"])
    engine = Engine(Project(root, config), build_selection(config))
    # No backtick, no comment, no fence: no code span, directive or example to find.
    plain = SourceFile(path=root / "CLAUDE.md", rel="CLAUDE.md", text="# Rules\n\nBe kind.\n")
    agent = SourceFile(
        path=root / ".claude/agents/a.md",
        rel=".claude/agents/a.md",
        text="---\nname: a\ndescription: Helps.\ntools: Read, NoSuchTool\n---\nHelp.\n",
    )
    assert engine.check_source(plain) == []
    assert [f.code for f in engine.check_source(agent)] == ["GL107"]  # front matter only
    assert "markdown" not in vars(plain) and "markdown" not in vars(agent)
    coded = SourceFile(path=root / "CLAUDE.md", rel="CLAUDE.md", text="Run `scripts/gone.py`.\n")
    assert [f.code for f in engine.check_source(coded)] == ["GL501"]
    assert "markdown" in vars(coded)
