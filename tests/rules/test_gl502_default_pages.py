"""GL502's default `links` globs: the top-level pages GitHub renders as it renders the
README (held-out 14: SuperClaude's CONTRIBUTING.md and SECURITY.md linked capitalised
folders that do not exist), and the instruction files of every coding agent a
repository may steer, not only Claude Code's."""

from __future__ import annotations

import pytest

from guidelint.check import CheckOptions, run_check
from tests.conftest import write_tree

PAGE = "# Page\n\nSee [the guide](docs/Guide/setup.md).\n"

FOLLOWED = [
    "CONTRIBUTING.md",
    "SECURITY.md",
    "GEMINI.md",
    ".github/copilot-instructions.md",
    ".github/instructions/python.instructions.md",
    ".github/agents/reviewer.agent.md",
    ".github/prompts/release.prompt.md",
    ".cursor/rules/style.mdc",
    ".clinerules/style.md",
    ".windsurf/rules/style.md",
    ".roo/rules/style.md",
    ".kiro/steering/style.md",
    ".continue/rules/style.md",
    ".junie/guidelines.md",
]


def broken_links(root):
    report = run_check(CheckOptions(paths=[root], select=["GL502"], use_cache=False))
    return sorted(f.path for f in report.findings)


@pytest.mark.parametrize("page", FOLLOWED)
def test_a_broken_link_in_the_page_is_reported(tmp_path, page):
    depth = page.count("/")
    text = PAGE.replace("docs/", "../" * depth + "docs/")
    write_tree(tmp_path, {page: text, "docs/guide/setup.md": "# Setup\n"})
    assert broken_links(tmp_path) == [page]


def test_a_nested_page_outside_the_defaults_is_not_followed(tmp_path):
    # A site generator's content tree resolves links its own way: `content/` is not
    # followed, while the same link at the top is.
    write_tree(
        tmp_path,
        {"content/page.md": PAGE.replace("docs/", "../docs/"), "docs/guide/setup.md": "# S\n"},
    )
    assert broken_links(tmp_path) == []
