"""What kind of document a path sits in (guidelint/doc_kind.py), and the `check`
options that issue #27 added: `--min-severity`, `--show-files`, the no-path scope."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guidelint.config import Config
from guidelint.doc_kind import doc_kind, history_by_path, history_by_text, is_fixture, template_root
from guidelint.project import Project
from tests.conftest import run_cli


@pytest.mark.parametrize(
    "rel",
    [
        "CHANGELOG.md",
        "docs/release-notes/v2.md",
        "docs/specs/runner.md",
        "notes/2024-05-01-rollout.md",
        "docs/adr/0007-use-postgres.md",
        "dev-docs/v3-notes/features.md",
        "docs/v2/development/tests.mdx",
        "docs/design_docs/moe.md",
        "newsletters/2026-June.md",
        "docs/updates/march-2024.md",
        "blog/launch.md",
        "community/dev-weekly/issue-12.md",
    ],
)
def test_history_by_name_and_folder(rel):
    assert history_by_path(rel)


@pytest.mark.parametrize(
    "rel",
    [
        "README.md",
        "docs/guide.md",
        "src/v2/README.md",
        "docs/setup/install.md",
        "docs/mayor.md",
        "docs/2024.md",
        "docs/marching-orders.md",
    ],
)
def test_guides_are_not_history(rel):
    assert history_by_path(rel) is None


def test_history_by_header():
    assert history_by_text("---\nstatus: implemented\n---\n# Plan\n")
    assert history_by_text("# Design\n\n**Status**: Draft\n")
    assert history_by_text("---\ndate: 2026-06-26\ntitle: x\n---\n")
    assert history_by_text("# Guide\n\nThe status: of the build is shown.\n") is None


@pytest.mark.parametrize(
    ("rel", "fixture"),
    [
        ("pkg/testdata/a.md", True),
        ("tests/fixtures/skill/SKILL.md", True),
        ("crates/x/tests/specs/prettier/a.md", True),
        ("crates/ty/resources/mdtest/a.md", True),
        ("docs/resources/guide.md", False),
        ("tests/README.md", False),
        ("docs/guide.md", False),
    ],
)
def test_fixtures(rel, fixture):
    assert is_fixture(rel) is fixture


def test_a_steering_file_that_names_a_plan_makes_it_steer(tmp_path):
    (tmp_path / "docs" / "plans").mkdir(parents=True)
    (tmp_path / "docs" / "plans" / "runner.md").write_text("# Runner\n", encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("Read `docs/plans/runner.md`.\n", encoding="utf-8")
    (tmp_path / "docs" / "plans" / "old.md").write_text("# Old\n", encoding="utf-8")
    project = Project(tmp_path, Config(respect_gitignore=False))
    assert doc_kind("docs/plans/runner.md", "# Runner\n", project)[0] == "steering"
    assert doc_kind("docs/plans/old.md", "# Old\n", project)[0] == "history"
    assert doc_kind(".claude/commands/x.md", "", project)[0] == "steering"


def test_template_roots():
    assert template_root("templates/app/.claude/commands/x.md") == "templates/app"
    assert template_root("pkg/template/CLAUDE.md") == "pkg/template"
    assert template_root("docs/guide.md") is None


STALE_PLAN = "---\nstatus: implemented\n---\n# Plan\n\nBuild `scripts/runner_v2.py`.\n"


def test_history_is_read_only_when_asked_and_then_as_warnings(tmp_path):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "ok.py").write_text("", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "plan.md").write_text(STALE_PLAN, encoding="utf-8")
    quiet = run_cli("check", "--no-cache", "--format", "json", cwd=tmp_path)
    assert json.loads(quiet.stdout)["findings"] == []
    (tmp_path / "guidelint.toml").write_text("[paths]\nreport-history = true\n", encoding="utf-8")
    loud = run_cli("check", "--no-cache", "--format", "json", cwd=tmp_path)
    [finding] = json.loads(loud.stdout)["findings"]
    assert finding["code"] == "GL501" and finding["severity"] == "warning"
    assert "a history document: its header records a status" in finding["message"]
    assert loud.returncode == 0  # warnings alone
    errors_only = run_cli("check", "--no-cache", "--min-severity", "error", cwd=tmp_path)
    assert "GL501" not in errors_only.stdout


def test_no_path_checks_what_dot_checks_and_show_files_says_why(tmp_path: Path):
    (tmp_path / "guides").mkdir()
    (tmp_path / "guides" / "guide.md").write_text("# Guide\n\nRun `guides/gone.md`.\n")
    (tmp_path / "data.json").write_text("{}\n", encoding="utf-8")
    bare = run_cli("check", "--no-cache", "--format", "json", cwd=tmp_path)
    dot = run_cli("check", ".", "--no-cache", "--format", "json", cwd=tmp_path)
    assert json.loads(bare.stdout) == json.loads(dot.stdout)
    assert json.loads(bare.stdout)["findings"][0]["path"] == "guides/guide.md"
    shown = run_cli("check", "--show-files", cwd=tmp_path).stdout.splitlines()
    assert "guides/guide.md: checked" in shown
    assert "data.json: skipped: not Markdown, and no `include` glob selects it" in shown
    (tmp_path / "guidelint.toml").write_text('include = ["docs/**/*.md"]\n', encoding="utf-8")
    configured = run_cli("check", "--show-files", cwd=tmp_path).stdout.splitlines()
    assert "guides/guide.md: skipped: no `include` glob selects it" in configured
