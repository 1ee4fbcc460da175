"""The walls around one forked example process (Linux; best effort elsewhere).

Enforced by the kernel (docs/RUNNING.md has the threat model), where it allows:
- files: Landlock (`confine_writes`): the filesystem changes only under the
  scratch, report and tiny-cache folders and a few device files; TCP and (ABI 6)
  signals and abstract sockets outside the example's domain are refused;
- host sockets: a seccomp filter refuses socket(AF_UNIX) (`refuse_unix_sockets`);
- processes: a PID namespace per child (`enter_pid_namespace`): when the example
  ends, every process it started dies; RLIMIT_NPROC in the worker's user namespace;
- network: the warm worker moves into a fresh, empty network namespace;
- memory: RLIMIT_AS, set to what the process already maps plus the budget.
`SandboxFeatures.probe` asks the kernel once which of these this machine has.

The audit hook (`install_guard`) is a friendlier first layer: it names the rule a
Python-level write or connection broke, before the kernel's plain EACCES.
"""

from __future__ import annotations

import ctypes
import os
import sys
from dataclasses import dataclass
from typing import Any

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
ALWAYS_WRITABLE = ("/dev/null", "/dev/tty", "/dev/shm")
# Audit events that change a path: (index of the path, index of its dir_fd or None).
PATH_EVENTS: dict[str, tuple[tuple[int, int | None], ...]] = {
    "os.remove": ((0, 1),),
    "os.rmdir": ((0, 1),),
    "os.mkdir": ((0, 2),),
    "os.rename": ((0, 2), (1, 3)),
    "os.symlink": ((1, 2),),
    "os.link": ((0, 2), (1, 3)),
    "os.truncate": ((0, None),),
    "os.chmod": ((0, 2),),
    "os.utime": ((0, 3),),
    "shutil.rmtree": ((0, 1),),
}
NETWORK_EVENTS = {"socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg"}


class SandboxViolation(PermissionError):
    """An example tried to leave its sandbox."""


def limit_memory(megabytes: int) -> None:
    import resource

    try:
        with open("/proc/self/statm") as handle:
            mapped = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        mapped = 0
    limit = mapped + megabytes * 1024 * 1024
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):
        pass


def isolate_network() -> bool:
    """Move into an empty network namespace; False where the kernel says no."""
    if not sys.platform.startswith("linux"):
        return False
    uid, gid = os.getuid(), os.getgid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0:
            return False
        for name, text in (
            ("setgroups", "deny"),
            ("uid_map", f"{uid} {uid} 1"),
            ("gid_map", f"{gid} {gid} 1"),
        ):
            with open(f"/proc/self/{name}", "w") as handle:
                handle.write(text)
    except (OSError, AttributeError):
        return False
    return True


def install_guard(writable: list[str]) -> None:
    """Refuse writes outside `writable` and any network connection, from now on."""
    roots = tuple(os.path.realpath(p) for p in writable if p)

    def allowed(path, dir_fd=None) -> bool:
        if isinstance(path, int):
            return True  # an already-open descriptor
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        path = str(path)
        if isinstance(dir_fd, int) and dir_fd >= 0 and not os.path.isabs(path):
            try:  # relative to that folder, not to the working directory
                path = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), path)
            except OSError:
                return False
        real = os.path.realpath(os.path.abspath(path))
        return any(real == r or real.startswith(r.rstrip("/") + "/") for r in roots) or any(
            real.startswith(p) for p in ALWAYS_WRITABLE
        )

    def hook(event: str, args: tuple) -> None:
        if event == "open":
            path, mode, flags = (tuple(args) + (None, None, None))[:3]
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & WRITE_FLAGS
            )
            if writing and path is not None and not allowed(path):
                raise SandboxViolation(
                    f"guidelint run: writing outside the example's scratch folder is not "
                    f"allowed: {path}"
                )
        elif event in PATH_EVENTS:
            for index, fd_index in PATH_EVENTS[event]:
                dir_fd = args[fd_index] if fd_index is not None and fd_index < len(args) else None
                if (
                    index < len(args)
                    and args[index] is not None
                    and not allowed(args[index], dir_fd)
                ):
                    raise SandboxViolation(
                        f"guidelint run: {event} outside the example's scratch folder is not "
                        f"allowed: {args[index]}"
                    )
        elif event in NETWORK_EVENTS:
            address = args[1] if len(args) > 1 else ""
            if isinstance(address, tuple):  # AF_INET/AF_INET6; AF_UNIX uses a path str
                raise SandboxViolation(
                    f"guidelint run: network access is disabled for examples "
                    f"(tried to reach {address[0]}:{address[1]})"
                )

    sys.addaudithook(hook)


# -- kernel walls (Linux) ------------------------------------------------------

CLONE_NEWPID = 0x20000000
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SYS_LANDLOCK = {"create_ruleset": 444, "add_rule": 445, "restrict_self": 446}
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
# Every right that changes the filesystem (reads and execution stay allowed).
_FS_WRITE_RIGHTS_BY_ABI = {
    1: 0b1_1111_1111_0010,  # WRITE_FILE, REMOVE_DIR/FILE, MAKE_CHAR/DIR/REG/SOCK/FIFO/BLOCK/SYM
    2: 1 << 13,  # REFER: link or rename across folders (a hard link to an outside file)
    3: 1 << 14,  # TRUNCATE
}
FILE_RIGHTS = (1 << 1) | (1 << 14)  # WRITE_FILE | TRUNCATE: what a rule on a file may grant
NET_TCP_RIGHTS = 0b11  # BIND_TCP | CONNECT_TCP (ABI 4): handled with no rule, so refused
SCOPES = 0b11  # ABSTRACT_UNIX_SOCKET | SIGNAL (ABI 6): nothing outside the example's domain
WRITABLE_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/tty")
GPU_DEVICE_PREFIXES = ("nvidia", "dri")
# seccomp: refuse socket(AF_UNIX, ...) so no pathname socket of a host service is reachable.
AF_UNIX = 1
AUDIT_ARCH = {"x86_64": (0xC000003E, 41), "aarch64": (0xC00000B7, 198)}


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 where there is none."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        libc = _libc()
        libc.syscall.restype = ctypes.c_long
        version = libc.syscall(
            ctypes.c_long(SYS_LANDLOCK["create_ruleset"]),
            None,
            ctypes.c_size_t(0),
            ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION),
        )
    except (OSError, AttributeError):
        return 0
    return max(0, int(version))


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def confine_writes(writable: list[str], devices: list[str]) -> int:
    """Landlock this process and all it starts: the filesystem may change only under
    `writable` folders and `devices` files; TCP bind/connect and (ABI 6) signals to
    and abstract sockets of processes outside are refused. The ABI used, 0 if none."""
    abi = landlock_abi()
    if abi < 1:
        return 0
    fs_rights = sum(bits for level, bits in _FS_WRITE_RIGHTS_BY_ABI.items() if level <= abi)
    attr = _RulesetAttr(fs_rights, NET_TCP_RIGHTS if abi >= 4 else 0, SCOPES if abi >= 6 else 0)
    size = ctypes.sizeof(_RulesetAttr) if abi >= 6 else (16 if abi >= 4 else 8)
    libc = _libc()
    libc.syscall.restype = ctypes.c_long
    ruleset = libc.syscall(
        ctypes.c_long(SYS_LANDLOCK["create_ruleset"]),
        ctypes.byref(attr),
        ctypes.c_size_t(size),
        ctypes.c_uint32(0),
    )
    if ruleset < 0:
        return 0
    try:
        for path, rights in [(p, fs_rights) for p in writable] + [
            (d, FILE_RIGHTS) for d in devices
        ]:
            _add_path_rule(libc, int(ruleset), path, rights)
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return 0
        restricted = libc.syscall(
            ctypes.c_long(SYS_LANDLOCK["restrict_self"]), ctypes.c_int(ruleset), ctypes.c_uint32(0)
        )
    finally:
        os.close(int(ruleset))
    return abi if restricted == 0 else 0


def _add_path_rule(libc: ctypes.CDLL, ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # nothing there: nothing to allow
    try:
        rule = _PathBeneath(rights, fd)
        libc.syscall(
            ctypes.c_long(SYS_LANDLOCK["add_rule"]),
            ctypes.c_int(ruleset),
            ctypes.c_int(LANDLOCK_RULE_PATH_BENEATH),
            ctypes.byref(rule),
            ctypes.c_uint32(0),
        )
    finally:
        os.close(fd)


def writable_devices(gpu: bool) -> list[str]:
    """The device files an example may open for writing (a GPU's, when there is one)."""
    devices = [d for d in WRITABLE_DEVICES if os.path.exists(d)]
    if gpu:
        try:
            names = os.listdir("/dev")
        except OSError:
            names = []
        devices += [f"/dev/{n}" for n in names if n.startswith(GPU_DEVICE_PREFIXES)]
    return devices


class _SockFilter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    ]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(_SockFilter))]


def refuse_unix_sockets() -> bool:
    """A seccomp filter: socket(AF_UNIX, ...) fails with EPERM (socketpair still works),
    so a pathname socket of a host service (a database, a Docker daemon) is not
    reachable even though it lies in a readable folder. False where it is not set."""
    arch = AUDIT_ARCH.get(os.uname().machine)
    if arch is None or not sys.platform.startswith("linux"):
        return False
    audit_arch, sys_socket = arch
    ld_abs, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    allow, refuse = 0x7FFF0000, 0x00050000 | 1  # SECCOMP_RET_ERRNO | EPERM
    program = [
        (ld_abs, 0, 0, 4),  # 0: arch
        (jeq, 1, 0, audit_arch),  # 1: ours -> 3
        (ret, 0, 0, refuse),  # 2: another ABI (i386 socketcall): refuse everything
        (ld_abs, 0, 0, 0),  # 3: syscall number
        (jge, 4, 0, 0x40000000),  # 4: x32 -> 9
        (jeq, 0, 2, sys_socket),  # 5: socket -> 6, else -> 8
        (ld_abs, 0, 0, 16),  # 6: domain (low word of the first argument)
        (jeq, 1, 0, AF_UNIX),  # 7: AF_UNIX -> 9
        (ret, 0, 0, allow),  # 8
        (ret, 0, 0, refuse),  # 9
    ]
    filters = (_SockFilter * len(program))(*[_SockFilter(*row) for row in program])
    fprog = _SockFprog(len(program), filters)
    try:
        libc = _libc()
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        return libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) == 0
    except (OSError, AttributeError):
        return False


def enter_pid_namespace() -> bool:
    """Fork into a new PID namespace; returns only in the new process (its PID 1).

    The process that called it stays outside as a mirror: it waits for the new one
    and ends the way it ended. When PID 1 of a namespace dies the kernel kills every
    process left in it, so no daemon or double fork outlives the example, and the
    example cannot see (or signal) the warm worker. False (and no fork) where the
    kernel refuses a PID namespace.
    """
    try:
        if _libc().unshare(CLONE_NEWPID) != 0:
            return False
    except (OSError, AttributeError):
        return False
    pid = os.fork()
    if pid == 0:
        die_with_parent(None)  # the mirror's PID is not visible from inside
        return True
    _mirror(pid)
    return False  # not reached


def _mirror(pid: int) -> None:
    """In the process outside the namespace: end exactly as `pid` ended."""
    import resource
    import signal

    null = os.open(os.devnull, os.O_RDWR)
    for fd in (1, 2):
        os.dup2(null, fd)
    os.closerange(3, 1 << 16)  # hold no pipe open: the worker sees EOF when the example ends
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
        except ChildProcessError:
            os._exit(70)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
        os.kill(os.getpid(), number)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 70)


def die_with_parent(parent_pid: int | None) -> None:
    """If the parent is killed, this process must not run on (Linux only)."""
    import signal

    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if parent_pid is not None and os.getppid() != parent_pid:  # it died before prctl
        os._exit(1)


@dataclass
class SandboxFeatures:
    """Which kernel walls this machine lets the warm worker raise around each example."""

    landlock: int = 0  # the Landlock ABI applied to examples, 0 when none
    pid_namespace: bool = False
    seccomp: bool = False  # AF_UNIX sockets refused
    network_namespace: bool = False
    memory_cgroup: bool = False  # each example in its own memory cgroup (runner/cgroup.py)

    @classmethod
    def probe(cls, network_namespace: bool, memory_cgroup: bool = False) -> SandboxFeatures:
        """Ask the kernel, in a throwaway child, for each wall (a few milliseconds)."""
        if not sys.platform.startswith("linux"):
            return cls(network_namespace=network_namespace, memory_cgroup=memory_cgroup)
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                code |= 1 if refuse_unix_sockets() else 0
                code |= 2 if _can_unshare_pid() else 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 0
        return cls(landlock_abi(), bool(code & 2), bool(code & 1), network_namespace, memory_cgroup)

    def gaps(self) -> list[str]:
        """One line per wall that is missing: what it leaves unconfined."""
        missing = []
        if not self.landlock:
            missing.append("sandbox: landlock unavailable, writes not confined")
        elif self.landlock < 6:
            missing.append(
                f"sandbox: landlock ABI {self.landlock} (< 6), signals and abstract sockets "
                "not scoped"
            )
        if not self.pid_namespace:
            missing.append(
                "sandbox: pid namespace unavailable, daemons an example starts may outlive it"
            )
        if not self.seccomp:
            missing.append("sandbox: seccomp unavailable, unix sockets of host services reachable")
        if not self.network_namespace:
            missing.append(
                "sandbox: network namespace unavailable, native code can reach the network"
            )
        if not self.memory_cgroup:
            missing.append(
                "sandbox: memory cgroup unavailable, the memory limit is a watchdog's "
                "(a fast allocation can overshoot it briefly)"
            )
        return missing

    def as_json(self) -> dict[str, Any]:
        return {
            "landlock_abi": self.landlock,
            "pid_namespace": self.pid_namespace,
            "seccomp_unix_sockets": self.seccomp,
            "network_namespace": self.network_namespace,
            "memory_cgroup": self.memory_cgroup,
            "gaps": self.gaps(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SandboxFeatures:
        return cls(
            int(data.get("landlock_abi", 0)),
            bool(data.get("pid_namespace")),
            bool(data.get("seccomp_unix_sockets")),
            bool(data.get("network_namespace")),
            bool(data.get("memory_cgroup")),
        )


def _can_unshare_pid() -> bool:
    try:
        return _libc().unshare(CLONE_NEWPID) == 0
    except (OSError, AttributeError):
        return False


def limit_processes(count: int) -> None:
    """RLIMIT_NPROC: forks past `count` processes fail (the kernel does not apply it
    to root; there the worker's process-count watchdog is the bound)."""
    import resource

    try:
        resource.setrlimit(resource.RLIMIT_NPROC, (count, count))
    except (ValueError, OSError):
        pass
