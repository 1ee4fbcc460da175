"""What a gotchas file holds once parsed: entries, the row cap, the LESSONS index."""

from __future__ import annotations

from dataclasses import dataclass, field

from guidelint.spans import Span


@dataclass(frozen=True, slots=True)
class Entry:
    """A top-level list item led by a bold headline."""

    number: int  # 1-based, in file order (the oldest entry is number 1)
    headline: str  # the Markdown inside the bold, whitespace collapsed, no final period
    anchor: str  # what index rows link to (see docs/GOTCHAS.md, "Anchors")
    explicit_anchor: bool  # an <a id="..."> in the entry, rather than the headline's slug
    span: Span  # the whole list item
    headline_span: Span  # the bold text, markers included
    line: int
    end_line: int
    section: str  # the `##` heading above it, "" if none
    issues: tuple[str, ...]  # provenance, e.g. ("#1489",)
    fingerprint: str | None
    text: str  # the item's source


@dataclass(frozen=True, slots=True)
class NotAnEntry:
    """A top-level list item that looks like a gotcha but has no bold headline."""

    span: Span
    line: int
    reason: str


@dataclass(frozen=True, slots=True)
class IndexRow:
    span: Span  # the row's lines
    line: int
    href: str | None  # the first link with a #fragment, None when the row has none
    path: str  # the href before '#' ("" for a link inside the same file)
    anchor: str | None
    headline: str  # the link text, normalised like Entry.headline
    source: str = ""  # the row's text as in the file (kept when the row is current)
    marker: str = ""  # list rows: "- ", "3. "
    before: str = ""  # list rows: text between the marker and the link
    after: str = ""  # list rows: text after the link
    cells: tuple[str, ...] = ()  # table rows: every cell's source


@dataclass(frozen=True, slots=True)
class Index:
    """Where the rows are, in what form, and where regenerated rows go."""

    form: str  # "list" | "table" | "empty"
    rows: tuple[IndexRow, ...]
    region: Span  # the rows' text; for "empty" an insertion point (start == end)
    heading_line: int | None  # the `## LESSONS index` heading, None for a whole index file
    marker: str = "- "  # list marker of the first row ("1. " for ordered lists)
    header: tuple[str, ...] = ()  # table header cells
    link_column: int = 0  # table column holding the link


@dataclass(frozen=True, slots=True)
class RowCap:
    value: int | None
    span: Span | None  # the directive, None when the cap comes from config
    error: str | None = None  # a directive that does not parse


@dataclass(slots=True)
class GotchasDocument:
    entries: list[Entry] = field(default_factory=list)
    not_entries: list[NotAnEntry] = field(default_factory=list)
    index: Index | None = None  # None: the file has no index section
    cap: RowCap = field(default_factory=lambda: RowCap(None, None))
    newline: str = "\n"
