"""`--since` over a project whose tool sources have a problem (GL109): a renamed,
added or deleted page reaches the files that looked it up, not every page that uses
the tool catalog; an ignore-file edit that moves a problem to another file reaches
that file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write_tree
from tests.core.test_cache import TOOL_PROJECT
from tests.core.test_since import committed, findings, git


@pytest.fixture
def tool_repo(tmp_path: Path) -> Path:
    return committed(write_tree(tmp_path, TOOL_PROJECT))


def _reported(root: Path, *args: str) -> tuple[set[str], list[tuple]]:
    """(files `--since HEAD` checked, its findings), after asserting they are a full
    check's findings in those files."""
    full, _ = findings(root, "--no-cache")
    since, checked = findings(root, "--since", "HEAD", *args)
    paths = {f[0] for f in since}
    assert since == [f for f in full if f[0] in paths]
    return paths, since


@pytest.mark.parametrize("cache", [True, False], ids=["cache", "no-cache"])
def test_a_renamed_page_reaches_its_linkers_not_the_tool_pages(tool_repo, cache):
    flags = [] if cache else ["--no-cache"]
    findings(tool_repo, *flags)
    git(tool_repo, "mv", "docs/setup.md", "docs/install.md")
    paths, since = _reported(tool_repo, *flags)
    # guide.md links to the old name (GL502); stale.md's did-you-mean uses the list.
    assert paths == {"docs/guide.md", "docs/stale.md"}
    assert findings(tool_repo, "--since", "HEAD", *flags)[1] == 3  # and install.md
    assert ("docs/guide.md", 4, "GL502") in {f[:3] for f in since}


def test_an_added_page_reaches_only_the_list_users(tool_repo):
    (tool_repo / "docs/new.md").write_text("# New\n\nRun `make`.\n", encoding="utf-8")
    assert findings(tool_repo, "--since", "HEAD")[1] == 2  # new.md and stale.md


def test_ignoring_a_checked_snapshot_reaches_the_server_entry(tool_repo):
    # The snapshot is checked (its folder is included) and untracked: GL109 reports
    # its problem there. Ignored, it leaves git's list and the problem goes to
    # `.mcp.json`, which no status names: the edited .gitignore must reach it.
    config = '[tool.guidelint]\nextend-include = [".guidelint/**"]\n'
    (tool_repo / "pyproject.toml").write_text(config, encoding="utf-8")
    git(tool_repo, "rm", "-q", "--cached", ".guidelint/tools/lab.json")
    git(tool_repo, "commit", "-qam", "untracked snapshot")
    full, _ = findings(tool_repo, "--no-cache")
    assert (".guidelint/tools/lab.json", "GL109") in {(f[0], f[2]) for f in full}
    findings(tool_repo)  # warm the cache
    (tool_repo / ".gitignore").write_text(".guidelint_cache/\n.guidelint/tools/\n")
    paths, _ = _reported(tool_repo)
    assert ".mcp.json" in paths
