"""Descriptors passed between an example's own processes without a Unix socket.

multiprocessing hands a descriptor to another process (torch's DataLoader workers
send each batch's shared memory that way) through `resource_sharer`, a listener
on a Unix socket. The sandbox refuses Unix sockets (a host service's socket would be
reachable too), so in the example's process `install()` replaces
`resource_sharer.DupFd` with this one: the sender keeps a duplicate, the receiver
takes it with pidfd_getfd(2) (the kernel lets it only within the example's own
Landlock domain) and tells the sender, through a pipe it also takes that way, that
the duplicate may be closed.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading

SYS_PIDFD_GETFD = 438  # the same number on every architecture (asm-generic)
_state: dict[str, int] = {}  # this process's ack pipe: pid, read end, write end
_held: dict[int, int] = {}  # the duplicates not yet taken
_lock = threading.Lock()


def install() -> None:
    """Route multiprocessing's descriptor passing through pidfd_getfd."""
    from multiprocessing import resource_sharer

    resource_sharer.DupFd = DupFd  # type: ignore[misc,assignment]


class DupFd:
    """A descriptor of this process, picklable, taken once by the receiver."""

    def __init__(self, fd: int) -> None:
        self.pid = os.getpid()
        self.ack = _ack_pipe()
        with _lock:
            self.fd = os.dup(fd)
            _held[self.fd] = self.fd

    def detach(self) -> int:
        """In the receiving process: its own copy of the descriptor."""
        pidfd = os.pidfd_open(self.pid)
        try:
            taken = _getfd(pidfd, self.fd)
            with contextlib.suppress(OSError):
                ack = _getfd(pidfd, self.ack)
                os.write(ack, self.fd.to_bytes(4, "little"))
                os.close(ack)
            return taken
        finally:
            os.close(pidfd)


def _getfd(pidfd: int, fd: int) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    found = libc.syscall(
        ctypes.c_long(SYS_PIDFD_GETFD), ctypes.c_int(pidfd), ctypes.c_int(fd), ctypes.c_uint(0)
    )
    if found < 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))
    return int(found)


def _ack_pipe() -> int:
    """This process's pipe for receivers' acknowledgements (a new one after a fork),
    read by a thread that closes each duplicate once it was taken."""
    with _lock:
        if _state.get("pid") != os.getpid():
            read, write = os.pipe()
            _state.update(pid=os.getpid(), read=read, write=write)
            _held.clear()  # a parent's duplicates are its own to close
            threading.Thread(target=_close_taken, args=(read,), daemon=True).start()
        return _state["write"]


def _close_taken(read: int) -> None:
    buffer = b""
    while True:
        try:
            data = os.read(read, 4096)
        except OSError:
            return
        if not data:
            return
        buffer += data
        while len(buffer) >= 4:
            fd, buffer = int.from_bytes(buffer[:4], "little"), buffer[4:]
            with _lock:
                if _held.pop(fd, None) is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
