"""GL502 follows links in a folder that `.claude/skills` links to (Megatron-LM's root
`skills/`, whose renamed sibling skills left two broken links): the folder steers
Claude Code as much as `.claude/**` does."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check

SKILL = (
    "---\nname: {name}\ndescription: d\n---\n\n"
    "See [cicd](../cicd/SKILL.md) and [ok](../{other}/SKILL.md).\n"
)


def project(root: Path, link: str) -> Path:
    for name, other in (("bump", "mcore-cicd"), ("mcore-cicd", "bump")):
        path = root / "tools" / "skills" / name / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(SKILL.format(name=name, other=other))
    (root / ".claude").mkdir()
    if link == "symlink":
        os.symlink("../tools/skills", root / ".claude" / "skills")
    else:  # what git checks out where it makes no symlinks: a file holding the target
        (root / ".claude" / "skills").write_text("../tools/skills")
    (root / "pyproject.toml").write_text('[tool.guidelint]\ninclude = ["tools/**/*.md"]\n')
    return root


@pytest.mark.parametrize("link", ["symlink", "file"])
def test_broken_links_in_a_linked_skills_folder_are_found(tmp_path, link):
    root = project(tmp_path, link)
    report = run_check(CheckOptions(paths=[root], select=["GL502"], use_cache=False))
    found = sorted((f.path, f.line, f.message) for f in report.findings)
    assert [(p, line) for p, line, _ in found] == [
        ("tools/skills/bump/SKILL.md", 6),
        ("tools/skills/mcore-cicd/SKILL.md", 6),
    ]
    assert "`../cicd/SKILL.md` links to a file that does not exist" in found[0][2]


def test_an_unlinked_folder_stays_outside_the_links_globs(tmp_path):
    root = project(tmp_path, "file")
    (root / ".claude" / "skills").unlink()
    report = run_check(CheckOptions(paths=[root], select=["GL502"], use_cache=False))
    assert report.findings == []
