"""Applying fixes: non-overlapping edits, atomic writes, repeated until stable."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from guidelint.findings import Edit, Finding, Fix

MAX_PASSES = 10


def apply_edits(text: str, fixes: list[Fix]) -> tuple[str, int]:
    """Apply every fix whose edits overlap no earlier accepted fix; count applied."""
    accepted: list[Edit] = []
    applied = 0
    for fix in fixes:
        edits = sorted(fix.edits, key=lambda e: (e.start, e.end))
        if any(_overlaps(e, other) for e in edits for other in accepted):
            continue
        accepted.extend(edits)
        applied += 1
    for edit in sorted(accepted, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: edit.start] + edit.content + text[edit.end :]
    return text, applied


def _overlaps(a: Edit, b: Edit) -> bool:
    if a.start == a.end == b.start == b.end:
        return True  # two insertions at one point: order would be arbitrary
    return a.start < b.end and b.start < a.end


BOM = "\ufeff".encode()


def read_text_exact(path: Path) -> str:
    """The text as the engine saw it: line endings kept, a BOM dropped."""
    data = path.read_bytes()
    return data.decode("utf-8-sig")


def write_atomic(path: Path, text: str) -> None:
    """Write via a temp file in the same folder and rename.

    The file's mode and a leading BOM are kept; line endings are written as given.
    """
    mode = path.stat().st_mode & 0o7777 if path.exists() else None
    had_bom = path.exists() and path.read_bytes()[:3] == BOM
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".guidelint-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write((BOM if had_bom else b"") + text.encode("utf-8"))
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def fix_file(
    path: Path, check: Callable[[], list[Finding]], unsafe: bool = False
) -> tuple[int, list[Finding]]:
    """Fix one file until no fixable finding is left; return (fixes applied, findings)."""
    total = 0
    findings = check()
    for _ in range(MAX_PASSES):
        fixes = [f.fix for f in findings if f.fix is not None and (f.fix.safe or unsafe)]
        if not fixes:
            break
        text = read_text_exact(path)
        new_text, applied = apply_edits(text, fixes)
        if applied == 0 or new_text == text:
            break
        write_atomic(path, new_text)
        total += applied
        findings = check()
    return total, findings
