"""Reading and writing project files exactly: the one atomic writer every command uses."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

BOM = "\ufeff".encode()


def read_text_exact(path: Path) -> str:
    """The text as the engine saw it: line endings kept, a BOM dropped."""
    return path.read_bytes().decode("utf-8-sig")


def write_atomic(path: Path, text: str) -> None:
    """Write via a temp file in the same folder and rename: a reader sees the old file
    or the new one, never half of one.

    An existing file keeps its mode and its leading BOM; a new one gets the mode the
    umask gives (mkstemp's 0600 would surprise a shared checkout). Line endings are
    written as given.
    """
    try:
        stat = path.stat()
        mode = stat.st_mode & 0o7777
        had_bom = path.read_bytes()[:3] == BOM
    except FileNotFoundError:
        mode, had_bom = 0o666 & ~_umask(), False
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".guidelint-tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write((BOM if had_bom else b"") + text.encode("utf-8", "surrogateescape"))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
