"""Compare the LESSONS index with the entries (GL202-GL204) and regenerate it (--fix).

Rows are regenerated from the entries in entry order. A row that already names
its entry correctly is kept byte for byte; only missing, dangling, renamed or
misplaced rows change, and nothing outside the rows' region is touched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, auto

from guidelint.findings import Edit, Fix
from guidelint.gotchas.markup import escape_link_text
from guidelint.gotchas.model import Entry, Index, IndexRow
from guidelint.spans import Span

NUMBER_HEADERS = ("#", "no", "no.", "n", "nr")
ISSUE_HEADERS = ("provenance", "issue", "issues")

# The (gotchas file, anchor) a row links to, None when it links to no anchor.
RowKey = Callable[[IndexRow], tuple[str, str] | None]


@dataclass(frozen=True, slots=True)
class Target:
    """An entry as an index sees it: where it lives and how a row links to it."""

    entry: Entry
    rel: str  # the gotchas file holding it
    base: str  # href path from the index's file ("" inside the same file)

    @property
    def key(self) -> tuple[str, str]:
        return (self.rel, self.entry.anchor)

    @property
    def href(self) -> str:
        return f"{self.base}#{self.entry.anchor}"


class IndexProblemKind(Enum):
    """How the index differs from the entries; each GL202-GL204 rule reports one kind."""

    UNINDEXED_ENTRY = auto()  # an entry without a row
    DANGLING_INDEX_ROW = auto()  # a row that names no entry, or a second row for one
    INDEX_OUT_OF_STEP = auto()  # rows out of entry order, misnumbered or with a stale headline


@dataclass(frozen=True, slots=True)
class IndexProblem:
    kind: IndexProblemKind
    span: Span
    message: str


def compare(targets: list[Target], index: Index, resolve: RowKey) -> list[IndexProblem]:
    """Every way the rows differ from the entries. `resolve(row)` gives a row's key."""
    by_key = {t.key: t for t in targets}
    problems: list[IndexProblem] = []
    matched: list[tuple[IndexRow, Target]] = []
    seen: set[tuple[str, str]] = set()
    for row in index.rows:
        key = resolve(row)
        target = by_key.get(key) if key else None
        if key is None or target is None:
            problems.append(
                IndexProblem(IndexProblemKind.DANGLING_INDEX_ROW, row.span, _dangling(row))
            )
        elif key in seen:
            problems.append(
                IndexProblem(
                    IndexProblemKind.DANGLING_INDEX_ROW,
                    row.span,
                    f"a second row for entry '{target.entry.headline}'",
                )
            )
        else:
            seen.add(key)
            matched.append((row, target))
    problems.extend(_out_of_step(matched, targets, index))
    return problems


def _dangling(row: IndexRow) -> str:
    if row.href is None:
        return "index row has no link to an entry anchor"
    return f"index row links to `{row.href}`, which is no entry"


def _out_of_step(
    matched: list[tuple[IndexRow, Target]], targets: list[Target], index: Index
) -> list[IndexProblem]:
    problems = []
    position = {t.key: n for n, t in enumerate(targets, start=1)}
    expected = sorted(matched, key=lambda pair: position[pair[1].key])
    for (row, target), (_, wanted) in zip(matched, expected, strict=True):
        if target.key != wanted.key:
            problems.append(
                IndexProblem(
                    IndexProblemKind.INDEX_OUT_OF_STEP,
                    row.span,
                    f"index rows are out of entry order: the row for entry "
                    f"{position[target.key]} comes where entry {position[wanted.key]}'s should",
                )
            )
            break
    numbered = [i for i, h in enumerate(index.header) if h.lower() in NUMBER_HEADERS]
    for row, target in matched:
        wanted_number = str(position[target.key])
        for column in numbered:
            if _cell(row.cells, column) != wanted_number:
                problems.append(
                    IndexProblem(
                        IndexProblemKind.INDEX_OUT_OF_STEP,
                        row.span,
                        f"index row is numbered '{_cell(row.cells, column)}' but its entry "
                        f"is number {wanted_number}",
                    )
                )
        if row.headline != target.entry.headline:
            problems.append(
                IndexProblem(
                    IndexProblemKind.INDEX_OUT_OF_STEP,
                    row.span,
                    f"index row reads '{row.headline}' but the entry's headline "
                    f"(line {target.entry.line}) is '{target.entry.headline}'",
                )
            )
    return problems


def unindexed(targets: list[Target], index: Index, resolve: RowKey) -> list[Target]:
    keys = {resolve(row) for row in index.rows}
    return [t for t in targets if t.key not in keys]


# -- regeneration ------------------------------------------------------------------


def regenerate(targets: list[Target], index: Index, resolve: RowKey, newline: str) -> Edit:
    """One edit that turns the index rows into exactly one current row per entry."""
    by_key: dict[tuple[str, str] | None, IndexRow] = {}
    for row in index.rows:
        by_key.setdefault(resolve(row), row)
    rows = [
        _row_text(target, number, by_key.get(target.key), index)
        for number, target in enumerate(targets, start=1)
    ]
    body = newline.join(rows)
    if index.form == "empty":
        body = newline * 2 + body if index.region.start > 0 else body + newline
    elif index.form == "table" and not index.rows:
        body = newline + body  # after the header's delimiter row
    return Edit(index.region.start, index.region.end, body)


def append_section(text: str, heading: str, targets: list[Target], newline: str) -> Edit:
    """Add a whole `## heading` section with one row per entry at the end of the file."""
    rows = newline.join(_fresh_list_row(t, 1, "- ") for t in targets)
    lead = "" if text.endswith(("\n", "\r")) or not text else newline
    if text.strip() and not text.endswith(newline * 2):
        lead += newline
    section = f"{lead}## {heading}{newline}{newline}{rows}{newline}"
    return Edit(len(text), len(text), section)


def index_fix(edit: Edit) -> Fix:
    return Fix((edit,), "regenerate the LESSONS index from the entries")


def _row_text(target: Target, number: int, row: IndexRow | None, index: Index) -> str:
    if row is not None and _is_current(row, target, number, index):
        return row.source
    if index.form == "table":
        return _table_row(target, number, row, index)
    return _fresh_list_row(target, number, index.marker, row)


def _is_current(row: IndexRow, target: Target, number: int, index: Index) -> bool:
    if row.headline != target.entry.headline:
        return False
    if index.form == "list" and index.marker[0].isdigit():
        return _ordinal(row) == number
    if index.form == "table":
        for i, header in enumerate(index.header):
            if header.lower() in NUMBER_HEADERS and _cell(row.cells, i) != str(number):
                return False
    return True


def _ordinal(row: IndexRow) -> int | None:
    digits = "".join(ch for ch in row.marker if ch.isdigit())
    return int(digits) if digits else None


def _cell(cells: tuple[str, ...], i: int) -> str:
    return cells[i] if i < len(cells) else ""


def _fresh_list_row(target: Target, number: int, marker: str, row: IndexRow | None = None) -> str:
    if marker[0].isdigit():
        marker = f"{number}{marker.strip()[-1]} "
    link = f"[{escape_link_text(target.entry.headline)}]({target.href})"
    before = f"{row.before} " if row is not None and row.before else ""
    after = f" {row.after}" if row is not None and row.after else ""
    return f"{marker}{before}{link}{after}"


def _table_row(target: Target, number: int, row: IndexRow | None, index: Index) -> str:
    width = max(len(index.header), index.link_column + 1, 1)
    cells = list(row.cells if row is not None else ())
    cells = (cells + [""] * width)[:width]
    entry = target.entry
    for i, header in enumerate(index.header):
        name = header.strip().lower()
        if name in NUMBER_HEADERS:
            cells[i] = str(number)
        elif name == "section":
            cells[i] = escape_link_text(entry.section, table=True)
        elif name in ISSUE_HEADERS:
            cells[i] = ", ".join(entry.issues)
    headline = escape_link_text(entry.headline, table=True)
    cells[index.link_column] = f"[{headline}]({target.href})"
    return "| " + " | ".join(cells) + " |"
