"""The warm worker: import heavy modules once, then fork one child per unit.

Run as `python -m guidelint.runner.worker RESULT_FD`. It reads JSON lines on stdin
(first the setup, then one `run` per unit) and writes JSON lines on RESULT_FD
(`ready`, then one `unit` per finished unit). It is single-threaded on purpose:
forking a process that has other threads running is unsafe. One select() loop
feeds up to `jobs` children, enforces their timeouts (killing the whole process
group) and their output limit, and turns how they ended into outcomes.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import importlib.util
import json
import os
import secrets
import select
import signal
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from guidelint.confine import DIR_FLAGS, open_dir, remove_tree
from guidelint.runner.cgroup import MemoryCgroups, join
from guidelint.runner.child import ChildContext, prepare, run_child
from guidelint.runner.keep import Keeper
from guidelint.runner.outcomes import Outcome
from guidelint.runner.protocol import (
    Backend,
    ChildRecord,
    RecordRejected,
    RunRequest,
    UnitFinished,
    UnitPayload,
    UnitStarted,
    WorkerReady,
    WorkerSetup,
    decode_commitment,
    decode_record,
    encode,
    load_backend,
)
from guidelint.runner.verdict import KEEP_STREAM_BYTES, unit_results

PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
# Per example, with everything it starts: processes and their threads together (what
# RLIMIT_NPROC counts too), held by a watchdog.
MAX_PROCESSES = 256
# The longest line the result channel may carry (a record is a few KB; a traceback or a
# message quoting output, a few MB). Before, a line without end grew the worker's memory
# for as long as the example ran, and each read rescanned all of it.
MAX_RECORD_BYTES = 16 * 1024 * 1024
DISK_CHECK_S = 1.0  # how often the scratch folder's size is summed
# What a scratch folder may hold besides its bytes: past either, the once-a-second sum
# could not see every file (it is one bounded step of the worker's loop), so the
# example is stopped, as past runner.disk-limit-mb.
DISK_CHECK_ENTRIES = 20000  # files and folders
DISK_CHECK_DEPTH = 64  # folders inside folders


@dataclass
class Child:
    unit: UnitPayload
    scratch: str  # its own folder, removed once it is gone
    pid: int
    streams: dict[int, str]  # fd -> "stdout" | "stderr" | "result"
    deadline: float
    buffers: dict[str, bytes] = field(
        default_factory=lambda: {"stdout": b"", "stderr": b"", "result": b""}
    )
    written: int = 0  # bytes of stdout + stderr, counted even beyond what is kept
    records: list[ChildRecord] = field(default_factory=list)
    # The digest of the seal its harness made after the fork (its first line): every
    # record it writes carries the seal; a line without it is not the harness's.
    commitment: str | None = None
    tampered: str | None = None  # why its result channel cannot be trusted (once it cannot)
    stopped: tuple[Outcome, str] | None = None  # (outcome, why) when the worker stopped it
    wait_status: int | None = None  # waitpid status once reaped
    example_started: float = field(default_factory=time.monotonic)
    ended_at: float | None = None
    cgroup: str | None = None  # its memory cgroup's folder, where the worker made one
    keeper: Keeper | None = None  # copies the images it saves into the report folder
    disk_checked: float = 0.0  # when its scratch folder's size was last summed


class Worker:
    def __init__(
        self,
        setup: WorkerSetup,
        result_fd: int,
        pending_input: bytes = b"",
        network_namespace: bool = False,
        cgroups: MemoryCgroups | None = None,
    ) -> None:
        from guidelint.runner.sandbox import SandboxFeatures

        self.cgroups = cgroups
        self.sandbox = SandboxFeatures.probe(network_namespace, memory_cgroup=cgroups is not None)
        self.setup = setup
        self.result_fd = result_fd
        self.jobs = max(1, int(setup.get("jobs") or 1))
        self.marker = f"\x00guidelint-boundary-{secrets.token_hex(8)}\x00"
        self.network_namespace = network_namespace
        self.context = ChildContext(
            settings=setup["settings"],
            root=setup.get("root"),
            removed_env=list(setup.get("removed_env", [])),
        )
        self.backend_tried = False  # preloading is tried once, when a unit first wants it
        self.gpu_by_torch = False  # asked torch whether there is a GPU
        self.queue: list[UnitPayload] = []
        self.children: dict[int, Child] = {}
        self.stdin_open = True
        self.stdin_buffer = pending_input
        self.forks = 0  # names each example's memory cgroup

    # -- setup ----------------------------------------------------------------

    def warm_up(self) -> WorkerReady:
        root = self.setup.get("root")
        warmed = [n for n in self.setup.get("warm_imports", []) if _warm_import(n, root)]
        if self.setup.get("preload_backend"):
            self._preload_backend()
        self.context.gpu = _gpu_available()
        self.context.sandbox = self.sandbox
        return {
            "op": "ready",
            "warm": warmed,
            "gpu": self.context.gpu,
            "backend": self.context.backend is not None,
            "backend_error": self.context.backend_error,
            "network_namespace": self.network_namespace,
            "sandbox": self.sandbox.as_json(),
        }

    def _preload_backend(self) -> None:
        self.backend_tried = True
        try:
            backend = load_backend(self.setup.get("backend_module"))
            settings = {**self.setup["settings"], "root": self.setup.get("root")}
            _preload(backend, self.setup.get("backend_names"), settings)
        except ImportError as error:
            from guidelint.extras import unavailable  # names the extra that brings it

            self.context.backend_error = unavailable("the diffusers backend", error)
            return
        except Exception as error:  # noqa: BLE001 - one line in each example's report
            self.context.backend_error = f"the diffusers backend failed to load: {error}"
            return
        self.context.backend = backend

    # -- main loop ------------------------------------------------------------

    def serve(self) -> None:
        signal.signal(signal.SIGTERM, self._terminate)
        self._send(self.warm_up())
        self._take_stdin_lines()
        while self.stdin_open or self.queue or self.children:
            self._start_children()
            self._wait_once()
            self._reap()

    def _start_children(self) -> None:
        while self.queue and len(self.children) < self.jobs:
            unit = self.queue.pop(0)
            for name in unit["warm_imports"]:
                _warm_import(name, self.setup.get("root"))
            if unit["wants_backend"] and not self.backend_tried:
                self._preload_backend()
            if "torch" in sys.modules and not self.gpu_by_torch:
                self.context.gpu = _gpu_available()  # torch arrived with this unit
                self.gpu_by_torch = True
            self._fork(unit)

    def _fork(self, unit: UnitPayload) -> None:
        prepare()

        scratch = tempfile.mkdtemp(prefix="guidelint-example-")
        keeper = _keeper(unit, scratch)
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        res_r, res_w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        # The warm imports' objects go to the permanent generation: a child's
        # garbage collector then never walks (and copies on write) those pages.
        gc.freeze()
        worker_pid = os.getpid()
        self.forks += 1
        limit = self.setup["settings"]["memory_limit_mb"] * 1024 * 1024
        group = None
        if self.cgroups:  # a few tasks over the watchdog's bound: it names the limit first
            group = self.cgroups.make(f"example-{self.forks}", limit, MAX_PROCESSES + 8)
        pid = os.fork()
        if pid == 0:  # the child
            if group and self.cgroups:  # first, so that all it starts is charged to it
                for folder in self.cgroups.folders(group):
                    join(folder)
            self._become_child(worker_pid, (out_r, err_r, res_r), out_w, err_w)
            run_child(unit, scratch, self.context, res_w, self.marker)
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass  # the child already did it (or is gone)
        for fd in (out_w, err_w, res_w):
            os.close(fd)
        first = unit["examples"][0]
        child = Child(
            unit,
            scratch,
            pid,
            {out_r: "stdout", err_r: "stderr", res_r: "result"},
            time.monotonic() + first["timeout_s"],
            cgroup=group,
            keeper=keeper,
        )
        self.children[pid] = child
        started: UnitStarted = {"op": "started", "unit_id": unit["unit_id"]}
        self._send(started)

    def _become_child(
        self, worker_pid: int, worker_ends: tuple[int, ...], out_w: int, err_w: int
    ) -> None:
        from guidelint.runner.sandbox import die_with_parent, enter_pid_namespace

        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.setpgid(0, 0)
        die_with_parent(worker_pid)
        # Nothing of the worker's or of another unit's: the read ends of every running
        # sibling's pipes would let this example read, or (reopened through
        # /proc/self/fd) write, their streams and records.
        siblings = [fd for c in self.children.values() for fd in c.streams]
        for fd in (*worker_ends, self.result_fd, *siblings):
            try:
                os.close(fd)
            except OSError:
                pass
        null = os.open(os.devnull, os.O_RDONLY)  # input() gets EOF, not our protocol
        os.dup2(null, 0)
        os.close(null)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.close(out_w)
        os.close(err_w)
        if self.sandbox.pid_namespace:
            enter_pid_namespace()  # returns in the namespace's PID 1; its parent mirrors it

    def _wait_once(self) -> None:
        fds = [fd for c in self.children.values() for fd in c.streams]
        if self.stdin_open:
            fds.append(0)
        deadlines = [c.deadline for c in self.children.values() if c.stopped is None]
        timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
        timeout = 0.2 if timeout is None or timeout > 0.2 else timeout
        if any(not c.streams and c.wait_status is None for c in self.children.values()):
            timeout = 0.001  # a child closed its pipes: it is exiting, reap it soon
        readable, _, _ = select.select(fds, [], [], timeout) if fds else ([], [], [])
        for fd in readable:
            if fd == 0:
                self._read_stdin()
            else:
                self._read_child(fd)
        self._enforce_deadlines()

    def _read_stdin(self) -> None:
        data = os.read(0, 1 << 20)
        if not data:
            self.stdin_open = False
            return
        self.stdin_buffer += data
        self._take_stdin_lines()

    def _take_stdin_lines(self) -> None:
        *lines, self.stdin_buffer = self.stdin_buffer.split(b"\n")
        for line in lines:
            if line.strip():
                request: RunRequest = json.loads(line)
                if request.get("op") == "run":
                    self.queue.append(request["unit"])

    def _read_child(self, fd: int) -> None:
        child = next(c for c in self.children.values() if fd in c.streams)
        name = child.streams[fd]
        try:
            data = os.read(fd, 1 << 16)
        except OSError:
            data = b""
        if not data:
            os.close(fd)
            del child.streams[fd]
            return
        if name == "result":
            if child.tampered:
                return  # stopped already: nothing more of it is read into memory
            child.buffers["result"] += data
            if len(child.buffers["result"]) > MAX_RECORD_BYTES:
                self._tampered(child, f"a line of more than {MAX_RECORD_BYTES >> 20} MB")
            elif b"\n" in data:  # only a full line can be a record: no rescan per read
                self._take_records(child)
            return
        child.written += len(data)
        if len(child.buffers[name]) < KEEP_STREAM_BYTES:
            child.buffers[name] += data[: KEEP_STREAM_BYTES - len(child.buffers[name])]
        else:  # keep boundary markers even past the cap, so streams still split
            child.buffers[name] += self.marker.encode() * data.count(self.marker.encode())
        limit = self.setup["settings"]["max_output_mb"] * 1024 * 1024
        if child.written > limit and child.stopped is None:
            child.stopped = (
                Outcome.CRASHED,
                f"output limit exceeded: wrote more than "
                f"{limit / 1048576:g} MB (runner.max-output-mb); the example was stopped",
            )
            _kill_group(child.pid)

    def _take_records(self, child: Child) -> None:
        *lines, child.buffers["result"] = child.buffers["result"].split(b"\n")
        for line in lines:
            if child.tampered:
                return
            try:
                if child.commitment is None:
                    child.commitment = decode_commitment(line)
                    continue
                record = decode_record(line, child.commitment, len(child.records))
            except RecordRejected as error:
                self._tampered(child, str(error))
                return
            if len(child.records) >= len(child.unit["examples"]):
                self._tampered(child, "a record beyond the unit's last example")
                return
            if child.keeper is not None:
                slug = child.unit["examples"][len(child.records)]["slug"]
                record["images"] = child.keeper.keep(slug)
            child.records.append(record)
            child.example_started = time.monotonic()
            following = len(child.records)
            if following < len(child.unit["examples"]):
                child.deadline = time.monotonic() + child.unit["examples"][following]["timeout_s"]

    def _tampered(self, child: Child, why: str) -> None:
        """Its own outcome: what it wrote is not trusted, and it runs no further."""
        child.tampered = why
        if child.stopped is None:
            child.stopped = (
                Outcome.ERROR,
                "its result channel carried something guidelint's runner did not write "
                f"({why}); the example was stopped",
            )
        _kill_group(child.pid)

    def _enforce_deadlines(self) -> None:
        now = time.monotonic()
        for child in self.children.values():
            if child.stopped is None and now >= child.deadline:
                index = len(child.records)
                running = child.unit["examples"][min(index, len(child.unit["examples"]) - 1)]
                child.stopped = (
                    Outcome.TIMEOUT,
                    f"still running after {running['timeout_s']:g}s; its process group was killed",
                )
                _kill_group(child.pid)
        self._enforce_memory()

    def _enforce_memory(self) -> None:
        """Memory and processes, checked on every turn of the loop.

        In an example's memory cgroup the kernel holds the limit, and this only reads
        whether it struck. Without one, the resident memory of the example's whole tree
        is summed here: the address-space limit set in each child stops one huge
        allocation at once, but not many processes, and CUDA cannot start under it.
        """
        limit = self.setup["settings"]["memory_limit_mb"] * 1024 * 1024
        for child in self.children.values():
            if child.stopped is not None or child.wait_status is not None:
                continue
            resident, processes = _tree_usage(child.pid, self.sandbox.pid_namespace)
            if self._stopped_by_cgroup(child):
                pass
            elif resident > limit and not child.cgroup:
                child.stopped = (
                    Outcome.CRASHED,
                    f"memory limit exceeded: more than {limit >> 20} MB resident, with "
                    "the processes it started (runner.memory-limit-mb); the example was stopped",
                )
            elif processes > MAX_PROCESSES or self._at_task_limit(child):
                child.stopped = (
                    Outcome.CRASHED,
                    f"process limit exceeded: more than {MAX_PROCESSES} processes and threads; "
                    "the example was stopped",
                )
            elif overrun := self._disk_overrun(child):
                child.stopped = (
                    Outcome.CRASHED,
                    f"disk limit exceeded: {overrun} in its scratch folder; the example was "
                    "stopped",
                )
            else:
                continue
            _kill_group(child.pid)

    def _disk_limit(self) -> int:
        return int(self.setup["settings"].get("disk_limit_mb", 1024)) * 1024 * 1024

    def _disk_overrun(self, child: Child) -> str | None:
        """How the scratch folder is past its quota, checked once a second (each file is
        also held at the limit by RLIMIT_FSIZE, set in the child); None when it is not."""
        now = time.monotonic()
        if now - child.disk_checked < DISK_CHECK_S:
            return None
        child.disk_checked = now
        return _disk_overrun(child.scratch, self._disk_limit())

    def _at_task_limit(self, child: Child) -> bool:
        """The kernel refused the example a process or thread at its pids limit."""
        return bool(self.cgroups and child.cgroup and self.cgroups.task_limit_hits(child.cgroup))

    def _stopped_by_cgroup(self, child: Child) -> bool:
        """The kernel killed a process of the example's group at its limit: the example
        is stopped with the limit's message (it may not itself be the process killed)."""
        if not (self.cgroups and child.cgroup and self.cgroups.oom_kills(child.cgroup)):
            return False
        limit_mb = self.setup["settings"]["memory_limit_mb"]
        child.stopped = child.stopped or (
            Outcome.CRASHED,
            f"memory limit exceeded: the kernel's memory cgroup stopped a process at {limit_mb} "
            "MB for the example and the processes it started (runner.memory-limit-mb); "
            "the example was stopped",
        )
        return True

    def _reap(self) -> None:
        for pid, child in list(self.children.items()):
            if child.wait_status is None:
                status = _reap_exited(pid)
                if status is not None:
                    child.wait_status, child.ended_at = status, time.monotonic()
                    self._stopped_by_cgroup(child)
            if child.wait_status is None:
                continue
            if child.streams:
                self._drain(child)
            if not child.streams:
                del self.children[pid]
                self._finish(child)

    def _drain(self, child: Child) -> None:
        """The child is gone; read what is left, without waiting on grandchildren."""
        for fd in list(child.streams):
            while fd in child.streams:
                ready, _, _ = select.select([fd], [], [], 0)
                if not ready:
                    os.close(fd)
                    del child.streams[fd]
                    break
                self._read_child(fd)

    def _finish(self, child: Child) -> None:
        if child.buffers["result"].strip():
            child.buffers["result"] += b"\n"
            self._take_records(child)
        finished: UnitFinished = {
            "op": "unit",
            "unit_id": child.unit["unit_id"],
            "results": unit_results(child, self.marker),
        }
        self._send(finished)
        remove_tree(child.scratch)
        if self.cgroups and child.cgroup:
            self.cgroups.remove(child.cgroup)

    def _terminate(self, signum: int, frame: object) -> None:
        """SIGTERM (the client stops, or dies): end every example, remove its folder."""
        for pid in self.children:
            _kill_group(pid)
        for pid, child in self.children.items():
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
            remove_tree(child.scratch)
        if self.cgroups:
            self.cgroups.close()
        os._exit(128 + signum)

    def _send(self, message: Mapping[str, Any]) -> None:
        view = memoryview(encode(message))
        while view:
            written = os.write(self.result_fd, view)
            view = view[written:]


def _keeper(unit: UnitPayload, scratch: str) -> Keeper | None:
    """The unit's report folder, made below the checked report folder without following
    a symlink (none if it cannot be: its images are then not kept)."""
    parent, name = os.path.split(unit["report_dir"])
    try:
        os.close(open_dir(parent, name, "report folder"))
    except (OSError, ValueError):
        return None
    return Keeper(scratch, unit["report_dir"], per_example=bool(unit["session"]))


def _preload(backend: Backend, names: list[str] | None, settings: dict[str, Any]) -> None:
    """The backend's preload, told the names the examples use and the runner's
    settings when it takes them (a third party's backend may take neither)."""
    import inspect

    parameters = inspect.signature(backend.preload).parameters
    kwargs: dict[str, Any] = {"settings": settings} if "settings" in parameters else {}
    if names is not None and "names" in parameters:
        kwargs["names"] = names
    backend.preload(**kwargs)


def _warm_import(name: str, root: str | None) -> bool:
    """Import a heavy module once, here, so that forked children inherit it; never
    one the project holds (below)."""
    if name in sys.modules:
        return True
    if root and _from_project(name, root):
        return False
    try:
        importlib.import_module(name)
    except Exception:  # noqa: BLE001 - the example will report the real error
        return False
    return True


def _from_project(name: str, root: str) -> bool:
    """Whether `name` would be loaded from the project's own files (a module beside the
    guides on PYTHONPATH, an editable install), not from the interpreter's packages.

    The warm worker has no wall: a pull request that adds its own module to
    `runner.warm-imports` would run it here, outside every sandbox. Such a module is
    imported by each example that imports it, inside its sandbox. Only the top-level
    package is looked up (`find_spec` of it runs none of its code)."""
    try:
        spec = importlib.util.find_spec(name.partition(".")[0])
    except (ImportError, ValueError):
        return True  # not importable as asked: the example reports the real error
    if spec is None:
        return True
    places = [spec.origin or "", *(spec.submodule_search_locations or [])]
    installed = [os.path.realpath(p) for p in {sys.prefix, sys.base_prefix, sys.exec_prefix}]
    project = os.path.realpath(root)
    for place in places:
        if not os.path.isabs(place):
            continue  # "built-in", "frozen"
        real = os.path.realpath(place)
        if _below(real, project) and not any(_below(real, p) for p in installed):
            return True
    return False


def _below(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _reap_exited(pid: int) -> int | None:
    """The wait status of an exited child, after killing what it left in its group.

    The group is killed while the child is still a zombie, so its id cannot have
    been reused by an unrelated process yet.
    """
    try:
        exited = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return 0
    if exited is None:
        return None
    _kill_group(pid)
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return 0


def _resident(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[1]) * PAGE_SIZE
    except (OSError, ValueError, IndexError):
        return 0


def _tree_usage(pid: int, mirrored: bool) -> tuple[int, int]:
    """(memory, tasks) of a child and every descendant: forks share one budget, and
    every thread counts as a task (3,000 threads are not one process).

    The example's process counts its resident memory; a process it started counts
    only its private pages (what it still shares after fork is already counted).
    With a PID namespace (`mirrored`) the example's process is the child's child.
    """
    todo, tasks, total = [(pid, 0)], 0, 0
    example_depth = 1 if mirrored else 0
    while todo and tasks <= MAX_PROCESSES:
        current, depth = todo.pop()
        total += _resident(current) if depth <= example_depth else _private(current)
        children, threads = _children_of(current)
        tasks += max(1, threads)
        todo.extend((c, depth + 1) for c in children)
    return total, tasks + len(todo)


def _private(pid: int) -> int:
    """Private_Clean + Private_Dirty of a process, in bytes (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return 0
    kilobytes = 0
    for line in lines:
        if line.startswith(("Private_Clean:", "Private_Dirty:")):
            kilobytes += int(line.split()[1])
    return kilobytes * 1024


def _children_of(pid: int) -> tuple[list[int], int]:
    """(the child processes of `pid`, how many threads it has)."""
    found: list[int] = []
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found, 0
    for tid in threads:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as handle:
                found.extend(int(n) for n in handle.read().split())
        except (OSError, ValueError):
            continue
    return found, len(threads)


def _disk_overrun(folder: str, limit: int) -> str | None:
    """How the files under `folder` are past the quota, or None: more than `limit`
    bytes on disk, or a tree the check cannot sum in one bounded step (more than
    DISK_CHECK_ENTRIES files and folders, folders nested past DISK_CHECK_DEPTH), which
    hid files from it: a path 2,000 folders deep is too long to name, and entries past
    the count were never looked at. Walked by descriptors, one per level held, no link
    followed."""
    try:
        top = os.open(folder, DIR_FLAGS)
    except OSError:
        return None
    total, seen = 0, 0
    frames: list[tuple[int, list[str]]] = []  # (a folder being walked, its folders left)

    def enter(fd: int) -> None:
        nonlocal total, seen
        size, count, folders = _sized_entries(fd)
        total, seen = total + size, seen + count
        frames.append((fd, folders))

    enter(top)
    try:
        while frames:
            if total > limit:
                return f"more than {limit >> 20} MB (runner.disk-limit-mb)"
            if seen > DISK_CHECK_ENTRIES:
                return f"more than {DISK_CHECK_ENTRIES} files and folders"
            fd, folders = frames[-1]
            if not folders:
                os.close(frames.pop()[0])
                continue
            if len(frames) > DISK_CHECK_DEPTH:
                return f"folders nested more than {DISK_CHECK_DEPTH} deep"
            with contextlib.suppress(OSError):
                enter(os.open(folders.pop(), DIR_FLAGS, dir_fd=fd))
    finally:
        for fd, _ in frames:
            os.close(fd)
    return None


def _sized_entries(dir_fd: int) -> tuple[int, int, list[str]]:
    """(bytes on disk, entries, names of folders) directly in the folder `dir_fd`."""
    size, count, folders = 0, 0, []
    try:
        with os.scandir(dir_fd) as entries:
            for entry in entries:
                count += 1
                try:
                    size += entry.stat(follow_symlinks=False).st_blocks * 512
                    if entry.is_dir(follow_symlinks=False):
                        folders.append(entry.name)
                except OSError:
                    continue
    except OSError:
        pass
    return size, count, folders


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _gpu_available() -> bool:
    """torch's answer when torch is loaded (without initialising CUDA: see client.py's
    PYTORCH_NVML_BASED_CUDA_CHECK), else whether an NVIDIA device node exists."""
    torch = sys.modules.get("torch")
    if torch is None:
        return os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl")
    try:
        return bool(torch.cuda.is_available())
    except Exception:  # noqa: BLE001 - no GPU is the safe answer
        return False


def main() -> None:
    from guidelint.runner.sandbox import isolate_network

    # Before the user namespace: the memory cgroup is made with the worker's own
    # credentials, as the cgroup filesystem knows them.
    cgroups = MemoryCgroups.create()
    # First, while single-threaded: every child forked later inherits the empty
    # network namespace, so none pays for creating (and tearing down) its own.
    network_isolated = isolate_network()
    # The client stopping without a word (killed) stops us, and so our examples.
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    try:
        result_fd = int(sys.argv[1])
        # Our stdout belongs to nobody: children write into pipes, results go to RESULT_FD.
        os.dup2(2, 1)
        data = b""
        while b"\n" not in data:  # unbuffered: the rest of stdin is read by select()
            chunk = os.read(0, 1 << 16)
            if not chunk:
                return
            data += chunk
        setup_line, rest = data.split(b"\n", 1)
        setup: WorkerSetup = json.loads(setup_line)
        if cgroups and not setup["settings"].get("memory_cgroup", True):
            cgroups.close()  # runner.memory-cgroup = false: the watchdog is the limit
            cgroups = None
        Worker(setup, result_fd, rest, network_isolated, cgroups).serve()
    finally:
        if cgroups:
            cgroups.close()


if __name__ == "__main__":
    main()
