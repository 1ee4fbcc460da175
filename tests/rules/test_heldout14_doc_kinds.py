"""Held-out set 14's false families of document kind (docs/PRECISION.md, "Held-out set
14 fixes: document kinds, skill folders, a project's own package"): a plan by its name,
its title or a project plan's sections, a folder of specifications, a section headed as
not built yet (GL501); a skill's own AGENTS.md (GL610); the repository's own npm package
run by its `.mcp.json` (GL614). Each is checked on a small real tree, the false case
silent and the true one beside it reported.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check
from guidelint.config import Config
from guidelint.doc_kind import declares_plan, doc_kind, history_by_path, history_by_text
from guidelint.project import Project
from tests.conftest import write_tree
from tests.rules.test_gl501_heldout6_signals import stale


@pytest.mark.parametrize(
    "rel",
    [
        "update-task-migration-plan.md",
        "specification/v2_ux_interfaces_plan.md",
        "docs/next-refactor-plan.md",
        "web/src/features/search-bar/AI_FILTER_PLAN.md",
        "ROADMAP.md",
        "specification/v2_ux.md",
        "docs/specifications/auth.md",
    ],
)
def test_plans_and_specifications_by_path(rel):
    assert history_by_path(rel)


@pytest.mark.parametrize(
    "rel",
    [
        "PLANNING.md",
        "docs/cli/plan-mode.md",
        "docs/test-plan.md",
        "docs/query_plan.md",
        "src/skills-x/step-02-plan.md",  # a workflow's step: an instruction
        "cli/CLI_SPECIFICATION.md",  # a specification by name alone is not history
    ],
)
def test_other_plan_words_are_not_history(rel):
    assert history_by_path(rel) is None


@pytest.mark.parametrize(
    "text",
    [
        "# SuperClaude Plugin Re-organization Plan\n\n## Source of Truth\n",
        "# Migration Roadmap ✅\n",
        "---\ntitle: x\n---\n# RFC: streaming tools\n",
        # task-master's phased plans: two of a project plan's sections.
        "# Phase 2: PR + Resumability\n\n## Objective\n\n## Deliverables\n\n"
        "## Out of Scope (defer to Phase 3)\n\n## Estimated Effort\n",
        "## Summary\n\n## Goals\n\n## Non\u2011Goals (initial)\n\n## Success Criteria\n",
    ],
)
def test_plans_by_title_or_sections(text):
    assert history_by_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "# Plan Mode\n\nPress Shift+Tab.\n",
        "# Step 2: Plan\n\n## RULES\n",
        "# Quickstart Live Test Plan\n",
        "# Planning and Executing a Query Plan\n",
        "# Setup\n\n## Dependencies\n\n## Deliverables\n",  # one plan section only
    ],
)
def test_guides_with_plan_words_are_not_history(text):
    assert history_by_text(text) is None


def test_a_self_declared_plan_stays_history_when_a_steering_file_names_it(tmp_path):
    # SuperClaude's CLAUDE.md: "planned for v5.0. See `docs/plugin-reorg.md`".
    plan = "# Plugin Re-organization Plan\n\nMove tests to `plugins/x/tests/`.\n"
    notes = "# Runner notes\n"
    write_tree(
        tmp_path,
        {
            "CLAUDE.md": "Planned. See `docs/plugin-reorg.md` and `docs/notes/runner.md`.\n",
            "docs/plugin-reorg.md": plan,
            "docs/notes/runner.md": notes,
        },
    )
    project = Project(tmp_path, Config(respect_gitignore=False))
    assert declares_plan("docs/plugin-reorg.md", plan)
    assert doc_kind("docs/plugin-reorg.md", plan, project)[0] == "history"
    # A folder's evidence alone gives way to the steering file, as before.
    assert doc_kind("docs/notes/runner.md", notes, project)[0] == "steering"


def test_gl501_is_silent_in_plans_and_specifications(tmp_path):
    files = {
        "src/app.py": "",
        "update-task-migration-plan.md": "# Update task\n\nAdd `src/strategies/bulk.py`.\n",
        "specification/v2_servers.md": "# Servers\n\nTest in `src/test/servers.test.py`.\n",
        ".taskmaster/docs/phase-1.md": (
            "# Phase 1: Core Rails\n\n## Deliverables\n\n### `src/services/git_adapter.py`\n\n"
            "## Success Criteria\n\nAll green.\n"
        ),
        "docs/guide.md": "# Guide\n\nThe adapter is `src/services/git_adapter.py`.\n",
    }
    assert stale(tmp_path, files) == [("docs/guide.md", 3, "src/services/git_adapter.py")]


def test_gl501_is_silent_under_a_heading_of_what_is_not_built(tmp_path):
    readme = (
        "# Seeder\n\n## Layout\n\n- `src/doctor.py` runs the checks.\n- `src/missing.py`.\n\n"
        "## What's next (deliberately not built yet)\n\n- **presets**: a `src/presets.py`.\n\n"
        "### Details\n\n- `src/presets_io.py`.\n\n"
        "## Future work\n\n- `src/api_writer.py`\n\n"
        "## Next steps\n\n- Edit `src/settings.py`.\n"
    )
    found = stale(tmp_path, {"src/doctor.py": "", "seeder/README.md": readme})
    assert found == [
        ("seeder/README.md", 6, "src/missing.py"),
        ("seeder/README.md", 22, "src/settings.py"),
    ]


def _gl(root: Path, code: str) -> list[tuple[str, int]]:
    report = run_check(CheckOptions(paths=[root], select=[code], use_cache=False))
    return sorted((f.path, f.line) for f in report.findings)


def test_gl610_skips_a_skills_own_agents_md(tmp_path):
    big = "# Guide\n\n" + "Keep each change small and reviewed.\n" * 1000  # ~37 KB
    write_tree(
        tmp_path,
        {
            "AGENTS.md": "# Root\n\nRun `make test`.\n",
            "web/.agents/skills/react-patterns/SKILL.md": (
                "---\nname: react-patterns\ndescription: React patterns.\n---\n\n"
                "For the complete guide: `AGENTS.md`\n"
            ),
            "web/.agents/skills/react-patterns/AGENTS.md": big,
            "web/.agents/skills/react-patterns/rules/AGENTS.md": big,
            "web/AGENTS.md": big,  # a directory's instructions file: still measured
        },
    )
    assert [rel for rel, _ in _gl(tmp_path, "GL610")] == ["web/AGENTS.md"]


def test_gl614_skips_the_repositorys_own_package(tmp_path):
    servers = {
        "mcpServers": {
            "own": {"command": "npx", "args": ["-y", "task-master-ai"]},
            "member": {"command": "npx", "args": ["-y", "@acme/mcp"]},
            "other": {"command": "npx", "args": ["-y", "@upstash/context7-mcp"]},
        }
    }
    write_tree(
        tmp_path,
        {
            "package.json": json.dumps({"name": "task-master-ai", "workspaces": ["packages/*"]}),
            "packages/mcp/package.json": json.dumps({"name": "@acme/mcp"}),
            "apps/x/package.json": json.dumps({"name": "@upstash/context7-mcp"}),
            ".mcp.json": json.dumps(servers, indent=2),
        },
    )
    found = run_check(CheckOptions(paths=[tmp_path], select=["GL614"], use_cache=False))
    assert [f.message.split("`")[1] for f in found.findings] == ["other"]


def test_gl614_bad_package_json_is_no_error(tmp_path):
    servers = {"mcpServers": {"own": {"command": "npx", "args": ["-y", "pkg"]}}}
    write_tree(tmp_path, {"package.json": "{not json", ".mcp.json": json.dumps(servers)})
    found = run_check(CheckOptions(paths=[tmp_path], select=["GL614"], use_cache=False))
    assert [f.code for f in found.findings] == ["GL614"]
