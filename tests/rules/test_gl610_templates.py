"""GL610 measures a template tree from its own root, where it lands in a user's project."""

from __future__ import annotations

from pathlib import Path

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project


def _gl610(root: Path, rel: str) -> list[str]:
    project = Project(root, Config())
    findings = Engine(project, build_selection(project.config)).check_file(rel)
    return [f.message for f in findings if f.code == "GL610"]


def test_a_template_agents_md_is_not_joined_to_the_repository_s_own(tmp_path: Path) -> None:
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex" / "config.toml").write_text("project_doc_max_bytes = 200\n")
    (tmp_path / "AGENTS.md").write_text("# Repo\n\n" + "Keep changes small.\n" * 8)  # 160 B
    template = tmp_path / "cli" / "templates" / "flow"
    template.mkdir(parents=True)
    (template / "AGENTS.md").write_text("# Flow\n\nRun `crew run` to start.\n" * 2)  # 66 B
    nested = tmp_path / "cli" / "notes"
    nested.mkdir(parents=True)
    (nested / "AGENTS.md").write_text("# Notes\n\nRun `crew run` to start.\n" * 2)

    assert _gl610(tmp_path, "cli/templates/flow/AGENTS.md") == []  # 66 B where it lands
    joined = _gl610(tmp_path, "cli/notes/AGENTS.md")  # an ordinary folder: 160 + 68 B
    assert len(joined) == 1 and "`AGENTS.md` before it" in joined[0]


def test_a_template_over_the_limit_alone_is_still_reported(tmp_path: Path) -> None:
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex" / "config.toml").write_text("project_doc_max_bytes = 100\n")
    template = tmp_path / "templates" / "app"
    template.mkdir(parents=True)
    (template / "AGENTS.md").write_text("# App\n\n" + "Run the tests first.\n" * 10)

    found = _gl610(tmp_path, "templates/app/AGENTS.md")
    assert len(found) == 1 and "before it" not in found[0]
