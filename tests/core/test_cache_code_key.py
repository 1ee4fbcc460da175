"""The cache's key on guidelint's own code: a stat of each file, still changed by any edit."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

import guidelint
from guidelint import cache

PACKAGE = Path(guidelint.__file__).parent
RULE = "rules/gl501_stale_path.py"
LATER = time.time_ns() + 3600 * 10**9  # an hour on: no file counts as just written


@pytest.fixture
def package(tmp_path) -> Path:
    copy = tmp_path / "guidelint"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def same_size_edit(path: Path) -> None:
    text = path.read_text()
    at = text.index("stale")
    path.write_text(text[:at] + "STALE" + text[at + 5 :])  # as long as before


def test_an_unchanged_package_keeps_its_key(package):
    assert cache._code_digest(package) == cache._code_digest(package)
    assert cache._code_digest(package, LATER) == cache._code_digest(package, LATER)
    assert cache._code_digest(package) != cache._code_digest(package, LATER)  # bytes counted


def test_editing_a_rule_module_changes_the_key_at_once(package):
    # Within one clock tick of the copy: the stat may not move, the bytes do.
    before = cache._code_digest(package)
    same_size_edit(package / RULE)
    assert cache._code_digest(package) != before


def test_an_edit_with_its_mtime_set_back_changes_the_key(package):
    rule = package / RULE
    old = rule.stat()
    before = cache._code_digest(package, LATER)
    time.sleep(0.02)  # past one tick of the kernel's file clock (<= 10 ms), so the ctime moves
    same_size_edit(rule)
    os.utime(rule, ns=(old.st_atime_ns, old.st_mtime_ns))  # size and mtime as before
    assert rule.stat().st_size == old.st_size and rule.stat().st_mtime_ns == old.st_mtime_ns
    assert cache._code_digest(package, LATER + 1) != before  # the ctime moved


def test_an_added_module_or_data_file_changes_the_key(package):
    before = cache._code_digest(package, LATER)
    (package / "rules" / "gl999_new.py").write_text("")
    after_module = cache._code_digest(package, LATER)
    assert after_module != before
    (package / "tools" / "extra.json").write_text("{}")
    assert cache._code_digest(package, LATER) != after_module


def test_compiled_bytecode_does_not_count(package):
    before = cache._code_digest(package, LATER)
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "cache.cpython-311.pyc").write_bytes(b"\0")
    assert cache._code_digest(package, LATER) == before
