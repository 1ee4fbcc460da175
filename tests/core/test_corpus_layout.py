"""scripts/corpus_layout.py: a corpus copy made from a real git repository (the
agent-repos-full selection) and laid out with placeholders."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "corpus_layout.py"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def load_script():
    spec = importlib.util.spec_from_file_location("corpus_layout", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def git_repository(root: Path) -> Path:
    files = {
        "AGENTS.md": "# Agents\n",
        "README.md": "# Demo\n",
        "LICENSE": "MIT\n",
        "src/app.py": "print('hi')\n",
        "docs/config.yaml": "a: 1\n",
        "package-lock.json": "{}\n",
        "node_modules/pkg/README.md": "# vendored\n",
        ".claude/hooks/run.sh": "#!/bin/sh\n",
        "docs/huge.md": "x" * (1 << 20),
        "web/.gitignore": "build/\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    run = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*run[:3], "init", "-q"], check=True)
    subprocess.run([*run, "add", "-A"], check=True)
    subprocess.run([*run, "commit", "-qm", "demo"], check=True)
    return root / ".git"


def test_from_git_keeps_what_the_corpus_keeps_and_lists_everything(tmp_path):
    layout = load_script()
    repo = tmp_path / "repo"
    repo.mkdir()
    out = tmp_path / "acme__demo"
    assert layout.from_git(git_repository(repo), out) == []

    kept = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if not p.is_dir())
    assert kept == [
        ".claude/hooks/run.sh",
        "AGENTS.md",
        "CLAUDE.md",
        "LICENSE",
        "LISTING.txt",
        "README.md",
        "docs/config.yaml",
        "web/.gitignore",
    ]
    assert (out / "CLAUDE.md").is_symlink()
    assert (out / "CLAUDE.md").readlink().as_posix() == "AGENTS.md"
    listed = (out / "LISTING.txt").read_text(encoding="utf-8").split()
    assert "src/app.py" in listed and "docs/huge.md" in listed and len(listed) == 11

    scratch = layout.lay_out(out, tmp_path / "scratch")
    assert (scratch / "src/app.py").read_text(encoding="utf-8") == ""  # a placeholder
    assert (scratch / "README.md").read_text(encoding="utf-8") == "# Demo\n"
    assert layout.placeholders(out) == {
        "src/app.py",
        "docs/huge.md",
        "package-lock.json",
        "node_modules/pkg/README.md",
    }
