"""Rule costs cut without changing answers: a Python example is compiled once for
GL401 and GL402 together, and the project's containment test resolves each folder once."""

from __future__ import annotations

import os

import pytest

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project, real_path
from guidelint.runner import examples, lint

GUIDE = """\
# Guide

```python
print(f"no placeholders")
```

```python
def broken(:
    pass
```

```python
print("fine")
```
"""


@pytest.mark.skipif(lint.find_ruff() is None, reason="ruff is not installed")
def test_each_example_is_compiled_once_for_gl401_and_gl402(make_project, monkeypatch):
    root = make_project({"docs/guide.md": GUIDE}, config='select = ["GL401", "GL402"]')
    compiled: list[str] = []
    real = examples.syntax_error

    def counting(example):
        compiled.append(example.source)
        return real(example)

    monkeypatch.setattr(examples, "syntax_error", counting)
    config = Config(select=["GL401", "GL402"])
    found = Engine(Project(root, config), build_selection(config)).check_batch(["docs/guide.md"])
    assert len(compiled) == 3  # three examples, one compile each
    assert [(f.code, f.line) for f in found if f.code == "GL401"] == [("GL401", 8)]
    # ruff lints only the examples that parse: F541 for the f-string, nothing for the broken one
    assert {f.line for f in found if f.code == "GL402"} == {4}


def test_real_path_agrees_with_realpath(tmp_path):
    root = tmp_path / "root"
    (root / "docs" / "deep").mkdir(parents=True)
    (root / "docs" / "deep" / "a.md").write_text("a")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    os.symlink(root / "docs" / "deep", root / "link_in")
    os.symlink(outside, root / "link_out")
    os.symlink("deep/a.md", root / "docs" / "file_link")
    os.symlink(root / "loop_b", root / "loop_a")
    os.symlink(root / "loop_a", root / "loop_b")
    asked = [
        "docs/deep/a.md",
        "docs/./deep/../deep/a.md",
        "docs/missing/../deep/a.md",
        "docs/missing/more/",
        "link_in/a.md",
        "link_in/../docs",
        "link_out/secret.txt",
        "link_out/../../etc",
        "docs/file_link",
        "docs/file_link/x",
        "loop_a/x",
        "../outside/secret.txt",
        "",
    ]
    known: dict[str, str] = {}
    for rel in asked + asked:  # the second round answers from what the first kept
        full = os.path.join(str(root), rel)
        assert real_path(full, known) == os.path.realpath(full), rel
    assert real_path("relative/x", known) == os.path.realpath("relative/x")


def test_contains_follows_links_out_of_the_root(tmp_path):
    root = tmp_path / "root"
    (root / "docs").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("s")
    os.symlink(tmp_path / "outside", root / "docs" / "out")
    project = Project(root, Config())
    assert project.exists("docs")
    assert not project.exists("docs/out/secret.txt")
    assert not project.exists("../outside/secret.txt")
    assert not project.contains(str(tmp_path))
    assert project.contains(root / "docs" / "not-yet.md")
