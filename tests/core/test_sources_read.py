"""`sources.read_bytes` reads what fstat promises (and one byte more), not max-file-size
bytes a file; a file that grew, or whose size fstat does not know, is still read whole,
and never past the limit."""

from __future__ import annotations

import io
import os
from types import SimpleNamespace

import pytest

from guidelint import sources
from guidelint.sources import Unreadable, read_bytes

LIMIT = 5_000_000


def test_a_file_is_read_in_one_request_of_its_size(tmp_path, monkeypatch):
    path = tmp_path / "a.md"
    path.write_bytes(b"# A\n" * 100)
    asked: list[int] = []
    real_read = io.BufferedReader.read

    class Recording(io.BufferedReader):
        def read(self, size=-1):
            asked.append(size)
            return real_read(self, size)

    monkeypatch.setattr(sources.Path, "open", lambda self, mode: Recording(io.FileIO(self, "r")))
    assert read_bytes(path, LIMIT) == b"# A\n" * 100
    assert asked == [401]  # its 400 bytes and one more, never the 5 MB limit


@pytest.mark.parametrize("reported", [0, 10])
def test_a_file_larger_than_fstat_said_is_read_whole(tmp_path, monkeypatch, reported):
    path = tmp_path / "grew.md"
    path.write_bytes(b"x" * 100)
    monkeypatch.setattr(sources.os, "fstat", lambda fd: SimpleNamespace(st_size=reported))
    assert read_bytes(path, LIMIT) == b"x" * 100
    with pytest.raises(Unreadable, match="too large"):
        read_bytes(path, 50)  # grew past the limit since fstat: refused all the same


def test_a_proc_file_of_unknown_size_is_read(tmp_path):
    status = "/proc/self/status"
    if not os.path.exists(status) or os.stat(status).st_size:
        pytest.skip("no /proc file reporting size 0 here")
    assert b"Name:" in read_bytes(sources.Path(status), LIMIT)
