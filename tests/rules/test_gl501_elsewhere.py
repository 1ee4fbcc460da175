"""GL501 leaves alone paths of other repositories, MCP method names and an agent's
run-time memory file, and still reports a stale path of this repository beside them
(held-out sets 2-4: claude-agent-sdk-python, playwright-mcp, openai-agents-python,
python-sdk, typescript-sdk, gemini-cli)."""

from __future__ import annotations

from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check
from guidelint.rules.stale_path.conventions import mcp_method
from tests.conftest import write_tree


def findings(root: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    write_tree(root, files)
    report = run_check(CheckOptions(paths=[root], select=["GL501"], use_cache=False))
    return sorted((f.path, f.line, f.message.split("`")[1]) for f in report.findings)


@pytest.fixture
def python_repo(tmp_path: Path) -> Path:
    root = tmp_path / "acme__agent-sdk-python"
    for rel in ("examples/store/main.py", "src/sdk/core.py", "tests/test_core.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("")
    return root


def test_the_typescript_sdks_folder_linked_by_its_url_is_not_reported(python_repo):
    doc = (
        "# Stores\n\nThis mirrors the adapter in the TypeScript SDK's\n"
        "[`examples/session-stores/s3/`](https://github.com/acme/agent-sdk-typescript/tree/"
        "main/examples/session-stores/s3).\n"
    )
    assert findings(python_repo, {"examples/README.md": doc}) == []


def test_a_link_into_this_repository_still_reports_a_stale_path(python_repo):
    doc = (
        "# Stores\n\nSee [`examples/store-s3/`](https://github.com/acme/agent-sdk-python/"
        "tree/main/examples/store-s3).\n"
    )
    assert findings(python_repo, {"examples/README.md": doc}) == [
        ("examples/README.md", 3, "examples/store-s3/")
    ]


def test_a_sibling_sdk_in_another_language_is_not_this_repository(python_repo):
    doc = "# See also\n\nTS-SDK equivalent: `examples/hono/`.\n\nOurs: `examples/flask/`.\n"
    assert findings(python_repo, {"docs/stories.md": doc}) == [
        ("docs/stories.md", 5, "examples/flask/")
    ]


def test_an_sdk_in_this_repositorys_own_language_is_still_checked(python_repo):
    doc = "# See also\n\nThe Python SDK's `examples/hono/` is gone.\n"
    assert findings(python_repo, {"docs/stories.md": doc}) == [
        ("docs/stories.md", 3, "examples/hono/")
    ]


def test_a_path_of_the_upstream_checkout_is_not_reported(python_repo):
    doc = (
        "# Release\n\nMost source lives upstream at `~/upstream/packages/core/` "
        "(and `tests/mcp/`), so read both. Run `tests/test_gone.py` here.\n"
    )
    assert findings(python_repo, {".claude/skills/release.md": doc}) == [
        (".claude/skills/release.md", 3, "tests/test_gone.py")
    ]


def test_a_file_of_a_mounted_repository_is_not_reported(python_repo):
    doc = (
        "# Review\n\nThe manifest mounts `pypa/sampleproject` at a pinned ref; the review "
        "targets `src/sample/simple.py`.\n"
    )
    assert findings(python_repo, {"examples/review/README.md": doc}) == []


def test_cloning_this_repository_still_checks_its_paths(python_repo):
    doc = "# Setup\n\nClone `acme/agent-sdk-python`, then run `src/sdk/setup.py`.\n"
    assert findings(python_repo, {"README.md": doc}) == [("README.md", 3, "src/sdk/setup.py")]


def test_an_owner_name_slug_called_a_repository_is_no_path(python_repo):
    (python_repo / "acme").mkdir()
    doc = "# Tests\n\nQuestions about the `acme/agent-sdk-python` repository.\nSee `acme/gone`.\n"
    assert findings(python_repo, {"integration/README.md": doc}) == [
        ("integration/README.md", 4, "acme/gone")
    ]


@pytest.mark.parametrize(
    ("text", "method"),
    [
        ("tools/call", True),
        ("subscriptions/listen", True),
        ("tasks/get", True),
        ("notifications/tasks/status", True),
        ("tools/list.md", False),
        ("subscriptions/README", False),
        ("examples/list", False),
    ],
)
def test_mcp_method_names(text, method):
    assert mcp_method(text) is method


def test_an_mcp_method_of_a_newer_family_is_not_a_path(python_repo):
    (python_repo / "examples/subscriptions").mkdir(parents=True)
    doc = "# Stories\n\n| `subscriptions/` | `subscriptions/listen` streams |\n|---|---|\n"
    assert findings(python_repo, {"examples/README.md": doc}) == []


MEMORY_SKILL = """# Skill: Memory

## Memory Structure (`lessons-learned.md`)

You MUST maintain `bot/lessons-learned.md` in this format.

## Start

1. **Read Memory**: Read `bot/lessons-learned.md`.
2. **Read the guide**: Read `bot/guide.md`.
"""


def test_the_agents_memory_file_is_not_reported(python_repo):
    (python_repo / "bot").mkdir()
    found = findings(python_repo, {"bot/.gemini/skills/memory/SKILL.md": MEMORY_SKILL})
    assert found == [("bot/.gemini/skills/memory/SKILL.md", 10, "bot/guide.md")]


def test_a_memory_modules_source_is_still_reported(python_repo):
    doc = "# Memory\n\nUpdate the memory store in `src/sdk/memory_store.py`.\n"
    assert findings(python_repo, {"CLAUDE.md": doc}) == [
        ("CLAUDE.md", 3, "src/sdk/memory_store.py")
    ]


def test_a_memory_note_the_agent_only_reads_is_still_reported(python_repo):
    doc = "# Memory\n\nThe lesson is in `src/sdk/notes.md`.\n"
    assert findings(python_repo, {"CLAUDE.md": doc}) == [("CLAUDE.md", 3, "src/sdk/notes.md")]


def test_a_file_named_from_the_plugin_its_section_describes(python_repo):
    plugin = python_repo / "plugins" / "loop-plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text("{}")
    (plugin / "scripts").mkdir()
    (plugin / "scripts" / "setup-loop.sh").write_text("")
    skill = python_repo / "plugins" / "dev" / "skills" / "settings"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: settings\ndescription: d\n---\n")
    (python_repo / "scripts").mkdir()
    (python_repo / "scripts" / "release.sh").write_text("")
    doc = (
        "# Examples\n\n## loop-plugin Plugin\n\n### Creation\n\n**File:** "
        "`scripts/setup-loop.sh`\n\n## other Plugin\n\n**File:** `scripts/setup-loop.sh`\n"
    )
    where = "plugins/dev/skills/settings/references/examples.md"
    assert findings(python_repo, {where: doc}) == [(where, 11, "scripts/setup-loop.sh")]


def test_a_path_in_a_quoted_example_message(python_repo):
    doc = (
        "# Steering\n\n"
        '- **Adding context:** "The `User` type is defined in `src/sdk/types.py`."\n'
        '- The config is `src/sdk/types.py` ("see `src/sdk/core.py`").\n'
    )
    assert findings(python_repo, {"docs/steering.md": doc}) == [
        ("docs/steering.md", 4, "src/sdk/types.py")
    ]


def test_a_downloads_destination_in_the_readers_repository(python_repo):
    (python_repo / ".github/workflows").mkdir(parents=True)
    (python_repo / ".github/workflows/release.yml").write_text("on: push\n")
    doc = (
        "# Sample\n\n```bash\ncurl -o .github/workflows/responder.yml https://x.test/r.yml\n"
        "```\n\nOr copy it into `.github/workflows/responder.yml`; see "
        "`.github/workflows/ci.yml`.\n"
    )
    assert findings(python_repo, {"docs/sample.md": doc}) == [
        ("docs/sample.md", 7, ".github/workflows/ci.yml")
    ]


def test_a_link_whose_folder_exists_here_is_into_this_tree(python_repo):
    # The checkout is not named like its repository (`acme/sdk-docs` checked out as
    # `acme__agent-sdk-python`), but `src/sdk/` exists: the file is stale here.
    doc = (
        "# Scripts\n\n[`src/sdk/adjust.py`](https://github.com/acme/sdk-docs/blob/main/"
        "src/sdk/adjust.py)\n"
    )
    assert findings(python_repo, {"docs/checks.md": doc}) == [
        ("docs/checks.md", 3, "src/sdk/adjust.py")
    ]
