"""Paths that cannot lead out of the project: the one confinement every entry point uses.

An attacker may commit symlinks (`.guidelint_cache -> $HOME`) and choose names
(`id=..`) in a pull request that CI checks or runs. Three answers cover it:

- `safe_name(text)`: a name, never a path (no `/`, no `.` or `..`, no NUL);
- `resolve_inside(root, path)`: the path with every symlink resolved, or `Outside`
  (a one-line error) when it does not lie inside the project root;
- `named_inside(root, path)`: whether a path the user names (`-o`, a baseline) lies in
  the project by its name alone, so that it is confined there (`fsio.write_named`);
- `open_dir(root, path)`: a folder guidelint writes into, opened (created when
  missing) one component at a time relative to a directory descriptor with
  `O_NOFOLLOW`, so no symlink anywhere below the root is ever followed. A folder
  outside the root is accepted only when guidelint owns it: it did not exist (it is
  created now), it is empty, or it holds the `OWNED_MARK` file of an earlier run.

Files are then written with `write_at(dir_fd, name, data)`: `O_NOFOLLOW | O_CREAT`
relative to that descriptor, through a temporary name and a rename inside the folder.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

OWNED_MARK = ".guidelint-owned"  # in a folder outside the project that guidelint made
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
NAME_CHARS = re.compile(r"[^\w.-]+")


class Outside(ValueError):
    """A path guidelint will not use; the message is one line naming it and why."""


def safe_name(text: str, default: str = "example") -> str:
    """`text` as one folder or file name: `a/../b` -> `a_.._b`, `..` -> `default`."""
    name = NAME_CHARS.sub("_", text).strip("_.")[:120]
    return name if name not in ("", ".", "..") else default


def real(path: str | Path) -> str:
    return os.path.realpath(os.path.abspath(os.fspath(path)))


def is_inside(root: str | Path, path: str | Path) -> bool:
    """Whether `path`, every symlink resolved, lies inside `root` (or is it)."""
    base, target = real(root), real(path)
    return target == base or target.startswith(base.rstrip(os.sep) + os.sep)


def named_inside(root: str | Path, path: str | Path) -> bool:
    """Whether `path` (relative to the real working folder unless absolute) names a
    place in the project by its name alone, no symlink resolved: a file the user names
    there is confined (a committed link out is refused, never followed); one named
    outside the project is where the user said (`-o /tmp/report.txt`)."""
    base = real(root)
    full = os.path.normpath(os.path.join(os.path.realpath(os.getcwd()), os.fspath(path)))
    return full == base or full.startswith(base.rstrip(os.sep) + os.sep)


def resolve_inside(root: str | Path, path: str | Path, what: str = "path") -> Path:
    """`path` (relative to `root` unless absolute), symlinks resolved; Outside if it
    leads out of the project."""
    _no_nul(path)
    full = Path(root) / os.path.expanduser(os.fspath(path))
    if not is_inside(root, full):
        raise Outside(f"{path}: {what} leads outside the project ({real(root)})")
    return Path(real(full))


def open_inside(root: str | Path, path: str | Path, what: str = "file") -> int:
    """A read-only descriptor of the file `path`, which must lie inside `root` once
    every symlink is resolved; Outside (nothing read) when it does not. Asked of
    the file opened, not of its name, so a link swapped in between cannot lead out."""
    _no_nul(path)
    full = Path(root) / os.fspath(path)
    if not is_inside(root, full):
        raise Outside(f"{path}: {what} leads outside the project ({real(root)}); not read")
    fd = os.open(full, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    opened = f"/proc/self/fd/{fd}"
    if os.path.islink(opened) and not is_inside(root, os.readlink(opened)):
        os.close(fd)
        raise Outside(f"{path}: {what} leads outside the project ({real(root)}); not read")
    return fd


def _no_nul(path: str | Path) -> None:
    """Outside for a name no file has (an MCP caller's `file`; os.stat would raise a
    bare ValueError)."""
    if "\0" in os.fspath(path):
        raise Outside(f"{os.fspath(path)!r}: not a path (a NUL character)")


def _below_root(root: str, full: str) -> list[str] | None:
    """The components of `full` under `root` (lexically, both absolute), or None."""
    for base in dict.fromkeys((os.path.abspath(root), real(root))):
        relative = os.path.relpath(full, base)
        if relative == ".":
            return []
        if not relative.startswith(".." + os.sep) and relative != "..":
            return relative.split(os.sep)
    return None


def open_dir(root: str | Path, path: str | Path, what: str = "folder") -> int:
    """A descriptor of the folder `path` (relative to `root` unless absolute), created
    when missing; no component below `root` may be a symlink. Outside the root, the
    folder must be guidelint's own (see the module's docstring). Outside or OSError."""
    full = os.path.normpath(os.path.join(os.path.abspath(root), os.path.expanduser(path)))
    parts = _below_root(os.fspath(root), full)
    if parts is None:
        return _owned_outside(full, what)
    fd = os.open(real(root), DIR_FLAGS)
    for part in parts:
        fd = _step(fd, part, f"{path}: {what}")  # closes the folder above, even on failure
    return fd


def _step(parent: int, name: str, label: str) -> int:
    """Open (making it first if missing) the folder `name` in `parent`; closes `parent`."""
    try:
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o755, dir_fd=parent)
        try:
            return os.open(name, DIR_FLAGS, dir_fd=parent)
        except OSError as error:
            if _is_symlink(parent, name):
                raise Outside(
                    f"{label}: {name} is a symlink; guidelint does not write through it"
                ) from None
            raise OSError(error.errno, f"{label}: cannot open {name}: {error.strerror}") from None
    finally:
        os.close(parent)


def _is_symlink(parent: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
    except OSError:
        return False


def user_cache() -> str:
    """guidelint's folder in the user's cache (`~/.cache/guidelint`): guidelint's own."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "guidelint")


def _owned_outside(full: str, what: str) -> int:
    """A folder outside the project: created now, empty, marked by an earlier run, or
    in guidelint's user cache folder."""
    existed = os.path.lexists(full) and not is_inside(user_cache(), full)
    if not existed:
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.mkdir(full, 0o755)
    try:
        fd = os.open(full, DIR_FLAGS)
    except OSError as error:
        if os.path.islink(full):
            raise Outside(
                f"{full}: {what} is a symlink; guidelint does not write through it"
            ) from None
        raise OSError(error.errno, f"{full}: cannot open the {what}: {error.strerror}") from None
    names = os.listdir(fd)
    if existed and names and OWNED_MARK not in names:
        os.close(fd)
        raise Outside(
            f"{full}: {what} lies outside the project and is not guidelint's "
            f"(not empty, no {OWNED_MARK} file in it)"
        )
    if OWNED_MARK not in names:
        write_at(fd, OWNED_MARK, b"made by guidelint; it may write in this folder\n")
    return fd


def open_subdir(parent: int, name: str) -> int:
    """The folder `name` (a safe name) inside the folder `parent`, made if missing."""
    return _step(os.dup(parent), safe_name(name), "a folder guidelint writes")


def write_at(dir_fd: int, name: str, data: bytes) -> None:
    """Write the file `name` in the folder `dir_fd`, never through a symlink: a
    temporary file (O_EXCL | O_NOFOLLOW) renamed over `name` inside the folder."""
    import secrets  # here: it imports hashlib, which a check that only reads never needs

    temporary = f".{name}.{secrets.token_hex(4)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(temporary, flags, 0o644, dir_fd=dir_fd)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=dir_fd)
        raise


def copy_into(source: int, dir_fd: int, name: str, limit: int) -> bool:
    """Copy the open regular file `source` into the folder `dir_fd` as `name`, at most
    `limit` bytes; False (nothing written) for anything else or anything bigger."""
    info = os.fstat(source)
    if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
        return False
    chunks, total = [], 0
    while total <= limit:
        chunk = os.read(source, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if total > limit:
        return False
    write_at(dir_fd, name, b"".join(chunks))
    return True


# How deep below a scratch folder a walk goes: an image 32 folders down is not one an
# example meant to show, and each level holds a descriptor while it is walked.
MAX_WALK_DEPTH = 32


def files_below(
    dir_fd: int, limit: int = 10000, skip_top: tuple[str, ...] = ()
) -> Iterator[tuple[str, int]]:
    """(relative path, open descriptor) of each regular file under the folder `dir_fd`
    (not under its folders named in `skip_top`, nor deeper than MAX_WALK_DEPTH),
    walked with descriptors and O_NOFOLLOW: a symlink (file or folder) is skipped, so
    a folder swapped for a link meanwhile leads nowhere. Each descriptor is closed once
    the caller moves on. Iterative: `os.fwalk` recurses once per level, and an example
    can nest 3,000 folders in a second (a RecursionError in the warm worker)."""
    seen = 0
    # (the folder's relative path, its descriptor, its subfolders still to walk)
    stack: list[tuple[str, int, list[str] | None]] = [(".", os.dup(dir_fd), None)]
    try:
        while stack:
            folder, fd, pending = stack[-1]
            if pending is None:
                files, dirs = _entries(fd)
                if folder == ".":
                    dirs = [d for d in dirs if d not in skip_top]
                stack[-1] = (folder, fd, sorted(dirs, reverse=True))
                for name in sorted(files):
                    seen += 1
                    if seen > limit:
                        return
                    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
                    try:
                        file_fd = os.open(name, flags, dir_fd=fd)
                    except OSError:
                        continue
                    try:
                        yield os.path.normpath(os.path.join(folder, name)), file_fd
                    finally:
                        os.close(file_fd)
                continue
            if not pending or len(stack) > MAX_WALK_DEPTH:
                os.close(stack.pop()[1])
                continue
            name = pending.pop()
            with contextlib.suppress(OSError):
                stack.append(
                    (os.path.join(folder, name), os.open(name, DIR_FLAGS, dir_fd=fd), None)
                )
    finally:
        for _, fd, _ in stack:
            os.close(fd)


def _entries(dir_fd: int) -> tuple[list[str], list[str]]:
    """(names that are not folders, names of folders) in the folder `dir_fd`."""
    files: list[str] = []
    dirs: list[str] = []
    try:
        with os.scandir(dir_fd) as entries:
            for entry in entries:
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    continue
                (dirs if is_dir else files).append(entry.name)
    except OSError:
        pass
    return files, dirs


def remove_tree(path: str | Path) -> None:
    """Remove the folder `path` and everything below it, however deep, following no
    symlink; what cannot be removed is left. shutil.rmtree recurses once per level
    (an example's 3,000 nested folders raised RecursionError in the warm worker and in
    `guidelint run`), and a path that deep is too long to name: this descends by
    descriptors, holding one at a time, and climbs back by `..`, checking that it is
    the folder it came from."""
    try:
        fd = os.open(path, DIR_FLAGS)
    except OSError:
        return
    above: list[tuple[str, int, int]] = []  # (name in its parent, parent's device, inode)
    try:
        while True:
            files, dirs = _entries(fd)
            for name in files:
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=fd)
            if dirs:
                child = os.open(dirs[0], DIR_FLAGS, dir_fd=fd)
                info = os.fstat(fd)
                above.append((dirs[0], info.st_dev, info.st_ino))
                os.close(fd)
                fd = child
                continue
            if not above:
                break
            name, device, inode = above.pop()
            parent = os.open("..", DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = parent
            info = os.fstat(fd)
            if (info.st_dev, info.st_ino) != (device, inode):
                return  # moved meanwhile: not ours to climb
            os.rmdir(name, dir_fd=fd)
    except OSError:
        return
    finally:
        os.close(fd)
    with contextlib.suppress(OSError):
        os.rmdir(path)
