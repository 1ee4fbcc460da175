"""What guidelint writes loses nothing (issue #14): concurrent `gotcha add`s all land,
`--fix` edits only the text it checked, symlinks, owners and modes are kept, and an
unwritable file is one line while the others are still fixed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.fixes import fix_file
from guidelint.fsio import replace_if_unchanged, write_atomic
from guidelint.project import Project
from tests.conftest import run_cli

GOTCHAS = ".claude/rules/gotchas.md"
START = """\
# Gotchas

## LESSONS index

- [First](#first)

## Lessons

- <a id="first"></a>**First.** Body one (#1).
"""
DRIFTED = START.replace("- [First](#first)\n", "- [Old words](#first)\n")


def gotchas_project(root: Path, text: str = START) -> Path:
    path = root / GOTCHAS
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    (root / "pyproject.toml").write_text('[tool.guidelint]\nselect = ["GL2"]\n')
    return path


def test_concurrent_gotcha_adds_all_land(tmp_path):
    # Twelve sessions adding at once: every entry survives, the file stays valid.
    path = gotchas_project(tmp_path)
    count = 12
    adds = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "guidelint",
                "gotcha",
                "add",
                "--headline",
                f"Lesson number {n} stands",
                "--body",
                "Because.",
                "--provenance",
                f"#{100 + n}",
            ],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(count)
    ]
    outputs = [add.communicate(timeout=300) for add in adds]
    assert [add.returncode for add in adds] == [0] * count, outputs
    text = path.read_text(encoding="utf-8")
    assert all(f"Lesson number {n} stands" in text for n in range(count))
    check = run_cli("check", "--no-cache", cwd=tmp_path)
    assert check.returncode == 0, check.stdout


def test_fix_never_applies_edits_to_another_text(tmp_path):
    # A writer that changes the file between guidelint's check and its write.
    path = gotchas_project(tmp_path, DRIFTED)
    config = Config(select=["GL2"])
    engine = Engine(Project(tmp_path, config), build_selection(config))
    meddled = []

    def check(text: str):
        findings = engine.check_text(GOTCHAS, text)
        if not meddled:
            meddled.append(True)
            path.write_text("A new first line.\n\n" + DRIFTED, encoding="utf-8")
        return findings

    fixed, remaining = fix_file(path, check)
    assert fixed == 1 and remaining == []
    text = path.read_text(encoding="utf-8")
    assert text == "A new first line.\n\n" + START  # the other change kept, the fix on it


def test_replace_if_unchanged_refuses_a_changed_file(tmp_path):
    path = tmp_path / "a.md"
    path.write_text("one\n")
    assert not replace_if_unchanged(path, "zero\n", "two\n")
    assert path.read_text() == "one\n"
    assert replace_if_unchanged(path, "one\n", "two\n")
    assert path.read_text() == "two\n"


def test_fix_writes_through_a_symlink_and_keeps_mode_and_owner(tmp_path):
    real = gotchas_project(tmp_path, DRIFTED)
    real.chmod(0o640)
    if os.geteuid() == 0:
        os.chown(real, 4242, 4242)
    link = tmp_path / ".claude/rules/link.md"
    link.symlink_to(real.name)
    config = Config(select=["GL2"], gotchas={"files": [".claude/rules/link.md"]})
    engine = Engine(Project(tmp_path, config), build_selection(config))
    fixed, _ = fix_file(link, lambda text: engine.check_text(".claude/rules/link.md", text))
    assert fixed == 1
    assert link.is_symlink() and real.read_text(encoding="utf-8") == START
    info = real.stat()
    assert info.st_mode & 0o777 == 0o640
    if os.geteuid() == 0:
        assert (info.st_uid, info.st_gid) == (4242, 4242)


def test_new_files_get_the_umask_mode(tmp_path):
    path = tmp_path / "report.json"
    write_atomic(path, "{}\n")
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask


def test_an_unfixable_file_is_one_line_and_the_others_are_fixed(tmp_path):
    gotchas_project(tmp_path, DRIFTED)
    other = tmp_path / ".claude/rules/more.md"
    other.write_text(DRIFTED, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.guidelint]\nselect = ["GL2"]\n'
        '[tool.guidelint.gotchas]\nfiles = [".claude/rules/*.md"]\n'
    )
    (tmp_path / GOTCHAS).chmod(0o444)
    result = run_cli("check", "--fix", "--no-cache", cwd=tmp_path)
    assert "Traceback" not in result.stderr
    assert f"{GOTCHAS}: not fixed: the file is read-only" in result.stderr
    assert other.read_text(encoding="utf-8") == START
    assert (tmp_path / GOTCHAS).read_text(encoding="utf-8") == DRIFTED
    assert result.returncode == 1  # the unfixed file still has its finding


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_an_unwritable_folder_is_one_line(tmp_path):
    path = gotchas_project(tmp_path, DRIFTED)
    path.parent.chmod(0o555)
    try:
        result = run_cli("check", "--fix", "--no-cache", cwd=tmp_path)
    finally:
        path.parent.chmod(0o755)
    assert "Traceback" not in result.stderr
    assert f"{GOTCHAS}: not fixed:" in result.stderr
