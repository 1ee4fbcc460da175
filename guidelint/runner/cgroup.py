"""A memory cgroup per example, where this machine lets the warm worker make one.

The kernel then charges every process an example starts to the example's group
and stops the group at `runner.memory-limit-mb`, with no gap between two checks
(the worker's watchdog sums resident memory every fifth of a second and stays as
the limit where no group can be made). With a GPU the group is the limit that
holds at once: CUDA cannot start under the address-space limit.

Two layouts are handled:
- cgroup v1: the worker's own group in the `memory` hierarchy (from
  `/proc/self/cgroup`), where it may create subgroups (root, or a delegated group);
- cgroup v2: the worker's own group, when it already hands `memory` to its
  subgroups (`cgroup.subtree_control`): the root of a container's namespace.
Everything else (no hierarchy, read-only cgroupfs, v2 with `memory` kept) gives no
group, and the report says so.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

PREFIX = "guidelint-"  # the worker's group: guidelint-<pid>, one subgroup per example


@dataclass(frozen=True)
class MemoryCgroups:
    root: str  # the worker's group, holding one subgroup per running example
    v2: bool
    # Where the kernel also counts each example's tasks (processes and threads) and
    # refuses past `pids.max`: cgroup v1's own `pids` hierarchy (the worker's group
    # there), or the same v2 group when it hands out `pids` too. None: no such bound.
    pids_root: str | None = None
    # Where each example gets an equal share of the CPU, whatever it starts: cgroup v1's
    # `cpu` hierarchy, or the v2 group when it hands out `cpu`. Without it an example
    # of 200 busy processes left its sibling 1/200 of the CPU, and its timeout.
    cpu_root: str | None = None

    @classmethod
    def create(cls) -> MemoryCgroups | None:
        """The worker's group under its own memory cgroup; None where none can be made."""
        found = _own_memory_cgroup()
        if found is None:
            return None
        base, v2 = found
        _remove_stale(base)
        root = os.path.join(base, f"{PREFIX}{os.getpid()}")
        try:
            os.mkdir(root)
            if v2:  # this group's children get the controller too
                _write(os.path.join(root, "cgroup.subtree_control"), "+memory")
        except OSError:
            _rmdir(root)
            return None
        return cls(
            root,
            v2,
            _controller_root("pids", base, root, v2),
            _controller_root("cpu", base, root, v2),
        )

    def make(self, name: str, limit_bytes: int, max_tasks: int | None = None) -> str | None:
        """A subgroup limited to `limit_bytes` of memory (and no swap), and to
        `max_tasks` processes and threads where pids are counted; None on failure."""
        path = os.path.join(self.root, name)
        try:
            os.mkdir(path)
            for file, value in self._limits(limit_bytes):
                if os.path.exists(os.path.join(path, file)):
                    _write(os.path.join(path, file), value)
            if max_tasks is not None and self.pids_root is not None:
                tasks = self._pids_path(path)
                if tasks != path:
                    os.mkdir(tasks)
                if os.path.exists(os.path.join(tasks, "pids.max")):
                    _write(os.path.join(tasks, "pids.max"), str(max_tasks))
            share = self._cpu_path(path)
            if share != path:
                os.mkdir(share)  # an equal share (the default weight) among the examples
        except OSError:
            self.remove(path)
            return None
        return path

    def _pids_path(self, path: str) -> str:
        """The example's group that counts tasks: its own (v2), or its namesake in the
        pids hierarchy (v1)."""
        if self.pids_root is None or self.v2:
            return path
        return os.path.join(self.pids_root, os.path.basename(path))

    def _cpu_path(self, path: str) -> str:
        """The example's group sharing the CPU: its own (v2), or its namesake in the cpu
        hierarchy (v1)."""
        if self.cpu_root is None or self.v2:
            return path
        return os.path.join(self.cpu_root, os.path.basename(path))

    def folders(self, path: str) -> list[str]:
        """Every group folder a process of the example joins."""
        found = [path]
        for folder in (self._pids_path(path), self._cpu_path(path)):
            if folder not in found:
                found.append(folder)
        return found

    def task_limit_hits(self, path: str) -> int:
        """How many forks or new threads the kernel refused at `pids.max`."""
        try:
            with open(os.path.join(self._pids_path(path), "pids.events")) as handle:
                for line in handle:
                    key, _, value = line.partition(" ")
                    if key == "max":
                        return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def _limits(self, limit_bytes: int) -> tuple[tuple[str, str], ...]:
        if self.v2:
            return (("memory.max", str(limit_bytes)), ("memory.swap.max", "0"))
        # v1: memory+swap may not be set below memory, so memory first
        return (
            ("memory.limit_in_bytes", str(limit_bytes)),
            ("memory.memsw.limit_in_bytes", str(limit_bytes)),
        )

    def oom_kills(self, path: str) -> int:
        """How many processes of the subgroup the kernel killed for its limit."""
        name = "memory.events" if self.v2 else "memory.oom_control"
        try:
            with open(os.path.join(path, name)) as handle:
                for line in handle:
                    key, _, value = line.partition(" ")
                    if key == "oom_kill":
                        return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def remove(self, path: str) -> None:
        """Remove an emptied subgroup (its last processes may take a moment to go)."""
        for folder in reversed(self.folders(path)):
            for _ in range(20):
                if _rmdir(folder):
                    break
                time.sleep(0.01)

    def close(self) -> None:
        for name in _subgroups(self.root):
            self.remove(os.path.join(self.root, name))
        _rmdir(self.root)
        for other in (self.pids_root, self.cpu_root):
            if other is not None and not self.v2:
                for name in _subgroups(other):
                    _rmdir(os.path.join(other, name))
                _rmdir(other)


def _controller_root(controller: str, memory_base: str, root: str, v2: bool) -> str | None:
    """The worker's group for `controller` (`pids`: MemoryCgroups.pids_root, `cpu`:
    cpu_root), made now; None where this machine does not hand it out."""
    if v2:
        try:
            with open(os.path.join(memory_base, "cgroup.subtree_control")) as handle:
                if controller not in handle.read().split():
                    return None
            _write(os.path.join(root, "cgroup.subtree_control"), f"+{controller}")
        except OSError:
            return None
        return root
    found = _own_v1_cgroup(controller)
    if found is None:
        return None
    _remove_stale(found)
    group = os.path.join(found, os.path.basename(root))
    try:
        os.mkdir(group)
    except OSError:
        return None
    return group


def _memberships_and_mounts() -> tuple[list[list[str]], list[list[str]]] | None:
    """This process's cgroup memberships (`hierarchy:controllers:path`) and the mounts."""
    try:
        with open("/proc/self/cgroup") as handle:
            memberships = [line.rstrip("\n").split(":", 2) for line in handle]
        with open("/proc/self/mountinfo") as handle:
            mounts = [line.split() for line in handle]
    except OSError:
        return None
    return [m for m in memberships if len(m) == 3], mounts


def _own_v1_cgroup(controller: str) -> str | None:
    """The folder of this process's group in cgroup v1's `controller` hierarchy."""
    read = _memberships_and_mounts()
    return _v1_folder(*read, controller) if read else None


def _v1_folder(
    memberships: list[list[str]], mounts: list[list[str]], controller: str
) -> str | None:
    for _hierarchy, controllers, path in memberships:
        if controller in controllers.split(","):
            mount = _mount_point(mounts, "cgroup", controller)
            if mount:
                return os.path.join(mount, path.lstrip("/"))
    return None


def join(path: str) -> bool:
    """Move the calling process (and so all it starts later) into the group at `path`."""
    try:
        _write(os.path.join(path, "cgroup.procs"), "0")
    except OSError:
        return False
    return True


def _own_memory_cgroup() -> tuple[str, bool] | None:
    """(the folder of this process's memory cgroup, whether it is cgroup v2)."""
    read = _memberships_and_mounts()
    if read is None:
        return None
    memberships, mounts = read
    v1 = _v1_folder(memberships, mounts, "memory")
    if v1:
        return v1, False
    v2_path = next((p for h, c, p in memberships if h == "0"), None)
    mount = _mount_point(mounts, "cgroup2", None)
    if v2_path is None or not mount:
        return None
    base = os.path.join(mount, v2_path.lstrip("/"))
    try:
        with open(os.path.join(base, "cgroup.subtree_control")) as handle:
            hands_out_memory = "memory" in handle.read().split()
    except OSError:
        return None
    return (base, True) if hands_out_memory else None


def _mount_point(mounts: list[list[str]], fstype: str, option: str | None) -> str | None:
    """Where a cgroup filesystem of `fstype` is mounted (with `option`, for v1)."""
    for fields in mounts:
        if "-" not in fields:
            continue
        after = fields[fields.index("-") + 1 :]  # fstype, source, super options
        if len(after) < 3 or after[0] != fstype:
            continue
        if option is None or option in after[2].split(","):
            return fields[4].replace("\\040", " ")
    return None


def _remove_stale(base: str) -> None:
    """Groups left by workers that were killed outright (their pid is gone)."""
    for name in _subgroups(base):
        pid = name[len(PREFIX) :]
        if name.startswith(PREFIX) and pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            stale = os.path.join(base, name)
            for sub in _subgroups(stale):
                _rmdir(os.path.join(stale, sub))
            _rmdir(stale)


def _subgroups(path: str) -> list[str]:
    try:
        return [e.name for e in os.scandir(path) if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []


def _write(path: str, text: str) -> None:
    with open(path, "w") as handle:
        handle.write(text)


def _rmdir(path: str) -> bool:
    try:
        os.rmdir(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True
