"""The one unified-diff writer (guidelint.fixes.unified_diff), applied by the real tools.

`check --diff`, the MCP `fix` tool and `gotcha add` all print its output, so what it
writes must be a patch that `git apply` and `patch` take, a last line without a
newline included.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from guidelint.fixes import NO_NEWLINE, unified_diff

CHANGES = {
    "no-final-newline.md": ("a\nb\ny", "a\nB\nz"),
    "gains-a-newline.md": ("x\ny", "x\ny\n"),
    "loses-the-newline.md": ("x\ny\n", "x\nY"),
    "crlf.md": ("one\r\ntwo\r\n", "one\r\nTWO\r\n"),
    "lone-cr-and-form-feed.md": ("a\rb\x0cc\nd\n", "a\rb\x0cc\nD\n"),
    "unchanged.md": ("same", "same"),
}


def write_tree(root: Path, side: int) -> None:
    for rel, texts in CHANGES.items():
        (root / rel).write_bytes(texts[side].encode("utf-8"))


def assert_after(root: Path) -> None:
    for rel, (_, after) in CHANGES.items():
        assert (root / rel).read_bytes() == after.encode("utf-8"), rel


def test_a_last_line_without_a_newline_is_marked():
    diff = unified_diff({"b.md": ("x\ny", "x\nz")})
    assert diff.splitlines(keepends=True)[-4:] == ["-y\n", NO_NEWLINE, "+z\n", NO_NEWLINE]
    assert "-y+z" not in diff


def test_unchanged_files_give_no_diff_and_files_come_in_path_order():
    diff = unified_diff({"b.md": ("1", "2"), "a.md": ("1\n", "2\n"), "c.md": ("s", "s")})
    headers = [line for line in diff.splitlines() if line.startswith("--- ")]
    assert headers == ["--- a/a.md", "--- a/b.md"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_apply_takes_the_patch(tmp_path):
    write_tree(tmp_path, 0)
    (tmp_path / "fix.patch").write_bytes(unified_diff(CHANGES).encode("utf-8"))
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "apply", "--check", "fix.patch"], cwd=tmp_path, check=True)
    subprocess.run(["git", "apply", "fix.patch"], cwd=tmp_path, check=True)
    assert_after(tmp_path)


@pytest.mark.skipif(shutil.which("patch") is None, reason="GNU patch is not installed")
def test_patch_takes_the_patch(tmp_path):
    write_tree(tmp_path, 0)
    patch = unified_diff(CHANGES).encode("utf-8")
    subprocess.run(["patch", "-p1", "--batch", "--quiet"], input=patch, cwd=tmp_path, check=True)
    assert_after(tmp_path)
