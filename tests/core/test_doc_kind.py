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
        "extensions/cli/spec/otlp-metrics.md",
        "website/_posts/2024-05-13-models-over-time.md",
        "notes/2024-05-01-rollout.md",
        "docs/adr/0007-use-postgres.md",
        "dev-docs/v3-notes/features.md",
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
        "docs/v2/development/tests.mdx",
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


TRANSCRIPT = (
    "---\nparent: Example chat transcripts\n---\n# Add a test\n\n"
    "This is a chat transcript of a session.\n\n> $ aider tests/test_main.py\n\n"
    "#### add a test for main\n\nHere is the change:\n\n> Applied edit to tests/test_main.py\n\n"
    "#### run it\n\n> Commit 163fba8 aider: ran the test\n"
)


def test_a_recorded_chat_transcript_is_history():
    assert history_by_text(TRANSCRIPT) == "a recorded chat transcript"
    # Its shape without the head saying it is a transcript: a guide's h4 headings and
    # quoted notes.
    assert history_by_text(TRANSCRIPT.replace("chat transcript", "walk-through")) is None
    # A guide that mentions session transcripts, with no recorded turns.
    assert history_by_text("# Hooks\n\nThe hook reads the session transcript.\n") is None


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


def _tree(root: Path, rels: list[str], text: str = "# Page\n") -> Project:
    for rel in rels:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return Project(root, Config(respect_gitignore=False))


def test_mintlify_copies_beside_a_current_folder_are_history(tmp_path):
    project = _tree(
        tmp_path,
        ["docs/edge/en/intro.mdx", "docs/v1.10.0/en/intro.mdx", "docs/v1.11.0/en/intro.mdx"],
    )
    kind, reason = doc_kind("docs/v1.10.0/en/intro.mdx", "# Page\n", project)
    assert kind == "history" and "current: `edge/`" in reason
    assert doc_kind("docs/edge/en/intro.mdx", "# Page\n", project)[0] == "guide"


def test_copies_beside_the_unversioned_current_docs_are_history(tmp_path):
    pages = ["docs/development/tests.mdx", "docs/v2/development/tests.mdx"]
    project = _tree(tmp_path, [*pages, "docs/v3/development/tests.mdx"])
    for rel in pages[1:] + ["docs/v3/development/tests.mdx"]:
        kind, reason = doc_kind(rel, "", project)
        assert kind == "history" and "current: `docs/`" in reason
    assert doc_kind(pages[0], "", project)[0] == "guide"


def test_versions_declared_by_the_site_make_all_but_the_newest_history(tmp_path):
    project = _tree(tmp_path, ["docs/v1/intro.md", "docs/v2/intro.md"])
    # Two version folders and nothing else: no evidence which, if any, is a copy.
    assert doc_kind("docs/v1/intro.md", "", project)[0] == "guide"
    config = {"navigation": {"versions": [{"version": "v2"}, {"version": "v1"}]}}
    (tmp_path / "docs" / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    project = Project(tmp_path, Config(respect_gitignore=False))
    kind, reason = doc_kind("docs/v1/intro.md", "", project)
    assert kind == "history" and "declares versions" in reason
    assert doc_kind("docs/v2/intro.md", "", project)[0] == "guide"


def test_mkdocs_mike_declares_versions(tmp_path):
    project = _tree(tmp_path, ["docs/1.2/a.md", "docs/1.10/a.md"])
    (tmp_path / "mkdocs.yml").write_text("plugins:\n  - mike\n", encoding="utf-8")
    assert doc_kind("docs/1.2/a.md", "", project)[0] == "history"
    assert doc_kind("docs/1.10/a.md", "", project)[0] == "guide"  # 1.10 is newer than 1.2


def test_docusaurus_versioned_docs_are_history(tmp_path):
    project = _tree(
        tmp_path,
        ["website/docs/intro.md", "website/versioned_docs/version-1.2/intro.md"],
    )
    copy = "website/versioned_docs/version-1.2/intro.md"
    assert doc_kind(copy, "", project)[0] == "guide"  # no versions.json: not Docusaurus's
    (tmp_path / "website" / "versions.json").write_text('["1.2"]\n', encoding="utf-8")
    project = Project(tmp_path, Config(respect_gitignore=False))
    assert doc_kind(copy, "", project)[0] == "history"
    assert doc_kind("website/docs/intro.md", "", project)[0] == "guide"


def test_a_lone_api_version_folder_is_current_docs(tmp_path):
    project = _tree(tmp_path, ["docs/api/v2/endpoints.md", "docs/api/README.md", "docs/edge.md"])
    assert doc_kind("docs/api/v2/endpoints.md", "", project)[0] == "guide"
    project = _tree(tmp_path, ["docs/v2/guide.md", "docs/latest/guide.md"])
    # One version beside a current folder: a second version is what makes a series.
    assert doc_kind("docs/v2/guide.md", "", project)[0] == "guide"


BROKEN_EXAMPLE = "# Page\n\n```python\ndef f(:\n    pass\n```\n"


def test_example_rules_skip_released_copies_unless_history_is_asked(tmp_path):
    pages = ["docs/edge/page.md", "docs/v1.0.0/page.md", "docs/v1.1.0/page.md"]
    _tree(tmp_path, pages, BROKEN_EXAMPLE)
    quiet = run_cli("check", "--no-cache", "--select", "GL401", "--format", "json", cwd=tmp_path)
    assert [f["path"] for f in json.loads(quiet.stdout)["findings"]] == ["docs/edge/page.md"]
    (tmp_path / "guidelint.toml").write_text("[paths]\nreport-history = true\n", encoding="utf-8")
    loud = run_cli("check", "--no-cache", "--select", "GL401", "--format", "json", cwd=tmp_path)
    assert sorted(f["path"] for f in json.loads(loud.stdout)["findings"]) == sorted(pages)


def test_template_roots():
    assert template_root("templates/app/.claude/commands/x.md") == "templates/app"
    assert template_root("pkg/template/CLAUDE.md") == "pkg/template"
    assert template_root("docs/guide.md") is None


STALE_PLAN = "---\nstatus: implemented\n---\n# Plan\n\nBuild `scripts/runner_v2.py`.\n"


def test_history_is_read_only_when_asked_and_then_as_warnings(tmp_path):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "ok.py").write_text("", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "runner.md").write_text(STALE_PLAN, encoding="utf-8")
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
