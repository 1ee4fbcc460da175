"""The reference rules on eight real agent repositories (../shared/corpus/agent-repos).

Each repository's agent-configuration files are there with a LISTING.txt of every
file the real repository has; the others are laid out as empty placeholders so a
path checker sees the real tree. Anchors into a placeholder cannot be judged (its
headings are not in the corpus), so those findings are left out. Every finding in
the snapshot was reviewed by hand; docs/PERFORMANCE.md records the precision.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from guidelint.config import Config
from guidelint.discovery import discover
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from tests.conftest import shared_corpus

CORPUS = shared_corpus("agent-repos")
SNAPSHOT = Path(__file__).parents[1] / "fixtures" / "corpus" / "agent-repos-findings.json"
UPDATE = os.environ.get("GUIDELINT_UPDATE_CORPUS") == "1"
SELECT = ["GL501", "GL502", "GL504", "GL6"]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.corpus("agent-repos"),
]


def lay_out(repo: Path, into: Path) -> Path:
    """The repository's files, and an empty placeholder for every other listed file."""
    root = into / repo.name
    shutil.copytree(repo, root)
    for rel in (repo / "LISTING.txt").read_text(encoding="utf-8").splitlines():
        path = root / rel.strip()
        if rel.strip() and not rel.endswith("/") and not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
    return root


def judgeable(root: Path, path: str, message: str) -> bool:
    """False for a finding on a placeholder (its text is not in the corpus), or an
    anchor into one: their contents are unknown."""
    if (root / path).is_file() and (root / path).stat().st_size == 0:
        return False
    if "has no heading or anchor" not in message:
        return True
    target = message.split("`")[3]
    return (root / target).stat().st_size > 0


def findings_of(root: Path) -> list[str]:
    config = Config(include=["**/*.md", "**/*.json"], respect_gitignore=False, select=SELECT)
    project = Project(root, config)
    found = Engine(project, build_selection(config)).check_files(discover(root, config))
    return [
        f"{f.path}:{f.line}: {f.code} {f.message}"
        for f in found
        if judgeable(root, f.path, f.message)
    ]


@pytest.fixture(scope="module")
def actual(tmp_path_factory) -> dict[str, list[str]]:
    into = tmp_path_factory.mktemp("agent-repos")
    repos = sorted(p for p in CORPUS.iterdir() if p.is_dir())
    return {repo.name: findings_of(lay_out(repo, into)) for repo in repos}


def test_findings_match_the_reviewed_snapshot(actual):
    if UPDATE:
        SNAPSHOT.write_text(json.dumps(actual, indent=2, ensure_ascii=False) + "\n")
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    for name in sorted(set(expected) | set(actual)):
        added = sorted(set(actual.get(name, [])) - set(expected.get(name, [])))
        removed = sorted(set(expected.get(name, [])) - set(actual.get(name, [])))
        assert not (added or removed), f"{name}: + {added} - {removed}"
