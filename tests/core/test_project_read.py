"""`Project.read` keeps the files it read most recently, not every file of a run."""

from __future__ import annotations

from guidelint import project as project_module
from guidelint.project import Project
from guidelint.settings import DefaultConfig


def test_read_keeps_the_most_recent_files_only(tmp_path, monkeypatch):
    monkeypatch.setattr(project_module, "READ_CACHE", 3)
    for index in range(5):
        (tmp_path / f"{index}.md").write_text(f"# {index}\n", encoding="utf-8")
    project = Project(tmp_path, DefaultConfig())
    first = project.read("0.md")
    for index in (1, 2, 0, 3, 4):  # 0 read again: 1 and 2 are the oldest now
        assert project.read(f"{index}.md").text == f"# {index}\n"
    kept = project._lookups.files
    assert list(kept) == ["0.md", "3.md", "4.md"]
    assert project.read("0.md") is first  # kept: the same object, no second read
    assert project.read("1.md").text == "# 1\n"  # read again from disk, as before


def test_a_missing_or_outside_file_is_none_and_kept_as_such(tmp_path):
    project = Project(tmp_path, DefaultConfig())
    assert project.read("missing.md") is None
    assert project.read("../outside.md") is None
    assert project._lookups.files == {"missing.md": None, "../outside.md": None}
