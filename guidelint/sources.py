"""Reading files to check: classify, decode, and turn unreadable input into a reason."""

from __future__ import annotations

import enum
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Concatenate, Generic, ParamSpec, TypeVar

from guidelint.spans import LineIndex

if TYPE_CHECKING:
    from guidelint.markdown import MarkdownDocument

T = TypeVar("T")
P = ParamSpec("P")

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx", ".mdc")  # .mdc: Cursor rules


class FileKind(str, enum.Enum):
    """What a file is to the rules (`Rule.file_kinds`), from its name. Each kind is
    equal to, and hashes as, its name, so the index's rows and a set of them stay as
    cheap to test as strings."""

    MARKDOWN = "markdown"
    JSON = "json"
    PYTHON = "python"
    OTHER = "other"

    __hash__ = str.__hash__


def file_kind(rel: str) -> FileKind:
    """The kind of file a name says."""
    lower = rel.lower()
    if lower.endswith(MARKDOWN_SUFFIXES):
        return FileKind.MARKDOWN
    if lower.endswith(".json"):
        return FileKind.JSON
    if lower.endswith(".py"):
        return FileKind.PYTHON
    return FileKind.OTHER


class Unreadable(Exception):
    """A file that cannot be checked; `line` points at the problem when known."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


class Derived(Generic[P, T]):
    """What `SourceFile.derived` keeps: a name paired with the function that computes
    the value from the file (and what else it takes, given by the first asker: the
    same for every asker of one run's file). Keys compare by identity."""

    __slots__ = ("name", "compute")

    def __init__(self, name: str, compute: Callable[Concatenate[SourceFile, P], T]) -> None:
        self.name = name
        self.compute = compute

    def __repr__(self) -> str:
        return f"Derived({self.name!r})"


@dataclass
class SourceFile:
    path: Path  # absolute
    rel: str  # relative to the project root, POSIX separators
    text: str
    kind: FileKind | None = None  # None: from the name (`file_kind`)
    _derived: dict[Derived[Any, Any], Any] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind is None:
            self.kind = file_kind(self.rel)

    def derived(self, key: Derived[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Data computed from this file once and shared by every rule that asks
        (its examples, its gotchas document, its tool references). It lives as long
        as the file object, so memory stays flat however many files a run checks."""
        known = self._derived
        if key not in known:
            known[key] = key.compute(self, *args, **kwargs)
        value: T = known[key]
        return value

    def keep(self, key: Derived[P, T], value: T) -> None:
        """Keep a value `key` would compute, worked out for many files at once
        (`Rule.prepare`)."""
        self._derived[key] = value

    @cached_property
    def lines(self) -> LineIndex:
        return LineIndex(self.text)

    @cached_property
    def markdown(self) -> MarkdownDocument:
        from guidelint.markdown_rs import parse_document

        return parse_document(self.text, self.lines)

    @cached_property
    def json(self) -> Any:
        """The parsed JSON value; raises json.JSONDecodeError on bad JSON."""
        return json.loads(self.text)


def decode(data: bytes, max_size: int) -> str:
    """Bytes to text, or Unreadable naming the reason and where."""
    if len(data) > max_size:
        raise Unreadable(_too_large(len(data), max_size))
    if b"\0" in data[:8192]:
        raise Unreadable("file is binary (contains NUL bytes), not text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise Unreadable(
            f"file is not valid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start})",
            line,
            column,
        ) from None
    return text


def read_bytes(path: Path, max_size: int | None = None, root: Path | None = None) -> bytes:
    """A file's raw bytes, or Unreadable naming why not.

    With `max_size`, a larger file is refused by its size, before it is read (and
    at most max_size + 1 bytes are ever read, should it grow meanwhile). With `root`,
    a file that leads outside it (a symlinked folder on the way) is not read.
    """
    try:
        with _open(path, root) as handle:
            if max_size is None:
                return handle.read()
            size = os.fstat(handle.fileno()).st_size
            if size > max_size:
                raise Unreadable(_too_large(size, max_size))
            # The size fstat gives and one byte more, to see a file that grew: asking
            # for max_size + 1 bytes would allocate (and fault in) megabytes a file.
            data = handle.read(size + 1)
            if len(data) > size:  # it grew, or its size was not known (/proc)
                data += handle.read(max_size + 1 - len(data))
    except OSError as err:
        raise Unreadable(f"cannot read file: {err.strerror or err}") from None
    except MemoryError:
        raise Unreadable("cannot read file: not enough memory") from None
    if len(data) > max_size:
        raise Unreadable(_too_large(len(data), max_size))
    return data


def _open(path: Path, root: Path | None) -> BinaryIO:
    if root is None:
        return path.open("rb")
    from guidelint.confine import Outside, open_inside

    try:
        return os.fdopen(open_inside(root, path), "rb")
    except Outside as outside:
        raise Unreadable(str(outside).partition(": ")[2]) from None


def _too_large(size: int, max_size: int) -> str:
    return f"file is too large to check ({size:,} bytes > max-file-size {max_size:,})"


def from_bytes(path: Path, rel: str, data: bytes, max_size: int) -> SourceFile:
    """A SourceFile from bytes already read (the result cache reads them first)."""
    return SourceFile(path=path, rel=rel, text=decode(data, max_size))


def load(path: Path, rel: str, max_size: int, root: Path | None = None) -> SourceFile:
    return from_bytes(path, rel, read_bytes(path, max_size, root), max_size)
