"""The walls around one forked example process (Linux; best effort elsewhere).

- memory: RLIMIT_AS, set to what the process already maps plus the budget, so a
  warm worker's big imports do not eat an example's allowance;
- network: the warm worker moves into a fresh, empty network namespace (an
  unprivileged user namespace) where the kernel allows it, so every child inherits
  it for free; and an audit hook refuses socket connects with a clear message;
- files: the audit hook refuses to open for writing (or remove, rename, mkdir)
  anything outside the allowed folders (scratch, report folder, tiny cache);
- environment: built by the worker from an allowlist; HOME and TMPDIR point into
  the scratch folder.

An audit hook cannot stop native code that bypasses Python; it stops the writes
and connections a guide example makes by accident, which is what a docs run needs.
"""

from __future__ import annotations

import ctypes
import os
import sys

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
ALWAYS_WRITABLE = ("/dev/null", "/dev/tty", "/dev/shm")
PATH_EVENTS = {
    "os.remove": (0,),
    "os.rmdir": (0,),
    "os.mkdir": (0,),
    "os.rename": (0, 1),
    "os.symlink": (1,),
    "os.link": (1,),
    "os.truncate": (0,),
    "os.chmod": (0,),
    "shutil.rmtree": (0,),
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

    def allowed(path) -> bool:
        if isinstance(path, int):
            return True  # an already-open descriptor
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        real = os.path.realpath(os.path.abspath(str(path)))
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
            for index in PATH_EVENTS[event]:
                if index < len(args) and args[index] is not None and not allowed(args[index]):
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
