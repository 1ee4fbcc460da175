"""The Markdown document model: parse once with markdown-it-py, keep exact spans.

markdown-it-py gives block tokens line maps only. We recover character offsets in
one place: the inline rules that build code spans, links and inline HTML are
wrapped to record their start/end position in the inline source, and each inline
block knows how its (container-stripped) lines map back onto the file.

This module is also the public home of what both builders share (front matter
blanked, line spans, HTML comments recorded): `guidelint.markdown_rs` imports those
by their public names, never a private one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from guidelint.records import FrozenRecord, Record
from guidelint.spans import LineIndex, Span

if TYPE_CHECKING:  # markdown-it-py loads when a file is parsed with it, not before
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?\r?\n)?---[ \t]*(\r?\n|\Z)", re.DOTALL)

# `## Title {#custom-id}` (Hugo, MkDocs attr_list, Pandoc); `<a id="x">`, `<h2 name='y'>`.
BLOCKQUOTE_MARKERS = re.compile(r"^(?:>[ \t]?)+")  # `> > ` before a quoted fence's close
CUSTOM_ID = re.compile(r"\{:?\s*#([\w\-.:]+)[^}]*\}\s*$")  # {#id}, MkDocs {: #id }
HTML_ID = re.compile(r"<[A-Za-z][^<>]*?\s(?:id|name)\s*=\s*[\"']([^\"'<>]+)[\"']")
SLUG_DROP = re.compile(r"[^\w\- ]")
# `## Title {.notranslate lang=en}`: attributes, not part of the title's id.
ATTRIBUTES = re.compile(r"\s*\{[^{}]*\}\s*$")


# The model's types are records (guidelint.records), not dataclasses: they are on
# every check's import path, and a dataclass costs about 1 ms there to make.


class Block(Record):
    """A run of inline Markdown (paragraph, heading, table cell) and its context."""

    __slots__ = (
        "kind",
        "text",
        "line",
        "section",
        "list_depth",
        "in_blockquote",
        "table_header",
        "table_row_is_header",
        "_line_offsets",
        "_lines",
        "_text_lines",
        "_source_start",
    )
    _no_repr = ("_line_offsets", "_lines", "_text_lines", "_source_start")
    kind: str  # "paragraph" | "heading" | "table_cell"
    text: str  # the inline source, container prefixes stripped
    line: int  # 1-based first line
    section: str  # text of the nearest heading above, "" at top level
    list_depth: int  # 0 outside lists
    in_blockquote: bool
    table_header: str | None  # header text of the cell's column
    table_row_is_header: bool
    _line_offsets: list[int] | None
    _lines: LineIndex | None
    _text_lines: LineIndex | None
    # Set where `text` is the file's own source (markdown_rs): offsets are start + pos.
    _source_start: int | None

    def __init__(
        self,
        kind: str,
        text: str,
        line: int,
        section: str,
        list_depth: int,
        in_blockquote: bool,
        table_header: str | None = None,
        table_row_is_header: bool = False,
        _line_offsets: list[int] | None = None,
        _lines: LineIndex | None = None,
        _text_lines: LineIndex | None = None,
        _source_start: int | None = None,
    ) -> None:
        self.kind = kind
        self.text = text
        self.line = line
        self.section = section
        self.list_depth = list_depth
        self.in_blockquote = in_blockquote
        self.table_header = table_header
        self.table_row_is_header = table_row_is_header
        self._line_offsets = _line_offsets
        self._lines = _lines
        self._text_lines = _text_lines
        self._source_start = _source_start

    def offset(self, pos: int) -> int:
        """Map a position in `text` to a character offset in the file."""
        if self._source_start is not None:
            return self._source_start + pos
        if self._line_offsets is None:
            # Computed on first use: most blocks never need it.
            if self._lines is None:
                raise ValueError("a Block made outside parse_markdown has no file offsets")
            self._line_offsets = _inline_line_offsets(self.text, self.line, self._lines, {})
        if self._text_lines is None:
            self._text_lines = LineIndex(self.text)  # bisect, not a count per span
        position = self._text_lines.position(pos)
        return self._line_offsets[position.line - 1] + position.column - 1


class CodeSpan(FrozenRecord):
    __slots__ = ("content", "span", "block")
    content: str
    span: Span  # includes the backticks
    block: Block

    def __init__(self, content: str, span: Span, block: Block) -> None:
        object.__setattr__(self, "content", content)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "block", block)


class Fence(FrozenRecord):
    __slots__ = ("info", "lang", "content", "span", "line", "content_line", "closed", "section")
    info: str  # the whole info string
    lang: str  # first word of the info string, lower-cased
    content: str
    span: Span  # from the opening fence to the end of the closing one
    line: int  # line of the opening fence
    content_line: int  # line of the first content line
    closed: bool
    section: str

    def __init__(
        self,
        info: str,
        lang: str,
        content: str,
        span: Span,
        line: int,
        content_line: int,
        closed: bool,
        section: str,
    ) -> None:
        object.__setattr__(self, "info", info)
        object.__setattr__(self, "lang", lang)
        object.__setattr__(self, "content", content)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "content_line", content_line)
        object.__setattr__(self, "closed", closed)
        object.__setattr__(self, "section", section)


class Heading(FrozenRecord):
    __slots__ = ("level", "text", "span", "line", "plain")
    level: int
    text: str
    span: Span
    line: int
    plain: str  # the text as rendered: no markup, link targets or `{#id}`

    def __init__(self, level: int, text: str, span: Span, line: int, plain: str = "") -> None:
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "plain", plain)


class ListItem(FrozenRecord):
    __slots__ = ("span", "line", "end_line", "depth", "ordered", "children")
    _no_repr = ("children",)
    span: Span
    line: int
    end_line: int  # last line (inclusive)
    depth: int  # 1 for a top-level item
    ordered: bool
    children: tuple[Token, ...]

    def __init__(
        self,
        span: Span,
        line: int,
        end_line: int,
        depth: int,
        ordered: bool,
        children: tuple[Token, ...] = (),
    ) -> None:
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "end_line", end_line)
        object.__setattr__(self, "depth", depth)
        object.__setattr__(self, "ordered", ordered)
        object.__setattr__(self, "children", children)


class Link(FrozenRecord):
    __slots__ = ("href", "span", "block")
    href: str
    span: Span
    block: Block

    def __init__(self, href: str, span: Span, block: Block) -> None:
        object.__setattr__(self, "href", href)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "block", block)


class HtmlComment(FrozenRecord):
    __slots__ = ("body", "span", "line", "end_line")
    body: str  # text between <!-- and -->, stripped
    span: Span
    line: int
    end_line: int

    def __init__(self, body: str, span: Span, line: int, end_line: int) -> None:
        object.__setattr__(self, "body", body)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "end_line", end_line)


class FrontMatter(FrozenRecord):
    __slots__ = ("text", "span", "content_line")
    text: str  # without the --- fences
    span: Span
    content_line: int  # 1-based line of the first front matter line

    def __init__(self, text: str, span: Span, content_line: int) -> None:
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "content_line", content_line)


class MarkdownDocument(Record):
    __slots__ = (
        "text",
        "lines",
        "_tokens",
        "code_spans",
        "fences",
        "_headings",
        "_pending_headings",
        "links",
        "html_comments",
        "_blocks",
        "_pending_blocks",
        "_list_items",
        "_pending_list_items",
        "front_matter",
    )
    _no_repr = (
        "_pending_headings",
        "_blocks",
        "_pending_blocks",
        "_list_items",
        "_pending_list_items",
    )
    text: str
    lines: LineIndex
    _tokens: list[Token] | None  # markdown-it-py's stream; None: parsed on first use
    code_spans: list[CodeSpan]
    fences: list[Fence]
    _headings: list[Heading]
    # Builds `headings` on first use: the fast path keeps each heading's node and text
    # (its section's name) and makes the Heading records only if someone reads them.
    _pending_headings: Callable[[], list[Heading]] | None
    links: list[Link]
    html_comments: list[HtmlComment]
    _blocks: list[Block]
    # Builds `blocks` on first use: the fast path leaves out the Blocks no code span,
    # link or comment needs (most paragraphs); only the gotchas parser reads them all.
    _pending_blocks: Callable[[], list[Block]] | None
    _list_items: list[ListItem]
    # Builds the rest of `list_items` on first use: only the gotchas parser reads them,
    # so the fast path records its items' ranges and pays for ListItems when asked.
    _pending_list_items: Callable[[], list[ListItem]] | None
    front_matter: FrontMatter | None

    def __init__(
        self,
        text: str,
        lines: LineIndex,
        _tokens: list[Token] | None,
        code_spans: list[CodeSpan] | None = None,
        fences: list[Fence] | None = None,
        _headings: list[Heading] | None = None,
        _pending_headings: Callable[[], list[Heading]] | None = None,
        links: list[Link] | None = None,
        html_comments: list[HtmlComment] | None = None,
        _blocks: list[Block] | None = None,
        _pending_blocks: Callable[[], list[Block]] | None = None,
        _list_items: list[ListItem] | None = None,
        _pending_list_items: Callable[[], list[ListItem]] | None = None,
        front_matter: FrontMatter | None = None,
    ) -> None:
        self.text = text
        self.lines = lines
        self._tokens = _tokens
        self.code_spans = [] if code_spans is None else code_spans
        self.fences = [] if fences is None else fences
        self._headings = [] if _headings is None else _headings
        self._pending_headings = _pending_headings
        self.links = [] if links is None else links
        self.html_comments = [] if html_comments is None else html_comments
        self._blocks = [] if _blocks is None else _blocks
        self._pending_blocks = _pending_blocks
        self._list_items = [] if _list_items is None else _list_items
        self._pending_list_items = _pending_list_items
        self.front_matter = front_matter

    @property
    def headings(self) -> list[Heading]:
        if self._pending_headings is not None:
            self._headings = self._pending_headings()
            self._pending_headings = None
        return self._headings

    @property
    def blocks(self) -> list[Block]:
        if self._pending_blocks is not None:
            self._blocks = self._pending_blocks()
            self._pending_blocks = None
        return self._blocks

    @property
    def list_items(self) -> list[ListItem]:
        if self._pending_list_items is not None:
            self._list_items.extend(self._pending_list_items())
            self._pending_list_items = None
        return self._list_items

    @property
    def tokens(self) -> list[Token]:
        """markdown-it-py's token stream (the gotchas parser reads it)."""
        if self._tokens is None:
            source, _ = blank_front_matter(self.text)
            self._tokens = _parser().parse(source)
        return self._tokens

    def anchors(self) -> frozenset[str]:
        """Every `#fragment` a link into this document may name: GitHub's heading ids
        (with -1, -2 for repeats), `{#custom-id}` attributes, HTML `id`/`name`."""
        found: list[str] = []
        counts: dict[str, int] = {}
        for heading in self.headings:
            custom = CUSTOM_ID.search(heading.text)
            if custom:
                found.append(custom.group(1))
                continue
            slug = github_slug(ATTRIBUTES.sub("", heading.plain))
            seen = counts.get(slug, 0)
            counts[slug] = seen + 1
            found.append(slug if seen == 0 else f"{slug}-{seen}")
        found.extend(match.group(1) for match in HTML_ID.finditer(self.text))
        return frozenset(found)


def may_hold_code_spans(text: str) -> bool:
    """False when a text can have no code span (no backtick): then nothing that reads
    only code spans needs the document parsed (a third of real Markdown files)."""
    return "`" in text


def may_hold_links(text: str) -> bool:
    """False when a text can have no link (`[...]` or an `<autolink>`)."""
    return "[" in text or "<" in text


# Which token each wrapped inline rule opens with, and the characters it can start on.
_POSITIONED_RULES = {
    "backticks": ("code_inline", "`"),
    "link": ("link_open", "["),
    "autolink": ("link_open", "<"),
    "html_inline": ("html_inline", "<"),
}


def _record_positions(rule, token_type: str, first_chars: str):
    """Wrap an inline rule so the token it opens remembers where it came from.

    The wrapper must not change the token stream (other rules read it), so it only
    observes: a successful rule first flushes pending text as one text token, then
    pushes its own. Positions where the rule cannot start are passed straight on,
    which keeps the cost near zero on ordinary text.
    """

    def wrapped(state, silent):
        if silent or state.src[state.pos] not in first_chars:
            return rule(state, silent)
        start = state.pos
        index = len(state.tokens) + (1 if state.pending else 0)
        ok = rule(state, silent)
        if ok and index < len(state.tokens) and state.tokens[index].type == token_type:
            state.tokens[index].meta["pos"] = (start, state.pos)
        return ok

    return wrapped


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"maxNesting": 40}).enable("table")
    for name, (token_type, first_chars) in _POSITIONED_RULES.items():
        index = md.inline.ruler.__find__(name)
        rule = md.inline.ruler.__rules__[index]
        md.inline.ruler.at(name, _record_positions(rule.fn, token_type, first_chars))
    return md


def _inline_line_offsets(
    content: str, first_line: int, lines: LineIndex, cursor: dict[int, int]
) -> list[int]:
    """File offset of the start of each line of an inline block's content.

    Searches the file text in place (no per-line slices), so a table row of
    thousands of cells costs time linear in the row.
    """
    text = lines.text
    offsets = []
    for i, content_line in enumerate(content.split("\n")):
        line_no = min(first_line + i, lines.line_count)
        base, end = lines.line_starts[line_no - 1], lines.line_end(line_no)
        if not content_line:
            # An empty table cell: nothing to find, and the cells after it are still
            # to the right of the one before (resetting here found a repeated cell's
            # text in an earlier cell).
            offsets.append(base + cursor.get(line_no, 0))
            continue
        if text.endswith(content_line, base, end):
            found = end - len(content_line)
        else:
            # Table cells and headings: find the text, left to right along the line.
            start = base + cursor.get(line_no, 0)
            found = text.find(content_line, start, end)
            stripped = content_line.strip()
            if found == -1:
                found = text.find(stripped, base, end) if stripped else -1
            found = max(found, base)
            cursor[line_no] = found - base + len(content_line)
        offsets.append(found)
    return offsets


def front_matter_of(text: str) -> FrontMatter | None:
    """A text's front matter (what `MarkdownDocument.front_matter` holds), without
    parsing the rest: agents' `tools:` lists need only this."""
    match = FRONT_MATTER.match(text)
    return _front_matter(match) if match else None


def _front_matter(match: re.Match[str]) -> FrontMatter:
    return FrontMatter(text=match.group(1) or "", span=Span(0, match.end()), content_line=2)


# Every ASCII character but the line breaks to a space (`str.translate` maps an ASCII
# text in C, 15 times faster than a regex substitution per character).
_BLANK_ASCII = "".join(c if c in "\r\n" else " " for c in map(chr, range(128)))
_NOT_LINE_BREAKS = re.compile(r"[^\r\n]+")


# What both builders share (this one and `guidelint.markdown_rs`): front matter
# blanked, line spans, HTML comments recorded.


def blank_front_matter(text: str) -> tuple[str, FrontMatter | None]:
    """Replace front matter with spaces so offsets and lines stay exact."""
    match = FRONT_MATTER.match(text)
    if not match:
        return text, None
    fenced = match.group(0)
    if fenced.isascii():
        blanked = fenced.translate(_BLANK_ASCII)
    else:
        blanked = _NOT_LINE_BREAKS.sub(lambda run: " " * len(run.group()), fenced)
    return blanked + text[match.end() :], _front_matter(match)


def line_span(lines: LineIndex, first: int, last: int) -> Span:
    """Span from the start of 1-based line `first` to the end of line `last`."""
    start = lines.offset(first, 1)
    return Span(start, max(start, lines.line_end(min(last, lines.line_count))))


def add_comment(doc: MarkdownDocument, raw: str, span: Span) -> None:
    """Record the HTML comment `raw` (`<!--` ... `-->`, or unclosed) found at span."""
    body = raw[4:]
    body = body[:-3] if body.endswith("-->") else body
    start = doc.lines.position(span.start)
    end = doc.lines.position(max(span.start, span.end - 1))
    doc.html_comments.append(HtmlComment(body.strip(), span, start.line, end.line))


def add_block_comments(doc: MarkdownDocument, line_map: list[int]) -> None:
    """Record every HTML comment of an HTML block (0-based [first, last) lines)."""
    first, last = line_map
    region = line_span(doc.lines, first + 1, last)
    text = doc.text[region.start : region.end]
    for match in re.finditer(r"<!--(.*?)(-->|\Z)", text, re.DOTALL):
        span = Span(region.start + match.start(), region.start + match.end())
        add_comment(doc, doc.text[span.start : span.end], span)


def parse_markdown(text: str, lines: LineIndex | None = None) -> MarkdownDocument:
    """Parse Markdown into a document whose every element has an exact span.

    `lines` may pass in the text's LineIndex when the caller has one already.
    """
    source, front = blank_front_matter(text)
    lines = lines if lines is not None and lines.text is text else LineIndex(text)
    tokens = _parser().parse(source)
    doc = MarkdownDocument(text=text, lines=lines, _tokens=tokens, front_matter=front)
    _walk(doc, tokens)
    return doc


# Block tokens that carry nothing the model records (the common case: skip fast).
_PLAIN_TOKENS = frozenset({"paragraph_open", "paragraph_close", "hr", "tbody_open", "tbody_close"})


def _walk(doc: MarkdownDocument, tokens: list[Token]) -> None:
    lines = doc.lines
    section = ""
    list_depth = 0
    list_ordered: list[bool] = []
    quote_depth = 0
    open_items: list[tuple[Token, int]] = []
    table_headers: list[str] = []
    in_thead = False
    cell_index = 0
    block_kind = "paragraph"
    heading_level = 0
    cursor: dict[int, int] = {}

    for index, token in enumerate(tokens):
        kind = token.type
        if kind in _PLAIN_TOKENS:
            continue
        if kind in ("bullet_list_open", "ordered_list_open"):
            list_depth += 1
            list_ordered.append(kind == "ordered_list_open")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            list_depth -= 1
            list_ordered.pop()
        elif kind == "list_item_open":
            open_items.append((token, index))
        elif kind == "list_item_close" and open_items:
            item, start_index = open_items.pop()
            first, last = item.map if item.map else (0, 1)
            while last > first + 1 and not lines.line_text(last).strip():
                last -= 1  # markdown-it counts the blank line after an item as its own
            doc.list_items.append(
                ListItem(
                    span=line_span(lines, first + 1, last),
                    line=first + 1,
                    end_line=max(first + 1, last),
                    depth=list_depth,
                    ordered=list_ordered[-1] if list_ordered else False,
                    children=tuple(tokens[start_index + 1 : index]),
                )
            )
        elif kind == "blockquote_open":
            quote_depth += 1
        elif kind == "blockquote_close":
            quote_depth -= 1
        elif kind == "heading_open":
            block_kind, heading_level = "heading", int(token.tag[1:])
        elif kind == "heading_close":
            block_kind = "paragraph"
        elif kind == "thead_open":
            in_thead, table_headers = True, []
        elif kind == "thead_close":
            in_thead = False
        elif kind == "tr_open":
            cell_index = 0
        elif kind in ("th_open", "td_open"):
            block_kind = "table_cell"
        elif kind in ("th_close", "td_close"):
            block_kind, cell_index = "paragraph", cell_index + 1
        elif kind == "table_close":
            table_headers = []
        elif kind == "inline" and token.map:
            header = None
            if block_kind == "table_cell":
                if in_thead:
                    table_headers.append(token.content)
                header = table_headers[cell_index] if cell_index < len(table_headers) else None
            block = Block(
                kind=block_kind,
                text=token.content,
                line=token.map[0] + 1,
                section=section,
                list_depth=list_depth,
                in_blockquote=quote_depth > 0,
                table_header=header,
                table_row_is_header=in_thead,
                _lines=lines,
            )
            if block_kind == "table_cell":
                # Cells share a line: each is found to the right of the one before.
                block._line_offsets = _inline_line_offsets(block.text, block.line, lines, cursor)
            doc.blocks.append(block)
            if block_kind == "heading":
                text = token.content.strip()
                first, last = token.map
                span = line_span(lines, first + 1, last)
                plain = _plain_text(token.children or [])
                doc.headings.append(Heading(heading_level, text, span, first + 1, plain))
                section = text
            _collect_inline(doc, block, token.children or [])
        elif kind in ("fence", "code_block") and token.map:
            _add_fence(doc, token, token.map, section)
        elif kind == "html_block" and token.map:
            add_block_comments(doc, token.map)


def github_slug(text: str) -> str:
    """A heading's id as GitHub renders it: lower case, punctuation dropped (letters,
    digits, `_`, `-` and spaces kept), each space a hyphen. Beyond ASCII, letters,
    numbers and combining marks are kept (Devanagari's vowel signs, which Python's
    `\\w` does not match, are part of a word for GitHub)."""
    text = text.strip().lower()
    if text.isascii():
        return SLUG_DROP.sub("", text).replace(" ", "-")
    kept = (char for char in text if char in "_- " or unicodedata.category(char)[0] in "LMN")
    return "".join(kept).replace(" ", "-")


def _plain_text(children: list[Token]) -> str:
    """Inline tokens as rendered text (what GitHub makes a heading's anchor from)."""
    parts = []
    for child in children:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content if child.type != "html_inline" else "")
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts).strip()


def _collect_inline(doc: MarkdownDocument, block: Block, children: list[Token]) -> None:
    for child in children:
        pos = child.meta.get("pos") if child.meta else None
        if pos is None:
            continue
        span = Span(block.offset(pos[0]), block.offset(pos[1]))
        if child.type == "code_inline":
            doc.code_spans.append(CodeSpan(child.content, span, block))
        elif child.type == "link_open":
            doc.links.append(Link(str(child.attrs.get("href", "")), span, block))
        elif child.type == "html_inline" and child.content.startswith("<!--"):
            add_comment(doc, child.content, span)


def _add_fence(doc: MarkdownDocument, token: Token, line_map: list[int], section: str) -> None:
    first, last = line_map
    lines = doc.lines
    info = token.info.strip()
    is_fence = token.type == "fence"
    # A fence in a block quote closes on `> ```: the quote markers are the container's.
    closing = BLOCKQUOTE_MARKERS.sub("", lines.line_text(last).strip()) if is_fence else ""
    marker = token.markup[:1] or "`"
    closed = (not is_fence) or (
        last > first + 1 and len(closing) >= len(token.markup) and closing == marker * len(closing)
    )
    doc.fences.append(
        Fence(
            info=info,
            lang=info.split()[0].lower() if info else "",
            content=token.content,
            span=line_span(lines, first + 1, last),
            line=first + 1,
            content_line=first + 2 if is_fence else first + 1,
            closed=closed,
            section=section,
        )
    )
