"""The tolerant parser of gotchas files, on top of the shared Markdown document model.

An entry is a top-level list item whose first inline is bold text (a leading
`<a id="...">` anchor is allowed before it). The LESSONS index is the section
under a heading named like `index_heading`; its rows are the first list or table
there. Everything else (prose, HTML blocks, nested lists) is left alone.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING

from guidelint.comments import Directive, parse_directive
from guidelint.gotchas.headlines import normalize_headline, slugify, unique_anchors
from guidelint.gotchas.markup import newline_of, unescape_link_text
from guidelint.gotchas.model import Entry, GotchasDocument, Index, IndexRow, NotAnEntry, RowCap
from guidelint.gotchas.provenance import fingerprint_of, issue_ids
from guidelint.markdown import Block, Heading, Link, ListItem, MarkdownDocument, parse_markdown
from guidelint.spans import Span

if TYPE_CHECKING:
    from markdown_it.token import Token

LEADING_ANCHOR = re.compile(r"\A\s*<a\b[^>]*>\s*(?:</a>\s*)?")
BOLD = re.compile(r"(\*\*|__)(.+?)\1", re.DOTALL)
EXPLICIT_ANCHOR = re.compile(r"<a\s+(?:[^>]*\s)?(?:id|name)\s*=\s*[\"']([^\"']+)[\"']")
LIST_MARKER = re.compile(r"^\s*([-*+]|\d+[.)])[ \t]+")
TABLE_PIPE = re.compile(r"(?<!\\)\|")


def parse_gotchas(text: str, index_heading: str = "LESSONS index") -> GotchasDocument:
    doc = parse_markdown(text)
    result = GotchasDocument(newline=newline_of(text))
    result.cap = _row_cap(doc)
    index_range = _section_range(doc, index_heading)
    skip = range(0)
    if index_range is not None:
        heading, last = index_range
        result.index = parse_index(doc, heading.line + 1, last, heading.line)
        if result.index.rows:
            # Only the rows are not entries: a level-1 index heading may head the whole file.
            skip = range(
                result.index.rows[0].line, doc.lines.position(result.index.region.end).line + 1
            )
    _collect_entries(doc, result, skip)
    return result


def _row_cap(doc: MarkdownDocument) -> RowCap:
    for comment in doc.html_comments:
        raw = doc.text[comment.span.start : comment.span.end]
        directive = parse_directive(raw, comment.span.start)
        if directive is None or directive.owner != "gotchas":
            continue
        value = _row_cap_value(directive)
        if not value.isdigit() or int(value) < 1:
            return RowCap(None, comment.span, f"row-cap={value!r} is not a positive whole number")
        return RowCap(int(value), comment.span)
    return RowCap(None, None)


def _row_cap_value(directive: Directive) -> str:
    """`row-cap=30`, tolerantly also `row-cap = 30` (the value as written, maybe empty)."""
    first = directive.tokens[0]
    if first.value is not None:
        return first.value
    return " ".join(token.key for token in directive.rest()).lstrip("=").strip()


def _section_range(doc: MarkdownDocument, title: str) -> tuple[Heading, int] | None:
    """The index heading and the last line of its section."""
    wanted = title.casefold()
    for i, heading in enumerate(doc.headings):
        if normalize_headline(heading.text).casefold() != wanted:
            continue
        last = doc.lines.line_count
        for later in doc.headings[i + 1 :]:
            if later.level <= heading.level:
                last = later.line - 1
                break
        return heading, last
    return None


# -- entries -------------------------------------------------------------------


class _Places:
    """Where a document's blocks, headings and links are, looked up by line or offset
    (built once per parse: asking every block, heading or link once per entry or
    index row was quadratic in a file of many entries, #28)."""

    def __init__(self, doc: MarkdownDocument) -> None:
        self.blocks: dict[int, list[Block]] = {}
        for block in doc.blocks:
            self.blocks.setdefault(block.line, []).append(block)
        self.headings = doc.headings  # in line order
        self.heading_lines = [heading.line for heading in self.headings]
        order = sorted(range(len(doc.links)), key=lambda i: doc.links[i].span.start)
        self.links: list[tuple[int, Link]] = [(i, doc.links[i]) for i in order]
        self.link_starts = [link.span.start for _, link in self.links]


def _collect_entries(doc: MarkdownDocument, result: GotchasDocument, skip: range) -> None:
    items = sorted((i for i in doc.list_items if i.depth == 1), key=lambda i: i.line)
    places = _Places(doc)
    found: list[tuple[ListItem, str, Span, str | None]] = []
    for item in items:
        if item.line in skip:
            continue
        parsed = _entry_parts(doc, item, places)
        if isinstance(parsed, str):
            result.not_entries.append(NotAnEntry(_trimmed(doc, item), item.line, parsed))
        else:
            found.append((item, *parsed))
    anchors = unique_anchors(explicit or slugify(headline) for _, headline, _, explicit in found)
    for number, ((item, headline, headline_span, explicit), anchor) in enumerate(
        zip(found, anchors, strict=True), start=1
    ):
        span = _trimmed(doc, item)
        source = doc.text[span.start : span.end]
        result.entries.append(
            Entry(
                number=number,
                headline=headline,
                anchor=anchor,
                explicit_anchor=explicit is not None,
                span=span,
                headline_span=headline_span,
                line=item.line,
                end_line=doc.lines.position(span.end).line,
                section=_section_of(places, item.line),
                issues=issue_ids(source),
                fingerprint=fingerprint_of(source),
                text=source,
            )
        )


# (headline, headline span, explicit anchor or None) of an entry.
EntryParts = tuple[str, Span, str | None]


def _entry_parts(doc: MarkdownDocument, item: ListItem, places: _Places) -> EntryParts | str:
    """(headline, headline span, explicit anchor) of an entry, or why it is not one."""
    inline = _first_inline(item)
    if inline is None:
        return "the item does not start with a paragraph"
    if not _starts_bold(inline.children or []):
        return "the item does not start with a bold headline"
    content = inline.content
    lead = LEADING_ANCHOR.match(content)
    start = lead.end() if lead else 0
    match = BOLD.match(content, start)
    if not match or not normalize_headline(match.group(2)):
        return "the bold headline is empty"
    block = _block_of(places, inline)
    span = Span(block.offset(match.start()), block.offset(match.end())) if block else item.span
    source = doc.text[item.span.start : item.span.end]
    explicit = EXPLICIT_ANCHOR.search(source)
    return normalize_headline(match.group(2)), span, explicit.group(1) if explicit else None


def _first_inline(item: ListItem) -> Token | None:
    children = item.children
    if len(children) >= 2 and children[0].type == "paragraph_open":
        if children[1].type == "inline":
            return children[1]
    return None


def _starts_bold(children: list[Token]) -> bool:
    for child in children:
        if child.type == "html_inline" and child.content.lower().startswith(("<a ", "</a")):
            continue
        if child.type == "text" and not child.content.strip():
            continue
        return child.type == "strong_open"
    return False


def _block_of(places: _Places, inline: Token) -> Block | None:
    line = inline.map[0] + 1 if inline.map else 0
    for block in places.blocks.get(line, ()):
        if block.text == inline.content:
            return block
    return None


def _trimmed(doc: MarkdownDocument, item: ListItem) -> Span:
    """The item's span without trailing blank lines."""
    text = doc.text[item.span.start : item.span.end]
    return Span(item.span.start, item.span.start + len(text.rstrip()))


def _section_of(places: _Places, line: int) -> str:
    """The text of the last heading at or above `line` when it is of level 2 or more
    (a level-1 heading ends the section)."""
    last = bisect_right(places.heading_lines, line) - 1
    if last < 0 or places.headings[last].level < 2:
        return ""
    return places.headings[last].text


# -- the LESSONS index -----------------------------------------------------------


def parse_index(doc: MarkdownDocument, first: int, last: int, heading_line: int | None) -> Index:
    """The index rows between lines `first` and `last` (1-based, inclusive)."""
    for token in doc.tokens:
        if token.level != 0 or not token.map or not first <= token.map[0] + 1 <= last:
            continue
        # The block's lines, 1-based and inclusive.
        block_first, block_last = token.map[0] + 1, token.map[1]
        if token.type in ("bullet_list_open", "ordered_list_open"):
            return _list_index(doc, _Places(doc), block_first, block_last, heading_line)
        if token.type == "table_open":
            return _table_index(doc, _Places(doc), block_first, block_last, heading_line)
    return Index("empty", (), _insertion_point(doc, first, last, heading_line), heading_line)


def _insertion_point(
    doc: MarkdownDocument, first: int, last: int, heading_line: int | None
) -> Span:
    """After the last non-blank line of the section (the heading when it is empty)."""
    lines = doc.lines
    line = max(first - 1, 1) if heading_line else 0
    for number in range(first, min(last, lines.line_count) + 1):
        if lines.line_text(number).strip():
            line = number
    offset = lines.line_end(line) if line else 0
    return Span(offset, offset)


def _list_index(
    doc: MarkdownDocument, places: _Places, first: int, last: int, heading_line: int | None
) -> Index:
    items = sorted(
        (i for i in doc.list_items if i.depth == 1 and first <= i.line <= last),
        key=lambda i: i.line,
    )
    if not items:  # cannot happen for a top-level list; stay safe on odd input
        return Index("empty", (), _insertion_point(doc, first, last, heading_line), heading_line)
    rows = tuple(_list_row(doc, places, item) for item in items)
    region = Span(rows[0].span.start, rows[-1].span.end)
    marker_match = LIST_MARKER.match(doc.lines.line_text(items[0].line))
    marker = marker_match.group(0).strip() if marker_match else "-"
    if marker[0].isdigit():
        marker = "1" + marker[-1]
    return Index("list", rows, region, heading_line, marker=marker + " ")


def _list_row(doc: MarkdownDocument, places: _Places, item: ListItem) -> IndexRow:
    span = _trimmed(doc, item)
    source = doc.text[span.start : span.end]
    marker = LIST_MARKER.match(source)
    body_start = span.start + (marker.end() if marker else 0)
    link = _first_fragment_link(doc, places, span)
    mark = marker.group(0) if marker else ""
    if link is None:
        headline = normalize_headline(source[len(mark) :])
        return IndexRow(span, item.line, None, "", None, headline, source, mark)
    href, link_span, link_text = link
    path, _, anchor = href.partition("#")
    return IndexRow(
        span,
        item.line,
        href,
        path,
        anchor,
        link_text,
        source,
        mark,
        before=" ".join(doc.text[body_start : link_span.start].split()),
        after=" ".join(doc.text[link_span.end : span.end].split()),
    )


def _first_fragment_link(
    doc: MarkdownDocument, places: _Places, span: Span
) -> tuple[str, Span, str] | None:
    """(href, link span, link text) of the first link (in the document's order) with a
    #fragment that starts within `span`; only the links that start there are read."""
    first = bisect_left(places.link_starts, span.start)
    last = bisect_left(places.link_starts, span.end)
    inside = [(i, link) for i, link in places.links[first:last] if "#" in link.href]
    if not inside:
        return None
    _, link = min(inside, key=lambda pair: pair[0])
    source = doc.text[link.span.start : link.span.end]
    text = source[1 : source.rfind("](")] if source.startswith("[") else source
    return link.href, link.span, normalize_headline(unescape_link_text(text))


def _table_index(
    doc: MarkdownDocument, places: _Places, first: int, last: int, heading_line: int | None
) -> Index:
    lines = doc.lines
    header = _cells(lines.line_text(first))
    body = [n for n in range(first + 2, last + 1) if lines.line_text(n).strip()]
    rows = tuple(_table_row(doc, places, n) for n in body)
    if rows:
        region = Span(rows[0].span.start, rows[-1].span.end)
    else:
        end = lines.line_end(min(first + 1, lines.line_count))
        region = Span(end, end)
    column = _link_column(rows, header)
    return Index("table", rows, region, heading_line, header=header, link_column=column)


def _table_row(doc: MarkdownDocument, places: _Places, line: int) -> IndexRow:
    lines = doc.lines
    span = Span(lines.offset(line), lines.line_end(line))
    source = lines.line_text(line)
    cells = _cells(source)
    link = _first_fragment_link(doc, places, span)
    if link is None:
        return IndexRow(span, line, None, "", None, " ".join(cells), source, cells=cells)
    href, _, link_text = link
    path, _, anchor = href.partition("#")
    return IndexRow(span, line, href, path, anchor, link_text, source, cells=cells)


def _cells(line: str) -> tuple[str, ...]:
    stripped = line.strip()
    if stripped.startswith("|"):
        stripped = stripped[1:]
    if stripped.endswith("|") and not stripped.endswith("\\|"):
        stripped = stripped[:-1]
    return tuple(cell.strip() for cell in TABLE_PIPE.split(stripped))


def _link_column(rows: tuple[IndexRow, ...], header: tuple[str, ...]) -> int:
    for row in rows:
        for i, cell in enumerate(row.cells):
            if "](" in cell and "#" in cell:
                return i
    named = [i for i, h in enumerate(header) if h.lower() in ("lesson", "headline", "entry")]
    return named[0] if named else max(len(header) - 1, 0)
