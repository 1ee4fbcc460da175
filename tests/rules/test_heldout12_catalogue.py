"""The false families of held-out set 12 in a collection of installable artifacts
(docs/PRECISION.md, "Held-out set 12 fixes: catalogue repositories"): GL501 on the
user's project's paths, the install location's and another repository's listed
files; GL102 on the user's MCP servers; GL107 on Copilot's tool names. Each is checked
on a small real tree, the false case silent and the true one beside it reported."""

from __future__ import annotations

from pathlib import Path

from guidelint.catalogue import (
    artifact_of,
    declares_servers,
    install_target,
    is_collection,
    steers_copilot,
)
from guidelint.check import CheckOptions, run_check
from guidelint.config import Config
from guidelint.project import Project
from tests.conftest import write_tree
from tests.rules.test_gl501_heldout6_signals import stale

MARKETPLACE = {".github/plugin/marketplace.json": '{"name": "c", "plugins": []}\n'}
CATALOGUE = {
    **MARKETPLACE,
    "README.md": "# A collection of skills and agents\n",
    "skills/gdpr/SKILL.md": (
        "---\nname: gdpr\ndescription: 'GDPR checks'\n---\n\n"
        "Read `references/Security.md` and `references/operations.md`.\n"
        "Write the audit to `docs/codebase/` of the project.\n"
        "Installed at `.github/skills/gdpr/references/Security.md`.\n"
        "Or see `.github/skills/drawio/SKILL.md` and `.github/skills/draw-io/SKILL.md`.\n"
        "Your own skill goes in `.github/skills/my-new-one/SKILL.md`.\n"
    ),
    "skills/gdpr/references/Security.md": "# Security\n",
    "skills/drawio/SKILL.md": "---\nname: drawio\ndescription: 'Diagrams'\n---\n",
    "agents/docs.agent.md": (
        "---\ndescription: 'Documents'\n---\n\nSave diagrams under `docs/diagrams/`.\n"
    ),
    "docs/README.md": "# Docs\n",
}


def project_of(root: Path, files: dict[str, str]) -> Project:
    write_tree(root, files)
    return Project(root, Config())


def test_a_marketplace_makes_a_collection_and_skills_its_artifacts(tmp_path: Path) -> None:
    project = project_of(tmp_path, CATALOGUE)
    assert is_collection(project)
    assert artifact_of("skills/gdpr/references/Security.md", project).root == "skills/gdpr"
    assert artifact_of("agents/docs.agent.md", project).root is None  # a lone file
    assert artifact_of("docs/README.md", project) is None


def test_the_repository_s_own_agent_folders_are_no_artifact(tmp_path: Path) -> None:
    project = project_of(tmp_path, {**CATALOGUE, ".github/skills/own/SKILL.md": "# Own\n"})
    assert artifact_of(".github/skills/own/SKILL.md", project) is None


def test_an_install_location_stands_for_the_shipped_artifact(tmp_path: Path) -> None:
    project = project_of(tmp_path, CATALOGUE)
    shipped = install_target(".github/skills/gdpr/references/Security.md", project)
    assert shipped == ("skills/gdpr/references/Security.md", True)
    assert install_target(".github/skills/draw-io/SKILL.md", project) == (
        "skills/draw-io/SKILL.md",
        False,  # `draw-io` for the shipped `drawio`: misnamed
    )
    assert install_target(".github/skills/my-new-one/SKILL.md", project) is None
    assert install_target(".github/skills/SKILL.md", project) is None


def test_gl501_checks_a_skill_against_its_own_folder_only(tmp_path: Path) -> None:
    found = stale(tmp_path, CATALOGUE)
    assert found == [
        ("skills/gdpr/SKILL.md", 6, "references/operations.md"),
        ("skills/gdpr/SKILL.md", 9, ".github/skills/draw-io/SKILL.md"),
    ]


def test_skills_outside_a_collection_are_the_repository_s_own(tmp_path: Path) -> None:
    # Several root skills and no marketplace, no README calling it a collection: they
    # name this repository's files (Megatron-LM's `skills/` and its `megatron/` code).
    doc = "# Skill\n\nRun `scripts/check.py` and `scripts/gone.py`; see `docs/x.md`.\n"
    files = {f"skills/{name}/SKILL.md": doc for name in ("one", "two", "three")}
    files.update({"skills/one/scripts/check.py": "", "docs/a.md": "", "README.md": "# Kit\n"})
    found = [hit for hit in stale(tmp_path, files) if hit[0].startswith("skills/one/")]
    assert found == [
        ("skills/one/SKILL.md", 3, "docs/x.md"),
        ("skills/one/SKILL.md", 3, "scripts/gone.py"),
    ]
    (tmp_path / "README.md").write_text("# Kit\n\nA curated collection of agent skills.\n")
    assert [hit for hit in stale(tmp_path, {}) if hit[0].startswith("skills/one/")] == [
        ("skills/one/SKILL.md", 3, "scripts/gone.py")
    ]


def test_a_bundle_s_file_list_is_checked_against_the_bundle(tmp_path: Path) -> None:
    readme = (
        "# Hub\n\n## Files\n\n- `extension.mjs` - the canvas.\n"
        "- `assets/preview.png` - the preview.\n- `package.json` - metadata.\n"
        "- `.github/plugin/plugin.json` - plugin metadata.\n"
        "- `game/` - byte for byte the other extension's `media/` folder.\n\n"
        "Copy it to `.github/extensions/hub/`.\n"
    )
    files = {
        **MARKETPLACE,
        "extensions/hub/README.md": readme,
        "extensions/hub/extension.mjs": "",
        "extensions/hub/assets/preview.png": "",
        "extensions/hub/package.json": "{}",
        "extensions/hub/game/index.html": "",
        "extensions/other/extension.mjs": "",
    }
    assert stale(tmp_path, files) == [("extensions/hub/README.md", 8, ".github/plugin/plugin.json")]


def test_a_list_introduced_by_another_repository_is_that_repository_s(tmp_path: Path) -> None:
    doc = (
        "# Router\n\nLoad these files from `github/gh-aw` (not available locally).\n"
        "- `.github/aw/create.md`\n- `.github/aw/debug.md`\n\n"
        "Then follow it:\n- Design workflows: `.github/aw/create.md`\n"
        "- Check the overlay: `.github/aw/overlay.md`\n"
    )
    files = {".github/skills/router/SKILL.md": doc, ".github/aw/lock.json": "{}"}
    assert stale(tmp_path, files) == [
        (".github/skills/router/SKILL.md", 9, ".github/aw/overlay.md")
    ]


def test_placeholders_of_a_skill_s_own_folder(tmp_path: Path) -> None:
    doc = (
        "# Playbook\n\nRead `phase_prompts/phaseN.md`, then `references/filename.md`.\n"
        "Skills live in `.github/skills/skill-name/`. Stale: `phase_prompts/phase9.md`.\n"
    )
    files = {
        "skills/qp/SKILL.md": doc,
        "skills/qp/phase_prompts/phase1.md": "",
        "skills/qp/references/a.md": "",
    }
    assert stale(tmp_path, files) == [("skills/qp/SKILL.md", 4, "phase_prompts/phase9.md")]


def findings(root: Path, files: dict[str, str], rule: str) -> list[tuple[str, int, str]]:
    write_tree(root, files)
    report = run_check(CheckOptions(paths=[root], select=[rule], use_cache=False))
    return sorted((f.path, f.line, f.message) for f in report.findings)


SERVER_SKILL = "---\nname: issues\ndescription: 'Issues'\n---\n\nCall `mcp__github__get_issue`.\n"


def test_gl102_leaves_a_collection_s_skill_to_its_installer(tmp_path: Path) -> None:
    files = {
        **MARKETPLACE,
        ".mcp.json": '{"mcpServers": {"aw": {"command": "gh", "args": ["aw", "mcp"]}}}\n',
        "skills/issues/SKILL.md": SERVER_SKILL,
        "skills/other/SKILL.md": "---\nname: other\ndescription: 'Other'\n---\n",
        "AGENTS.md": "# Maintainers\n\nUse `mcp__github__get_issue`.\n",
    }
    found = findings(tmp_path, files, "GL102")
    assert [(path, line) for path, line, _ in found] == [("AGENTS.md", 3)]


def test_a_bundle_with_its_own_mcp_configuration_declares_servers(tmp_path: Path) -> None:
    files = {
        **MARKETPLACE,
        "plugins/p/.claude-plugin/plugin.json": '{"name": "p"}\n',
        "plugins/p/.mcp.json": '{"mcpServers": {"aw": {"command": "gh", "args": ["aw"]}}}\n',
        "plugins/p/skills/issues/SKILL.md": SERVER_SKILL,
        "skills/issues/SKILL.md": SERVER_SKILL,
        ".mcp.json": '{"mcpServers": {}}\n',
    }
    project = project_of(tmp_path, files)
    assert declares_servers("plugins/p/skills/issues/SKILL.md", project)
    # The collection's root configuration is its maintainers', not the skill's.
    assert not declares_servers("skills/issues/SKILL.md", project)


COPILOT_SKILL = (
    "---\nname: quick\ndescription: 'Quick start'\n"
    "allowed-tools: ['Azure MCP/documentation', ask_user, sql]\n---\n\n# Quick\n"
)


def test_gl107_leaves_a_copilot_collection_s_skill_alone(tmp_path: Path) -> None:
    files = {**MARKETPLACE, "skills/quick/SKILL.md": COPILOT_SKILL}
    project = project_of(tmp_path, files)
    assert steers_copilot("skills/quick/SKILL.md", project)
    assert findings(tmp_path, files, "GL107") == []


def test_gl107_reads_a_claude_code_skill_s_quoted_list_item_whole(tmp_path: Path) -> None:
    files = {
        ".claude-plugin/marketplace.json": '{"name": "c", "plugins": []}\n',
        "skills/quick/SKILL.md": COPILOT_SKILL,
    }
    project = project_of(tmp_path, files)
    assert not steers_copilot("skills/quick/SKILL.md", project)
    names = [message.split("`")[1] for _, _, message in findings(tmp_path, files, "GL107")]
    assert names == ["Azure MCP/documentation", "ask_user", "sql"]


def test_a_third_party_notice_names_the_credited_project_s_files(tmp_path: Path) -> None:
    notice = "# Notices\n\nFrom the `tests/docx.py` file of dwml we used namespaces.\n"
    files = {
        "packages/kit/ThirdPartyNotices.md": notice,
        "tests/test_a.py": "",
        "README.md": "See `tests/gone.py`.\n",
    }
    assert stale(tmp_path, files) == [("README.md", 1, "tests/gone.py")]
