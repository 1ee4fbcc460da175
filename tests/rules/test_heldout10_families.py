"""The false families of held-out set 10 (docs/PRECISION.md, "Held-out set 10 fixes"):
a towncrier fragment name given as an example, a path of the repository its sentence
names, a scaffold's `agent_templates/AGENTS.md`; a last ```python fence left open stays reported
whose text is all code. Each is checked on a small real tree, the false case silent and
the true one beside it reported."""

from __future__ import annotations

from pathlib import Path

from guidelint.check import CheckOptions, run_check
from guidelint.config import Config
from guidelint.doc_kind import template_root
from guidelint.project import Project
from guidelint.tools.claude_code import is_loaded_skill
from tests.conftest import write_tree
from tests.rules.test_gl501_heldout6_signals import stale

FRAGMENTS = {f"changelog/{n}.added.md": "- Added x.\n" for n in (4939, 5122, 5314)}
FRAGMENTS["changelog/5319.fixed.md"] = "- Fixed y.\n"


def test_a_fragment_name_of_the_folder_s_pattern_is_no_stale_path(tmp_path: Path) -> None:
    doc = "# Contributing\n\n**Example files:**\n\n`changelog/1234.added.md`:\n"
    assert stale(tmp_path, {**FRAGMENTS, "CONTRIBUTING.md": doc}) == []


def test_a_numbered_name_with_too_few_siblings_is_still_reported(tmp_path: Path) -> None:
    # Only one `<n>.fixed.md`: one file, not a naming pattern.
    doc = "# Contributing\n\nSee `changelog/5678.fixed.md`.\n"
    found = stale(tmp_path, {**FRAGMENTS, "CONTRIBUTING.md": doc})
    assert found == [("CONTRIBUTING.md", 3, "changelog/5678.fixed.md")]


def test_a_numbered_file_whose_words_differ_is_still_reported(tmp_path: Path) -> None:
    files = {f"examples/{n:02d}-{name}.py": "" for n, name in enumerate(("a", "b", "c", "d"))}
    doc = "# Cleanup\n\nValidate against `examples/07-interruptible.py`.\n"
    found = stale(tmp_path, {**files, "SKILL.md": doc})
    assert found == [("SKILL.md", 3, "examples/07-interruptible.py")]


def test_a_version_or_a_date_is_no_number_run(tmp_path: Path) -> None:
    # `v1.2` and `05` are shorter than a pull request's number: a stale release or day.
    files = {f"notes/2024-01-0{day}.md": "" for day in (1, 2, 3, 4)}
    files.update({f"releases/v1.{minor}.md": "" for minor in (0, 1, 2, 3)})
    doc = "# Notes\n\nRead `notes/2024-01-09.md` and `releases/v1.9.md`.\n"
    found = stale(tmp_path, {**files, "AGENTS.md": doc})
    assert [path for _, _, path in found] == ["notes/2024-01-09.md", "releases/v1.9.md"]


def test_a_path_after_another_named_repository_is_not_this_one_s(tmp_path: Path) -> None:
    root = tmp_path / "acme__pipecat"
    doc = (
        "# Agents\n\nFor browsing examples, the **`pipecat-examples` repo** groups demos by "
        "category; `scripts/demos.json` lists each example's run command.\n\n"
        "Run `scripts/release.json` before tagging.\n"
    )
    found = stale(root, {"scripts/build.py": "", "scripts/list.json": "", "AGENTS.md": doc})
    assert found == [("AGENTS.md", 5, "scripts/release.json")]


def test_a_repository_named_like_this_checkout_is_this_one(tmp_path: Path) -> None:
    root = tmp_path / "acme__pipecat"
    doc = "# Agents\n\nIn the `pipecat` repo, `scripts/demos.json` lists the demos.\n"
    found = stale(root, {"scripts/build.py": "", "scripts/list.json": "", "AGENTS.md": doc})
    assert found == [("AGENTS.md", 3, "scripts/demos.json")]


def test_a_named_templates_folder_with_steering_is_a_template_root(tmp_path: Path) -> None:
    assert template_root("src/cli/agent_templates/AGENTS.md") == "src/cli/agent_templates"
    assert template_root("src/cli/project-templates/CLAUDE.md") == "src/cli/project-templates"
    # A `templates/` folder's own AGENTS.md steers work on it; other files need a look.
    assert template_root("templates/AGENTS.md") is None
    assert template_root("src/cli/agent_templates/GETTING_STARTED.md") is None
    write_tree(
        tmp_path, {"src/cli/agent_templates/AGENTS.md": "# T\n", "docs/x_templates/a.md": ""}
    )
    project = Project(tmp_path, Config())
    skill = "src/cli/agent_templates/.claude/skills/run/SKILL.md"
    assert template_root(skill, project) == "src/cli/agent_templates"
    assert is_loaded_skill(skill, project)
    assert template_root("docs/x_templates/a.md", project) is None  # no steering file in it


def _gl610(root: Path) -> list[str]:
    report = run_check(CheckOptions(paths=[root], select=["GL610"], use_cache=False))
    return [f"{f.path}:{f.line}" for f in report.findings]


def test_gl610_measures_a_scaffold_s_agents_md_alone(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            ".codex/config.toml": "project_doc_max_bytes = 200\n",
            "AGENTS.md": "# Repo\n\n" + "Keep changes small.\n" * 8,  # 160 bytes
            "src/cli/agent_templates/AGENTS.md": "# New bot\n\nRun `uv run bot.py`.\n" * 2,
            "src/cli/notes/AGENTS.md": "# Notes\n\nRun `uv run bot.py` here.\n" * 2,
        },
    )
    assert _gl610(tmp_path) == ["src/cli/notes/AGENTS.md:3"]  # the ordinary folder's only


def _gl401(root: Path) -> list[tuple[str, int]]:
    report = run_check(CheckOptions(paths=[root], select=["GL401"], use_cache=False))
    return sorted((f.path, f.line) for f in report.findings)


LAST_FENCE = "# Style\n\nUse the property:\n\n```python\nif name == tool.name:\n    ...\n"


def test_a_last_fence_left_open_is_reported_even_over_code_alone(tmp_path: Path) -> None:
    # held-out 7 (crewAI's .mdx pages) and 10 (strands' STYLE_GUIDE.md), one reading:
    # the block renders as code only because the file ends there
    swallows_prose = LAST_FENCE + "\nThat keeps names in step.\n"
    write_tree(tmp_path, {"STYLE.md": LAST_FENCE, "GUIDE.md": swallows_prose, "p.mdx": LAST_FENCE})
    assert sorted(_gl401(tmp_path)) == [("GUIDE.md", 5), ("STYLE.md", 5), ("p.mdx", 5)]


def test_a_repository_named_on_the_line_above_in_the_same_sentence(tmp_path: Path) -> None:
    root = tmp_path / "acme__pipecat"
    doc = (
        "# Agents\n\nThe **`pipecat-examples` repo** groups demos by category in its\n"
        "README; `scripts/demos.json` lists each example's run command.\n\n"
        "The demos are grouped by category in the\n"
        "README; `scripts/release.json` lists each one.\n"
    )
    found = stale(root, {"scripts/build.py": "", "scripts/list.json": "", "AGENTS.md": doc})
    assert found == [("AGENTS.md", 7, "scripts/release.json")]
