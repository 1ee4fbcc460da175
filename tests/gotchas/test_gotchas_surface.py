"""`guidelint surface --base REV` on a real git repository."""

from __future__ import annotations

import json
import subprocess

import pytest
from click.testing import CliRunner

from guidelint.commands.cli import main
from guidelint.gotchas.config import DEFAULT_SURFACE
from guidelint.gotchas.service import outside_surface


def git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@pytest.fixture
def repo(make_project, monkeypatch):
    root = make_project(
        {
            "CLAUDE.md": "# Rules\n",
            ".claude/rules/gotchas.md": "# Gotchas\n",
            "configs/production.toml": "batch = 16\n",
            "scripts/train.py": "print('train')\n",
        }
    )
    git(root, "init", "-q", "-b", "main")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "base")
    monkeypatch.chdir(root)
    return root


def invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_surface_only_change_passes(repo):
    (repo / ".claude/rules/gotchas.md").write_text("# Gotchas\n\n- **New.** (#1)\n")
    (repo / "docs").mkdir()
    (repo / "docs/guide.md").write_text("# Guide\n")  # untracked counts too
    (repo / "scripts/workflow_check.py").write_text("print(1)\n")
    result = invoke("surface", "--base", "HEAD")
    assert result.exit_code == 0
    assert "all 3 changed file(s) are on the workflow surface" in result.stdout


def test_change_outside_surface_fails_and_lists_files(repo):
    (repo / "CLAUDE.md").write_text("# Rules\n\nMore.\n")
    (repo / "configs/production.toml").write_text("batch = 32\n")
    (repo / "scripts/train.py").unlink()
    result = invoke("surface", "--base", "HEAD")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1:] == ["  configs/production.toml", "  scripts/train.py"]
    payload = json.loads(invoke("surface", "--base", "HEAD", "--format", "json").stdout)
    assert payload["outside"] == ["configs/production.toml", "scripts/train.py"]


def test_configured_surface(repo):
    (repo / "pyproject.toml").write_text(
        '[tool.guidelint.gotchas]\nsurface = [".claude/", "configs/", "pyproject.toml"]\n'
    )
    (repo / "configs/production.toml").write_text("batch = 32\n")
    assert invoke("surface", "--base", "HEAD").exit_code == 0


def test_bad_revision_is_one_line_exit_2(repo):
    result = invoke("surface", "--base", "no-such-rev")
    assert result.exit_code == 2
    assert result.stderr.startswith("guidelint: error: --base no-such-rev: ")
    assert len(result.stderr.strip().splitlines()) == 1


def test_outside_surface_matching():
    changed = {
        ".claude/agents/a.md",
        "AGENTS.md",
        "scripts/workflow_x.py",
        "scripts/x.py",
        "tasks/t.md",
        "docs/a/b.md",
        "sub/CLAUDE.md",
    }
    assert outside_surface(changed, DEFAULT_SURFACE) == ["scripts/x.py", "tasks/t.md"]
