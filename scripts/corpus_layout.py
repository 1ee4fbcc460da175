"""Corpus repositories: made from a git repository, and laid out as a user's checkout.

    .venv/bin/python scripts/corpus_layout.py GIT_DIR OUT_DIR   # make one from HEAD

A corpus repository (`../shared/corpus/agent-repos-full/OWNER__NAME`, or a held-out
one built the same way) holds the repository's text files and a `LISTING.txt` of
every path the real repository has. Copied to a scratch folder with an empty
placeholder for every listed path not copied, the paths its documents name exist
as they do in the real checkout. docs/PRECISION.md describes the method;
tests/rules/test_corpus_labels.py and scripts/heldout_precision.py both use it.

`from_git` makes one the way ../shared/corpus/agent-repos-full was made (its README):
every .md/.mdx/.markdown/.json/.jsonc/.yaml/.yml/.toml file under 1 MB from HEAD (lock
files and node_modules/, vendor/, dist/, build/ skipped), everything inside `.claude/`
and `.claude-plugin/`, the top-level LICENSE/COPYING/NOTICE files, symlinks kept as
symlinks, and `LISTING.txt` = `git ls-tree -r --name-only HEAD`. Held-out copies made
since session 39 also keep every `.gitignore` and `.gitmodules` (the shared corpus has them
as empty placeholders): guidelint honours them, and a user's checkout has their text.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

TEXT_SUFFIXES = (".md", ".mdx", ".markdown", ".json", ".jsonc", ".yaml", ".yml", ".toml")
SKIPPED_FOLDERS = {"node_modules", "vendor", "dist", "build", ".git"}
AGENT_FOLDERS = {".claude", ".claude-plugin"}
LOCK_FILES = {"package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock", "go.sum"}
LICENCE_STEMS = {"LICENSE", "LICENCE", "COPYING", "NOTICE"}
GIT_FILES = {".gitignore", ".gitmodules"}
SIZE_LIMIT = 1 << 20
SYMLINK_MODE = "120000"


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


def copied(path: str, size: int) -> bool:
    """Whether the corpus keeps this file of the repository (see the module's doc)."""
    parts = PurePosixPath(path).parts
    name, folders = parts[-1], set(parts[:-1])
    if folders & AGENT_FOLDERS:
        return True
    if len(parts) == 1 and name.split(".")[0].upper() in LICENCE_STEMS:
        return True
    if name in GIT_FILES and size < SIZE_LIMIT:
        return True
    if folders & SKIPPED_FOLDERS or name in LOCK_FILES or name.endswith(".lock"):
        return False
    return name.lower().endswith(TEXT_SUFFIXES) and size < SIZE_LIMIT


def _git(git_dir: Path, *args: str) -> bytes:
    command = ["git", "-C", str(git_dir), *args]
    return subprocess.run(command, check=True, capture_output=True).stdout


def from_git(git_dir: Path, out: Path) -> list[str]:
    """Write the corpus copy of HEAD into `out` (new); the paths absent from a partial
    snapshot (blobs git cannot size) are returned, not copied."""
    out.mkdir(parents=True)
    (out / "LISTING.txt").write_bytes(_git(git_dir, "ls-tree", "-r", "--name-only", "HEAD"))
    absent = []
    for line in _git(git_dir, "ls-tree", "-r", "-l", "-z", "HEAD").decode().split("\0"):
        if not line:
            continue
        meta, path = line.split("\t", 1)
        mode, kind, blob, size = meta.split()
        if kind != "blob":
            continue  # a submodule
        if not size.isdigit():
            absent.append(path)
            continue
        if not copied(path, int(size)):
            continue
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        data = _git(git_dir, "cat-file", "blob", blob)
        if mode == SYMLINK_MODE:
            target.symlink_to(data.decode())
        else:
            target.write_bytes(data)
    return absent


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: corpus_layout.py GIT_DIR OUT_DIR")
    missing = from_git(Path(sys.argv[1]), Path(sys.argv[2]))
    if missing:
        print(f"absent from the snapshot, not copied: {', '.join(missing)}")
