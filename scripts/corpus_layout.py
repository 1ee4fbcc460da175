"""Lay out a corpus repository as a user's checkout, for `guidelint check .`.

A corpus repository (`../shared/corpus/agent-repos-full/OWNER__NAME`, or a held-out
one built the same way) holds the repository's text files and a `LISTING.txt` of
every path the real repository has. Copied to a scratch folder with an empty
placeholder for every listed path not copied, the paths its documents name exist
as they do in the real checkout. docs/PRECISION.md describes the method;
tests/rules/test_corpus_labels.py and scripts/heldout_precision.py both use it.
"""

from __future__ import annotations

import shutil
from pathlib import Path


def lay_out(repo: Path, into: Path) -> Path:
    """The repository's copied files, and an empty placeholder for every other listed one."""
    root = into / repo.name
    shutil.copytree(repo, root, symlinks=True)
    for rel in (repo / "LISTING.txt").read_text(encoding="utf-8").splitlines():
        rel = rel.strip()
        path = root / rel
        if rel and not rel.endswith("/") and not path.exists() and not path.is_symlink():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
    return root


def placeholders(repo: Path) -> set[str]:
    """The listed paths the corpus did not copy: empty in a lay-out, their text unknown."""
    copied = {
        path.relative_to(repo).as_posix()
        for path in repo.rglob("*")
        if path.is_file() or path.is_symlink()
    }
    listed = (repo / "LISTING.txt").read_text(encoding="utf-8").splitlines()
    return {rel.strip() for rel in listed if rel.strip() and rel.strip() not in copied}
