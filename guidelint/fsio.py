"""Reading and writing project files exactly: the one atomic writer every command uses.

What a write promises (docs/RELIABILITY.md): a reader sees the old file or the new
one, never half of one; a symlink is written through to its target (with `root`,
only to a place inside the project, whatever symlinks lie on the way); the file keeps
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


def read_text_exact(
    path: Path, root: Path | None = None, what: str = "a file guidelint fixes"
) -> str:
    """The text as the engine saw it: line endings kept, a BOM dropped. With `root`,
    a file that leads outside the project is a PermissionError naming it, not read."""
    if root is None:
        return path.read_bytes().decode("utf-8-sig")
    from guidelint.confine import Outside, open_inside

    try:
        fd = open_inside(root, path, what)
    except Outside as outside:
        raise PermissionError(errno.EPERM, str(outside), str(path)) from None
    with os.fdopen(fd, "rb") as handle:
        return handle.read().decode("utf-8-sig")


def write_atomic(path: Path, text: str, root: Path | None = None) -> None:
    """Write via a temp file in the target's folder and rename over the target.

    An existing file keeps its mode, owner, group and leading BOM, and a symlink
    keeps being a symlink (its target is replaced). A new file gets the mode the
    umask gives (mkstemp's 0600 would surprise a shared checkout). Line endings are
    written as given. Raises PermissionError for a file with no write permission.

    With `root` (the project's), the file is confined to it (`guidelint.confine`):
    a path or symlink that leads out of the project is a PermissionError naming it,
    and the folder is opened component by component with O_NOFOLLOW, so a folder
    swapped for a symlink meanwhile is not written through either.
    """
    target, folder = _folder_of(path, root)
    try:
        _write_in(folder, target.name, path, text)
    finally:
        os.close(folder)


def write_named(path: Path, text: str, root: Path) -> None:
    """Write a file the user named (`-o`, `--write-baseline`): one named in the
    project is confined to it (`confine.named_inside`: a committed symlink out is a
    PermissionError, nothing written); one named outside is written where they said,
    its folders made."""
    from guidelint.confine import named_inside

    if named_inside(root, path):
        write_atomic(path, text, root)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)


def _folder_of(path: Path, root: Path | None) -> tuple[Path, int]:
    """The file to write (symlinks resolved) and a descriptor of its folder."""
    from guidelint.confine import Outside, open_dir, resolve_inside

    if root is None:
        target = Path(os.path.realpath(path))
        return target, os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        target = resolve_inside(root, path, "a file guidelint writes")
        return target, open_dir(root, target.parent, "folder of a file guidelint writes")
    except Outside as outside:
        raise PermissionError(errno.EPERM, str(outside), str(path)) from None


def _write_in(folder: int, name: str, path: Path, text: str) -> None:
    """The write itself, relative to the folder's descriptor and never through a link."""
    try:
        info: os.stat_result | None = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISLNK(info.st_mode):  # swapped in since it was resolved
        raise PermissionError(errno.ELOOP, "became a symlink; not written through", str(path))
    if info is not None and not info.st_mode & 0o222:
        raise PermissionError(errno.EACCES, "the file is read-only", str(path))
    had_bom = info is not None and _starts_with_bom(folder, name)
    import secrets

    tmp = f".{name}.{secrets.token_hex(4)}.guidelint-tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(tmp, flags, 0o600, dir_fd=folder)
    try:
        if info is None:
            os.fchmod(fd, 0o666 & ~_umask())
        else:
            os.fchmod(fd, stat.S_IMODE(info.st_mode))
            _keep_owner(fd, info)
        with os.fdopen(fd, "wb") as handle:
            handle.write((BOM if had_bom else b"") + text.encode("utf-8", "surrogateescape"))
        os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=folder)
        raise


def _starts_with_bom(folder: int, name: str) -> bool:
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder)
    with os.fdopen(fd, "rb") as handle:
        return handle.read(3) == BOM


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


def replace_if_unchanged(path: Path, expected: str, text: str, root: Path | None = None) -> bool:
    """Write `text` only if the file still holds `expected` (compare and swap, under
    a lock); False when it changed meanwhile, and nothing was written. `root`
    confines the write as in write_atomic."""
    with locked(path):
        if read_text_exact(path, root) != expected:
            return False
        write_atomic(path, text, root)
        return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
