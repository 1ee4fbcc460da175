"""The walls around one forked example process (Linux; best effort elsewhere).

Enforced by the kernel (docs/RUNNING.md has the threat model), where it allows:
- files: Landlock (`confine_writes`): the filesystem changes only under the
  scratch folder, its own /dev/shm and a few device files; TCP and (ABI 6)
  signals and abstract sockets outside the example's domain are refused;
- system calls: a seccomp allow-list (`restrict_syscalls`): no socket(AF_UNIX) or
  other family but AF_INET/AF_INET6, no connect(), no io_uring, no mount, namespace,
  ptrace or kernel-module call;
- /dev/shm: a tmpfs of the example's own in its own mount namespace (`private_shm`);
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
import functools
import os
import sys
from dataclasses import dataclass
from typing import Any

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
ALWAYS_WRITABLE = ("/dev/null", "/dev/tty")
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
    """An example tried to leave its sandbox (`path`: what it tried to write, if any)."""

    path: str | None = None


def _violation(message: str, path: object) -> SandboxViolation:
    violation = SandboxViolation(message)
    violation.path = os.fsdecode(path) if isinstance(path, (str, bytes)) else None
    return violation


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
                raise _violation(
                    f"guidelint run: writing outside the example's scratch folder is not "
                    f"allowed: {path}",
                    path,
                )
        elif event in PATH_EVENTS:
            for index, fd_index in PATH_EVENTS[event]:
                dir_fd = args[fd_index] if fd_index is not None and fd_index < len(args) else None
                if (
                    index < len(args)
                    and args[index] is not None
                    and not allowed(args[index], dir_fd)
                ):
                    raise _violation(
                        f"guidelint run: {event} outside the example's scratch folder is not "
                        f"allowed: {args[index]}",
                        args[index],
                    )
        elif event in NETWORK_EVENTS:
            address = args[1] if len(args) > 1 else ""
            if isinstance(address, tuple):  # AF_INET/AF_INET6; AF_UNIX uses a path str
                raise SandboxViolation(
                    f"guidelint run: network access is disabled for examples "
                    f"(tried to reach {address[0]}:{address[1]})"
                )
            if isinstance(address, (str, bytes)) and address:  # a Unix socket's path
                raise SandboxViolation(
                    f"guidelint run: Unix sockets outside the example are not reachable "
                    f"(tried to reach {address!r})"
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
# seccomp: the socket family socketpair() must have.
AF_UNIX = 1


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


# -- seccomp: an allow-list of system calls ----------------------------------------------

# Per architecture: the syscall numbers this filter knows (anything above, added to
# kernels later, is refused with ENOSYS), and the numbers of the calls it treats
# specially. Names as in the kernel's unistd tables.
SECCOMP_ARCHES: dict[str, dict[str, Any]] = {
    "x86_64": {
        "audit": 0xC000003E,
        "ranges": ((0, 334), (424, 469)),
        "calls": {
            "socket": 41,
            "socketpair": 53,
            "connect": 42,
            "sendto": 44,
            "clone": 56,
            "clone3": 435,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
            "ptrace": 101,
            "process_vm_readv": 310,
            "process_vm_writev": 311,
            "kexec_load": 246,
            "kexec_file_load": 320,
            "init_module": 175,
            "finit_module": 313,
            "delete_module": 176,
            "mount": 165,
            "umount2": 166,
            "pivot_root": 155,
            "chroot": 161,
            "swapon": 167,
            "swapoff": 168,
            "reboot": 169,
            "sethostname": 170,
            "setdomainname": 171,
            "iopl": 172,
            "ioperm": 173,
            "acct": 163,
            "quotactl": 179,
            "quotactl_fd": 443,
            "unshare": 272,
            "setns": 308,
            "bpf": 321,
            "perf_event_open": 298,
            "userfaultfd": 323,
            "keyctl": 250,
            "add_key": 248,
            "request_key": 249,
            "open_by_handle_at": 304,
            "name_to_handle_at": 303,
            "lookup_dcookie": 212,
            "fanotify_init": 300,
            "settimeofday": 164,
            "clock_settime": 227,
            "clock_adjtime": 305,
            "adjtimex": 159,
            "syslog": 103,
            "vhangup": 153,
            "mount_setattr": 442,
            "move_mount": 429,
            "open_tree": 428,
            "fsopen": 430,
            "fsconfig": 431,
            "fsmount": 432,
            "fspick": 433,
            "open_tree_attr": 467,
            "uselib": 134,
            "nfsservctl": 180,
            "_sysctl": 156,
            "create_module": 174,
        },
    },
    "aarch64": {
        "audit": 0xC00000B7,
        "ranges": ((0, 469),),
        "calls": {
            "socket": 198,
            "socketpair": 199,
            "connect": 203,
            "sendto": 206,
            "clone": 220,
            "clone3": 435,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
            "ptrace": 117,
            "process_vm_readv": 270,
            "process_vm_writev": 271,
            "kexec_load": 104,
            "kexec_file_load": 294,
            "init_module": 105,
            "finit_module": 273,
            "delete_module": 106,
            "mount": 40,
            "umount2": 39,
            "pivot_root": 41,
            "chroot": 51,
            "swapon": 224,
            "swapoff": 225,
            "reboot": 142,
            "sethostname": 161,
            "setdomainname": 162,
            "acct": 89,
            "quotactl": 60,
            "quotactl_fd": 443,
            "unshare": 97,
            "setns": 268,
            "bpf": 280,
            "perf_event_open": 241,
            "userfaultfd": 282,
            "keyctl": 219,
            "add_key": 217,
            "request_key": 218,
            "open_by_handle_at": 265,
            "name_to_handle_at": 264,
            "lookup_dcookie": 18,
            "fanotify_init": 262,
            "settimeofday": 170,
            "clock_settime": 112,
            "clock_adjtime": 266,
            "adjtimex": 171,
            "syslog": 116,
            "vhangup": 58,
            "mount_setattr": 442,
            "move_mount": 429,
            "open_tree": 428,
            "fsopen": 430,
            "fsconfig": 431,
            "fsmount": 432,
            "fspick": 433,
            "open_tree_attr": 467,
            "nfsservctl": 42,
        },
    },
}
# Refused with EPERM: io_uring (it makes sockets without socket(2)), what reaches
# another process's memory, the kernel, mounts, namespaces, clocks and keyrings, and
# connect(2) (no socket of a host service, whatever its family).
REFUSED_CALLS = tuple(
    name
    for name in SECCOMP_ARCHES["x86_64"]["calls"]
    if name not in ("socket", "socketpair", "sendto", "clone", "clone3")
)
ALLOWED_FAMILIES = (2, 10)  # AF_INET, AF_INET6 (the network namespace is empty)
AF_NETLINK, NETLINK_ROUTE = 16, 0  # glibc's getaddrinfo asks the (empty) namespace
PAIR_TYPES = (1, 5)  # socketpair(AF_UNIX, SOCK_STREAM | SOCK_SEQPACKET): no re-targeting
NAMESPACE_FLAGS = 0x7E020000  # CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET
RET_ALLOW, RET_EPERM, RET_ENOSYS = 0x7FFF0000, 0x00050000 | 1, 0x00050000 | 38
LD, JEQ, JGT, JGE, JSET, AND, RET = 0x20, 0x15, 0x25, 0x35, 0x45, 0x54, 0x06


def _arg(index: int, high: bool = False) -> int:
    """Offset of a syscall argument's low (or high) 32 bits in seccomp_data."""
    return 16 + 8 * index + (4 if high else 0)


@functools.lru_cache(maxsize=4)  # built once in the warm worker, inherited by each fork
def syscall_filter(machine: str) -> tuple[tuple[int, int, int, int], ...] | None:
    """The classic BPF program of the allow-list for `machine`, None if unknown.

    Every known call is allowed but the refused ones; socket() only for AF_INET,
    AF_INET6 and NETLINK_ROUTE (so no AF_UNIX, AF_VSOCK, AF_PACKET...), socketpair()
    only AF_UNIX stream/seqpacket, clone() without namespace flags, sendto() without
    an address, clone3() ENOSYS (glibc falls back to clone, whose flags are visible).
    """
    arch = SECCOMP_ARCHES.get(machine)
    if arch is None:
        return None
    calls = arch["calls"]
    program: list[tuple[Any, ...]] = [
        (LD, 0, 0, 4),
        (JEQ, 0, "eperm", arch["audit"]),  # another ABI (i386 on x86_64): refused
        (LD, 0, 0, 0),
        (JGE, "eperm", 0, 0x40000000),  # x32
    ]
    for name, label in (("socket", "socket"), ("socketpair", "pair"), ("clone", "clone")):
        program.append((JEQ, label, 0, calls[name]))
    program.append((JEQ, "sendto", 0, calls["sendto"]))
    program.append((JEQ, "enosys", 0, calls["clone3"]))
    program += [(JEQ, "eperm", 0, calls[name]) for name in REFUSED_CALLS if name in calls]
    for low, high in arch["ranges"]:
        program += [(JGE, 0, "next_range", low), (JGT, "next_range", "allow", high)]
        program.append(("label", "next_range"))
    program += [
        (RET, 0, 0, RET_ENOSYS),
        ("label", "socket"),
        (LD, 0, 0, _arg(0)),
        *[(JEQ, "allow", 0, family) for family in ALLOWED_FAMILIES],
        (JEQ, 0, "eperm", AF_NETLINK),
        (LD, 0, 0, _arg(2)),
        (JEQ, "allow", "eperm", NETLINK_ROUTE),
        ("label", "pair"),
        (LD, 0, 0, _arg(0)),
        (JEQ, 0, "eperm", AF_UNIX),
        (LD, 0, 0, _arg(1)),
        (AND, 0, 0, 0xF),
        *[(JEQ, "allow", 0, kind) for kind in PAIR_TYPES],
        (RET, 0, 0, RET_EPERM),
        ("label", "clone"),
        (LD, 0, 0, _arg(0)),
        (JSET, "eperm", "allow", NAMESPACE_FLAGS),
        ("label", "sendto"),
        (LD, 0, 0, _arg(4)),
        (JEQ, 0, "eperm", 0),
        (LD, 0, 0, _arg(4, high=True)),
        (JEQ, "allow", "eperm", 0),
        ("label", "allow"),
        (RET, 0, 0, RET_ALLOW),
        ("label", "eperm"),
        (RET, 0, 0, RET_EPERM),
        ("label", "enosys"),
        (RET, 0, 0, RET_ENOSYS),
    ]
    return tuple(_assemble(program))


def _assemble(program: list[tuple[Any, ...]]) -> list[tuple[int, int, int, int]]:
    """Resolve jump labels to offsets. A label names the next instruction; a reused
    name (`next_range`) means its next definition after the jump."""
    rows: list[tuple[Any, ...]] = []
    labels: list[tuple[str, int]] = []
    for row in program:
        if row[0] == "label":
            labels.append((row[1], len(rows)))
        else:
            rows.append(row)

    def target(at: int, label: Any) -> int:
        if isinstance(label, int):
            return label
        where = next(index for name, index in labels if name == label and index > at)
        offset = where - at - 1
        if not 0 <= offset <= 255:
            raise ValueError(f"seccomp jump to {label} out of range")
        return offset

    return [(c, target(i, jt), target(i, jf), k) for i, (c, jt, jf, k) in enumerate(rows)]


def restrict_syscalls() -> bool:
    """Install the allow-list (`syscall_filter`) on this process and all it starts;
    False where it is not set (another architecture, no seccomp)."""
    program = syscall_filter(os.uname().machine) if sys.platform.startswith("linux") else None
    if program is None:
        return False
    filters = (_SockFilter * len(program))(*[_SockFilter(*row) for row in program])
    fprog = _SockFprog(len(program), filters)
    try:
        libc = _libc()
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        return libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) == 0
    except (OSError, AttributeError):
        return False


# -- /dev/shm of its own ---------------------------------------------------------------------

CLONE_NEWNS = 0x00020000
MS_NOSUID, MS_NODEV, MS_REC, MS_PRIVATE = 0x2, 0x4, 0x4000, 1 << 18


def private_shm(size_mb: int) -> bool:
    """A mount namespace of its own whose /dev/shm is a fresh tmpfs of `size_mb`:
    multiprocessing's locks and semaphores (sem_open) and torch's shared tensors work,
    and nothing of another process's /dev/shm is reachable. False where the kernel
    refuses (no user namespace and no root)."""
    if not sys.platform.startswith("linux") or not os.path.isdir("/dev/shm"):
        return False
    try:
        libc = _libc()
        if libc.unshare(CLONE_NEWNS) != 0:
            return False
        if libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
            return False
        options = f"size={max(1, size_mb)}m,mode=1777".encode()
        return libc.mount(b"tmpfs", b"/dev/shm", b"tmpfs", MS_NOSUID | MS_NODEV, options) == 0
    except (OSError, AttributeError):
        return False


def limit_file_size(megabytes: int) -> None:
    """RLIMIT_FSIZE: no file written grows past `megabytes` (EFBIG, or SIGXFSZ for a
    program that does not ignore it)."""
    import resource

    limit = megabytes * 1024 * 1024
    try:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    except (ValueError, OSError):
        pass


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
    seccomp: bool = False  # the syscall allow-list (AF_UNIX sockets, io_uring refused)
    network_namespace: bool = False
    memory_cgroup: bool = False  # each example in its own memory cgroup (runner/cgroup.py)
    private_shm: bool = False  # a /dev/shm of its own (a tmpfs in its own mount namespace)

    @classmethod
    def probe(cls, network_namespace: bool, memory_cgroup: bool = False) -> SandboxFeatures:
        """Ask the kernel, in a throwaway child, for each wall (a few milliseconds)."""
        if not sys.platform.startswith("linux"):
            return cls(network_namespace=network_namespace, memory_cgroup=memory_cgroup)
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                code |= 2 if _can_unshare_pid() else 0
                code |= 4 if private_shm(1) else 0  # before the filter refuses mount()
                code |= 1 if restrict_syscalls() else 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 0
        return cls(
            landlock_abi(),
            bool(code & 2),
            bool(code & 1),
            network_namespace,
            memory_cgroup,
            bool(code & 4),
        )

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
            missing.append(
                "sandbox: seccomp unavailable, unix sockets of host services and io_uring reachable"
            )
        if not self.private_shm:
            missing.append(
                "sandbox: no mount namespace, /dev/shm closed to examples (multiprocessing "
                "locks fail)"
            )
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
            "private_shm": self.private_shm,
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
            bool(data.get("private_shm")),
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
