"""Reading and writing project files exactly: the one atomic writer every command uses.

What a write promises (docs/RELIABILITY.md): a reader sees the old file or the new
one, never half of one; a symlink is written through to its target; the file keeps
its mode, owner and group (and a leading BOM); a read-only file is refused; and with
`locked()` / `replace_if_unchanged()` concurrent writers serialise instead of losing
each other's changes.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from collections.abc import Iterator
from pathlib import Path

BOM = "\ufeff".encode()


def read_text_exact(path: Path) -> str:
    """The text as the engine saw it: line endings kept, a BOM dropped."""
    return path.read_bytes().decode("utf-8-sig")


def write_atomic(path: Path, text: str) -> None:
    """Write via a temp file in the target's folder and rename over the target.

    An existing file keeps its mode, owner, group and leading BOM, and a symlink
    keeps being a symlink (its target is replaced). A new file gets the mode the
    umask gives (mkstemp's 0600 would surprise a shared checkout). Line endings are
    written as given. Raises PermissionError for a file with no write permission.
    """
    target = Path(os.path.realpath(path))
    try:
        info: os.stat_result | None = target.stat()
    except FileNotFoundError:
        info = None
    if info is not None and not info.st_mode & 0o222:
        raise PermissionError(errno.EACCES, "the file is read-only", str(path))
    had_bom = info is not None and target.read_bytes()[:3] == BOM
    import tempfile  # with shutil and the compressors: only to write

    fd, tmp = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".guidelint-tmp", dir=target.parent
    )
    try:
        if info is None:
            os.fchmod(fd, 0o666 & ~_umask())
        else:
            os.fchmod(fd, stat.S_IMODE(info.st_mode))
            _keep_owner(fd, info)
        with os.fdopen(fd, "wb") as handle:
            handle.write((BOM if had_bom else b"") + text.encode("utf-8", "surrogateescape"))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _keep_owner(fd: int, info: os.stat_result) -> None:
    """The same owner and group as the file replaced (a no-op unless they differ)."""
    current = os.fstat(fd)
    if (current.st_uid, current.st_gid) != (info.st_uid, info.st_gid):
        with contextlib.suppress(PermissionError):  # not ours to give away: keep ours
            os.fchown(fd, info.st_uid, info.st_gid)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an advisory lock for writing a file: on its folder, the one thing a
    rename over the file never replaces (a lock on the file itself would protect
    an inode that the first writer's rename has already swapped out). A folder that
    does not exist yet is to be made: its nearest existing parent is locked."""
    folder = Path(os.path.realpath(path)).parent
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def replace_if_unchanged(path: Path, expected: str, text: str) -> bool:
    """Write `text` only if the file still holds `expected` (compare and swap, under
    a lock); False when it changed meanwhile, and nothing was written."""
    with locked(path):
        if read_text_exact(path) != expected:
            return False
        write_atomic(path, text)
        return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
