"""A document reached through a symlink inside the project is checked once, as its
target (issue #27, held-out set 6: huggingface/lerobot's `CLAUDE.md -> AGENTS.md` and
policy READMEs linked to docs pages). A link that gives its target a harness role of
its own (`CLAUDE.md`) still brings that role's rules, found at the target's lines; a
link out of the project is still refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

from guidelint.config import Config
from guidelint.discovery import discover, link_targets
from tests.conftest import run_cli, write_tree

AGENTS = "# Agents\n\nBenchmarks live in `benchmarks/`.\n"
EO1_PAGE = """\
# EO1

Install it first: [installation](./installation).

```python
import lerobot

lerobot.make_policy("eo1"
```
"""
README = "src/lerobot/policies/eo1/README.md"


def lerobot_shaped(root: Path) -> Path:
    """lerobot's layout: a symlinked CLAUDE.md, and a policy README that is a symlink
    to its docs page, whose relative link resolves from the page's folder only."""
    write_tree(
        root,
        {
            "AGENTS.md": AGENTS,
            "docs/source/eo1.mdx": EO1_PAGE,
            "docs/source/installation.mdx": "# Installation\n",
            "src/lerobot/policies/eo1/modeling_eo1.py": "",
        },
    )
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    (root / README).symlink_to("../../../../docs/source/eo1.mdx")
    return root


def findings(root: Path, *args: str) -> list[tuple[str, int, str, str]]:
    result = run_cli("check", "--no-cache", "--format", "json", *args, cwd=root)
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    return [(f["path"], f["line"], f["code"], f["message"]) for f in report["findings"]]


def test_a_symlinked_claude_md_and_readme_are_checked_once_as_their_targets(tmp_path):
    root = lerobot_shaped(tmp_path)
    found = findings(root)
    assert [(path, line, code) for path, line, code, _ in found] == [
        ("AGENTS.md", 3, "GL501"),  # once, not again as CLAUDE.md
        ("docs/source/eo1.mdx", 8, "GL401"),  # once, not again through the README
    ]
    # The README's `./installation` is the docs page's link: it resolves from there.
    assert not any(code == "GL502" for _, _, code, _ in found)


def test_discovery_names_each_link_and_its_target(tmp_path):
    root = lerobot_shaped(tmp_path)
    links: dict[str, str] = {}
    checked = discover(root, Config(), [root], links=links)
    assert "CLAUDE.md" not in checked and README not in checked
    assert {"AGENTS.md", "docs/source/eo1.mdx"} <= set(checked)
    assert links == {"CLAUDE.md": "AGENTS.md", README: "docs/source/eo1.mdx"}
    assert link_targets(root, ["AGENTS.md", "CLAUDE.md"]) == {"CLAUDE.md": "AGENTS.md"}


def test_show_files_says_which_links_were_checked_as_which_targets(tmp_path):
    root = lerobot_shaped(tmp_path)
    result = run_cli("check", "--show-files", cwd=root)
    lines = result.stdout.splitlines() + result.stderr.splitlines()
    assert (
        "CLAUDE.md: skipped: a symlink to AGENTS.md, checked as it "
        "(with the rules for this name too)"
    ) in lines
    assert f"{README}: skipped: a symlink to docs/source/eo1.mdx, checked as it" in lines
    assert "docs/source/eo1.mdx: checked" in lines


def test_a_link_named_on_the_command_line_is_checked_as_its_target(tmp_path):
    root = lerobot_shaped(tmp_path)
    found = findings(root, README)
    assert [(path, code) for path, _, code, _ in found] == [("docs/source/eo1.mdx", "GL401")]


def test_a_link_is_how_an_excluded_target_is_reached(tmp_path):
    root = lerobot_shaped(tmp_path)
    (root / "pyproject.toml").write_text('[tool.guidelint]\nexclude = ["docs/"]\n')
    found = findings(root)
    # The docs folder is left out, but the README is checked, as the page it shows.
    assert ("docs/source/eo1.mdx", 8, "GL401") in [(p, n, c) for p, n, c, _ in found]
    assert not any(path.startswith(("src/", "CLAUDE")) for path, *_ in found)


ROLE_TEXT = "# Agents\n\nUse the `code-reviewer` subagent (Task tool) for reviews.\n"


def test_claude_md_rules_apply_to_the_text_it_links_to(tmp_path):
    # Claude Code loads AGENTS.md's text as CLAUDE.md: GL606 (agents Claude Code
    # would run) applies to it under that name, though not to an AGENTS.md alone.
    write_tree(tmp_path, {"AGENTS.md": ROLE_TEXT})
    assert findings(tmp_path, "--select", "GL606") == []
    (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")
    assert findings(tmp_path, "--select", "GL606") == [
        (
            "AGENTS.md",
            3,
            "GL606",
            "no agent named `code-reviewer` is defined here "
            "(read as `CLAUDE.md`, a symlink to this file)",
        )
    ]


def test_a_suppression_that_only_the_claude_md_reading_needs_is_used(tmp_path):
    text = ROLE_TEXT.rstrip("\n") + " <!-- guidelint: disable GL606 -->\n"
    write_tree(tmp_path, {"AGENTS.md": text})
    (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")
    assert findings(tmp_path, "--select", "GL606,GL002") == []
    (tmp_path / "CLAUDE.md").unlink()  # AGENTS.md alone: nothing to suppress
    assert [code for _, _, code, _ in findings(tmp_path, "--select", "GL606,GL002")] == ["GL002"]


def test_a_link_out_of_the_project_stays_refused(tmp_path_factory):
    outside = tmp_path_factory.mktemp("host") / "AGENTS.md"
    outside.write_text("# Host\n\nSee `host-only-secret/`.\n")
    root = tmp_path_factory.mktemp("project")
    write_tree(root, {"README.md": "# Project\n"})
    (root / "CLAUDE.md").symlink_to(outside)
    result = run_cli("check", "--no-cache", cwd=root)
    assert "host-only-secret" not in result.stdout + result.stderr
    assert "CLAUDE.md: skipped: a symlink to a path outside the repository" in result.stderr
    assert result.returncode == 0, result.stdout + result.stderr


GOTCHAS = """\
# Gotchas

## LESSONS index

- [Old words](#first)

## Lessons

- <a id="first"></a>**First.** Body one (#1).
"""


def test_fix_through_a_link_rewrites_the_target_once(tmp_path):
    # Both names are gotchas files: the target is fixed once, the link stays a link.
    target = tmp_path / ".claude/rules/gotchas.md"
    write_tree(tmp_path, {".claude/rules/gotchas.md": GOTCHAS})
    (tmp_path / ".claude/rules/lessons.md").symlink_to("gotchas.md")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.guidelint]\nselect = ["GL2"]\n'
        '[tool.guidelint.gotchas]\nfiles = [".claude/rules/*.md"]\n'
    )
    before = findings(tmp_path)
    assert {path for path, *_ in before} == {".claude/rules/gotchas.md"}
    result = run_cli("check", "--no-cache", "--fix", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "- [First](#first)\n" in target.read_text()
    assert os.path.islink(tmp_path / ".claude/rules/lessons.md")
    assert "Fixed 1 finding." in result.stdout  # once: not again through the link
    assert findings(tmp_path) == []


def test_a_dry_run_fix_reads_the_links_as_the_fixed_target(tmp_path, monkeypatch):
    # `check --diff` writes nothing: the link's reading is of the fixed text, so what
    # the fix would mend is not reported again through the link.
    from guidelint.check import CheckOptions, run_check

    target = tmp_path / ".claude/rules/gotchas.md"
    write_tree(tmp_path, {".claude/rules/gotchas.md": GOTCHAS})
    (tmp_path / ".claude/rules/lessons.md").symlink_to("gotchas.md")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.guidelint]\nselect = ["GL2"]\n'
        '[tool.guidelint.gotchas]\nfiles = [".claude/rules/*.md"]\n'
    )
    monkeypatch.chdir(tmp_path)
    report = run_check(CheckOptions(paths=[], fix=True, dry_run=True, use_cache=False))
    assert report.findings == []
    assert report.fixed == {".claude/rules/gotchas.md": 1}
    assert target.read_text() == GOTCHAS  # nothing written


def test_claude_md_import_chains_start_at_the_text_it_links_to(tmp_path):
    # GL612: Claude Code starts its @import chain at CLAUDE.md, here AGENTS.md's text.
    files = {"AGENTS.md": "# A\n\n@a1.md\n", "a6.md": "# 6\n"}
    files.update({f"a{n}.md": f"# {n}\n\n@a{n + 1}.md\n" for n in range(1, 6)})
    write_tree(tmp_path, files)
    assert findings(tmp_path, "--select", "GL612") == []
    (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")
    assert [(p, n, c) for p, n, c, _ in findings(tmp_path, "--select", "GL612")] == [
        ("a5.md", 3, "GL612")
    ]


def test_a_link_whose_name_gives_another_kind_is_checked_under_its_name(tmp_path):
    # `README.md -> README`: read as Markdown only through the link, so it is checked
    # as the link, as before; a plain-text target has no Markdown rules of its own.
    write_tree(tmp_path, {"README": "# Project\n\nSee [the guide](docs/guide.md).\n"})
    (tmp_path / "README.md").symlink_to("README")
    for args in ([], ["README.md"]):
        found = findings(tmp_path, *args)
        assert [(p, n, c) for p, n, c, _ in found] == [("README.md", 3, "GL502")], args


def test_a_target_named_alone_is_read_under_its_links_beside_it(tmp_path):
    # The pre-commit hook passes AGENTS.md alone when only it changed: its CLAUDE.md
    # reading still counts, without the project's file list.
    write_tree(tmp_path, {"AGENTS.md": ROLE_TEXT})
    (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")
    assert [(p, c) for p, _, c, _ in findings(tmp_path, "--select", "GL606", "AGENTS.md")] == [
        ("AGENTS.md", "GL606")
    ]
    (tmp_path / "pyproject.toml").write_text('[tool.guidelint]\nexclude = ["CLAUDE.md"]\n')
    assert findings(tmp_path, "--select", "GL606", "AGENTS.md") == []


def test_fix_never_writes_through_a_link_out_of_the_project(tmp_path_factory):
    outside = tmp_path_factory.mktemp("host") / "gotchas.md"
    outside.write_text(GOTCHAS)
    root = tmp_path_factory.mktemp("project")
    (root / ".claude/rules").mkdir(parents=True)
    (root / ".claude/rules/gotchas.md").symlink_to(outside)
    (root / "pyproject.toml").write_text('[tool.guidelint]\nselect = ["GL2"]\n')
    result = run_cli("check", "--no-cache", "--fix", cwd=root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert outside.read_text() == GOTCHAS  # not read, not fixed
    assert "a symlink to a path outside the repository" in result.stderr
