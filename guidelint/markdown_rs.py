"""The same document model as `guidelint.markdown`, built from markdown-it-pyrs.

markdown-it-pyrs (the Rust port of markdown-it, `pip install 'guidelint[fast]'`)
parses about eight times faster than markdown-it-py and gives every node its
source range (`srcmap`, in UTF-8 bytes), so code spans, links and comments need no
position recording. `parse_document` uses it where it is installed and the text
is one it maps exactly, else falls back to `guidelint.markdown.parse_markdown`,
the reference. `tests/test_markdown_equivalence.py` holds both to the same spans
and the same findings over real corpora.

What differs by construction: a `Block`'s `text` is its source as written (with
the reference it is markdown-it-py's inline content, container prefixes stripped),
`ListItem.children` is empty, and `MarkdownDocument.tokens` is parsed with
markdown-it-py on first use (the gotchas parser reads tokens; nothing else does).
"""

from __future__ import annotations

import bisect
import os
import re
from functools import lru_cache, partial
from itertools import accumulate
from typing import Any

from guidelint.markdown import (
    Block,
    CodeSpan,
    Fence,
    Heading,
    Link,
    ListItem,
    MarkdownDocument,
    _add_block_comments,
    _add_comment,
    _blank_front_matter,
    _line_span,
    parse_markdown,
)
from guidelint.spans import LineIndex, Span

# Nodes that hold inline content; a tight list item holds it directly.
_INLINE = frozenset(
    {
        "text",
        "text_special",
        "code_inline",
        "link",
        "autolink",
        "image",
        "em",
        "strong",
        "softbreak",
        "hardbreak",
        "html_inline",
    }
)
_LISTS = ("bullet_list", "ordered_list")
_EMPHASIS = ("em", "strong")
_PLAIN_INLINE = frozenset({"text", "text_special", "softbreak", "hardbreak", "image"})
# What `collect` records opens with one of these: a code span "`", a link "[", an
# autolink or a comment "<". A block's source without any has none to walk for.
_MAY_HOLD_SPANS = re.compile(r"[`\[<]")
_MAY_HOLD_SPANS_BYTES = re.compile(rb"[`\[<]")
# `GUIDELINT_MARKDOWN_PARSER=markdown-it-py` takes the reference path for every file
# (benchmarks, and telling a parser difference from a rule's).
PARSER_ENV = "GUIDELINT_MARKDOWN_PARSER"
REFERENCE = "markdown-it-py"


@lru_cache(maxsize=1)
def _rs_parser() -> Any:
    try:
        import markdown_it_pyrs
    except ImportError:
        return None
    return markdown_it_pyrs.MarkdownIt("commonmark").enable("table")


def available() -> bool:
    """Whether markdown-it-pyrs is installed (the fast path can run at all)."""
    return _rs_parser() is not None


def parse_document(text: str, lines: LineIndex | None = None) -> MarkdownDocument:
    """The document model, from markdown-it-pyrs where it maps the text exactly."""
    parser = _rs_parser()
    if parser is None or not _maps_exactly(text) or os.environ.get(PARSER_ENV) == REFERENCE:
        return parse_markdown(text, lines)
    try:
        doc = parse_rs(text, lines, parser)
    except (RecursionError, Misplaced):  # see Misplaced
        return parse_markdown(text, lines)
    except BaseException as error:  # pyo3's PanicException is a BaseException
        if type(error).__name__ != "PanicException":
            raise
        return parse_markdown(text, lines)  # markdown-it.rs panicked (`|*|[a-` + "`")
    return doc


def _maps_exactly(text: str) -> bool:
    """markdown-it replaces NUL with U+FFFD and reads a lone CR as a line break:
    either would shift byte offsets or lines against the text, so those few files
    take the reference path."""
    return "\0" not in text and text.count("\r") == text.count("\r\n")


def parse_rs(text: str, lines: LineIndex | None = None, parser: Any = None) -> MarkdownDocument:
    """Parse with markdown-it-pyrs (which must be installed)."""
    source, front = _blank_front_matter(text)
    lines = lines if lines is not None and lines.text is text else LineIndex(text)
    root = (parser or _rs_parser()).tree(source)
    doc = MarkdownDocument(text=text, lines=lines, _tokens=None, front_matter=front)
    walk = _Walk(doc, _ByteOffsets(source, lines))
    walk.children(root, 0, False)
    if walk.deferred:
        build = partial(_built_blocks, walk.blocks, text, lines.line_starts, walk.char)
        doc._pending_blocks = build
    else:
        doc._blocks = walk.blocks  # type: ignore[assignment]  # (no _Deferred in it)
    if walk.raw_items:  # (no reference back to `doc`: a cycle would wait for the GC)
        doc._pending_list_items = partial(_list_items, walk.raw_items, lines, walk.char)
    return doc


class Misplaced(Exception):
    """A node's range does not hold what the node says it holds.

    markdown-it.rs counts a tab in a container's indentation as the columns it
    expands to, so the ranges after it in that block shift (`- a\\n\\n\\tb`).
    Every range the model keeps is checked against the text it must start with;
    one that fails sends the whole file down the reference path.
    """


class _ByteOffsets:
    """UTF-8 byte offsets of a text to character offsets, line by line (most lines
    of most files are ASCII, where the two agree)."""

    def __init__(self, source: str, lines: LineIndex) -> None:
        self.char_starts = lines.line_starts
        self.source = source
        self.ascii = source.isascii()
        if self.ascii:
            return
        self.data = source.encode("utf-8")
        # Lines start after each "\n" in both (a lone CR takes the reference path),
        # so each line's byte length comes from one split, in C.
        byte_lengths = map(len, self.data.split(b"\n"))
        self.byte_starts = list(accumulate(map((1).__add__, byte_lengths), initial=0))
        char_ends = [*self.char_starts[1:], len(source) + 1]
        self.line_is_ascii = list(
            map(
                int.__eq__,
                map(int.__sub__, self.byte_starts[1:], self.byte_starts),
                map(int.__sub__, char_ends, self.char_starts),
            )
        )
        del self.byte_starts[-1]

    def char(self, offset: int) -> int:
        line = bisect.bisect_right(self.byte_starts, offset) - 1
        base = self.byte_starts[line]
        if self.line_is_ascii[line]:
            return self.char_starts[line] + offset - base
        return self.char_starts[line] + len(self.data[base:offset].decode("utf-8", "replace"))


class _Walk:
    def __init__(self, doc: MarkdownDocument, offsets: _ByteOffsets) -> None:
        self.doc = doc
        self.lines = doc.lines
        # An ASCII text's byte offsets are its character offsets: `int` is the
        # identity, called in C.
        self.char: Any = int if offsets.ascii else offsets.char
        self.line_starts = doc.lines.line_starts
        # Misplaced ranges come from a tab in a container's indent: a text without
        # a tab needs no check (and skips the node reads the checks cost).
        self.verify = "\t" in doc.text
        self.text = doc.text
        # Blocks in document order; a plain paragraph's is left as what builds it.
        self.blocks: list[Block | _Deferred] = []
        self.deferred = False
        # The text the ranges index: the source itself where bytes are characters.
        self.scan: Any = offsets.source if offsets.ascii else offsets.data
        self.may_hold: Any = (_MAY_HOLD_SPANS if offsets.ascii else _MAY_HOLD_SPANS_BYTES).search
        self.section = ""
        self.table_headers: list[str] = []
        self.raw_items: list[tuple[tuple[int, int], int, bool]] = []

    def span(self, node: Any) -> Span:
        start, end = node.srcmap
        return Span(self.char(start), self.char(end))

    def checked(self, node: Any, opening: str) -> Span:
        """The node's span, which must start with `opening` (see Misplaced)."""
        span = self.span(node)
        if self.verify and not self.doc.text.startswith(opening, span.start):
            raise Misplaced
        return span

    def line_of(self, offset: int) -> int:
        """The 1-based line of a character offset (`LineIndex.position(...).line`;
        offsets from srcmap are never negative)."""
        return bisect.bisect_right(self.line_starts, offset)

    def line_range(self, node: Any) -> tuple[int, int]:
        """1-based first and last line a block node covers."""
        start, end = node.srcmap
        start, end = self.char(start), self.char(end)
        return self.line_of(start), self.line_of(max(start, end - 1))

    # -- blocks -----------------------------------------------------------------

    def children(self, node: Any, depth: int, quoted: bool) -> None:
        run: list[Any] = []
        for child in node.children:
            name = child.name
            if name in _INLINE:
                run.append(child)
                continue
            if run:
                self.paragraph(run, depth, quoted)
                run = []
            self.block(child, name, depth, quoted)
        if run:
            self.paragraph(run, depth, quoted)

    def block(self, node: Any, name: str, depth: int, quoted: bool) -> None:
        if name == "paragraph":
            self.paragraph(node, depth, quoted)
        elif name in ("heading", "lheading"):
            self.heading(node, depth, quoted)
        elif name in _LISTS:
            for item in node.children:
                self.children(item, depth + 1, quoted)
                self.list_item(item, depth + 1, name == "ordered_list")
        elif name == "blockquote":
            self.children(node, depth, True)
        elif name == "table":
            self.table(node, depth, quoted)
        elif name in ("fence", "code_block"):
            self.fence(node)
        elif name == "html_block":
            first, last = self.line_range(node)
            _add_block_comments(self.doc, [first - 1, last])
        elif node.children:
            self.children(node, depth, quoted)

    def list_item(self, item: Any, depth: int, ordered: bool) -> None:
        # kept as its range; `list_items` builds the ListItems if someone asks
        self.raw_items.append((item.srcmap, depth, ordered))

    def heading(self, node: Any, depth: int, quoted: bool) -> None:
        inline = node.children
        start_byte, end_byte = node.srcmap
        opening = self.char(start_byte)
        first = self.line_of(opening)
        if node.name == "lheading":  # the reference's span ends with the text, not the underline
            end = self.char(inline[-1].srcmap[1]) if inline else opening
        else:
            end = self.char(end_byte)
        last = self.line_of(max(opening, end - 1))
        block = self.inline_block("heading", inline, depth, quoted, opening)
        text = block.text.strip()
        span = _line_span(self.lines, first, last)
        plain = "".join(_plain(inline)).strip()
        self.doc.headings.append(Heading(node.meta["level"], text, span, first, plain))
        self.section = text

    def table(self, node: Any, depth: int, quoted: bool) -> None:
        self.table_headers = []
        for part in node.children:
            in_head = part.name == "thead"
            for row in part.children:
                for index, cell in enumerate(row.children):
                    start, end = cell.srcmap
                    cell_start = self.char(start)
                    if in_head:  # as markdown-it-py has it: trimmed, `\|` unescaped
                        content = self.text[cell_start : self.char(end)] if end > start else ""
                        self.table_headers.append(content.replace("\\|", "|").strip())
                    header = self.table_headers[index] if index < len(self.table_headers) else None
                    self.inline_block(
                        "table_cell", cell.children, depth, quoted, cell_start, header, in_head
                    )
        self.table_headers = []

    def fence(self, node: Any) -> None:
        lines = self.lines
        first, last = self.line_range(node)
        meta = node.meta
        info = str(meta.get("info", "")).strip()
        is_fence = node.name == "fence"
        marker = str(meta.get("marker", "`")) * int(meta.get("marker_len", 3))
        content = str(meta.get("content", ""))
        if is_fence:
            # An unclosed fence runs to the end of its container; markdown-it.rs's
            # range stops a line short of the reference's there.
            last = max(last, first + content.count("\n"))
        closing = lines.line_text(last).strip() if is_fence else ""
        closed = (not is_fence) or (
            last > first and len(closing) >= len(marker) and closing == marker[:1] * len(closing)
        )
        self.doc.fences.append(
            Fence(
                info=info,
                lang=info.split()[0].lower() if info else "",
                content=content,
                span=_line_span(lines, first, last),
                line=first,
                content_line=first + 1 if is_fence else first,
                closed=closed,
                section=self.section,
            )
        )

    # -- inline -----------------------------------------------------------------

    def inline_block(
        self,
        kind: str,
        inline: list[Any],
        depth: int,
        quoted: bool,
        opening: int | None = None,
        header: str | None = None,
        header_row: bool = False,
    ) -> Block:
        """A Block of these inline nodes, recorded with what it holds; `opening` is
        where the node that owns them starts (its line is the block's), None for a
        run in a container."""
        where = (self.text, self.line_starts, self.char)
        block = _new_block(
            *where, kind, inline, depth, quoted, self.section, opening, header, header_row
        )
        self.blocks.append(block)
        if self.verify and inline and inline[0].name == "text":  # see Misplaced
            content = inline[0].meta.get("content", "")
            if content and not self.text.startswith(content[:8], block._source_start or 0):
                raise Misplaced
        if _MAY_HOLD_SPANS.search(block.text):  # else no code span, link or comment inside
            self.collect(block, inline)
        return block

    def plain(self, start_byte: int, end_byte: int) -> bool:
        """Whether a paragraph's source can hold no code span, link or comment: then
        its Block is built only if someone reads `blocks` (a text with a tab is
        walked in full, for its Misplaced checks)."""
        return not self.verify and self.may_hold(self.scan, start_byte, end_byte) is None

    def paragraph(self, owner: Any, depth: int, quoted: bool) -> None:
        """A paragraph node, or a run of a tight list item's inline nodes."""
        if isinstance(owner, list):
            start_byte, end_byte = owner[0].srcmap[0], owner[-1].srcmap[1]
        else:
            start_byte, end_byte = owner.srcmap
        if self.plain(start_byte, end_byte):
            self.blocks.append((owner, depth, quoted, self.section))
            self.deferred = True
        elif isinstance(owner, list):
            self.inline_block("paragraph", owner, depth, quoted)
        else:
            self.inline_block("paragraph", owner.children, depth, quoted, self.char(start_byte))

    def collect(self, block: Block, nodes: list[Any]) -> None:
        doc = self.doc
        for node in nodes:
            name = node.name
            if name in _PLAIN_INLINE:
                continue
            if name == "code_inline":
                parts = node.children
                if len(parts) == 1:  # the usual case: one text node
                    content = parts[0].meta.get("content", "")
                else:
                    content = "".join(child.meta.get("content", "") for child in parts)
                span = self.checked(node, "`")
                doc.code_spans.append(CodeSpan(content, span, block))
            elif name in ("link", "autolink"):
                span = self.checked(node, "[" if name == "link" else "<")
                doc.links.append(Link(str(node.meta.get("url", "")), span, block))
                self.collect(block, node.children)
            elif name == "html_inline":
                content = str(node.meta.get("content", ""))
                if content.startswith("<!--"):
                    _add_comment(doc, content, self.checked(node, "<!--"))
            elif name in ("em", "strong"):
                self.collect(block, node.children)
            # An image's alt text is its own inline parse in markdown-it: the
            # reference records nothing inside it, and neither does this.


# A plain paragraph left unbuilt: its node (or a run's inline nodes), list depth,
# whether it is quoted, and its section.
_Deferred = tuple[Any, int, bool, str]


def _new_block(
    text: str,
    line_starts: list[int],
    char: Any,
    kind: str,
    inline: list[Any],
    depth: int,
    quoted: bool,
    section: str,
    opening: int | None = None,
    header: str | None = None,
    header_row: bool = False,
) -> Block:
    if inline:
        first = inline[0]
        start_byte = first.srcmap[0] if first.name not in _EMPHASIS else _start_byte(first)
        start = char(start_byte)
        end = char(inline[-1].srcmap[1])
        opening = start if opening is None else opening
    else:
        start = end = opening = opening or 0
    # Positional, in Block's field order: keywords cost three times as much here.
    return Block(
        kind,
        text[start:end],
        bisect.bisect_right(line_starts, opening),
        section,
        depth,
        quoted,
        header,
        header_row,
        None,
        None,
        None,
        start,  # `_source_start`: `text` is the file's own source
    )


def _built_blocks(
    entries: list[Block | _Deferred], text: str, line_starts: list[int], char: Any
) -> list[Block]:
    """`MarkdownDocument.blocks`, the plain paragraphs' Blocks built now."""
    blocks = []
    for entry in entries:
        if isinstance(entry, Block):
            blocks.append(entry)
            continue
        owner, depth, quoted, section = entry
        if isinstance(owner, list):
            inline, opening = owner, None
        else:
            inline, opening = owner.children, char(owner.srcmap[0])
        kind = "paragraph"
        blocks.append(
            _new_block(text, line_starts, char, kind, inline, depth, quoted, section, opening)
        )
    return blocks


def _list_items(
    raw_items: list[tuple[tuple[int, int], int, bool]], lines: LineIndex, char: Any
) -> list[ListItem]:
    items = []
    for (start_byte, end_byte), depth, ordered in raw_items:
        start, end = char(start_byte), char(end_byte)
        first = bisect.bisect_right(lines.line_starts, start)
        last = bisect.bisect_right(lines.line_starts, max(start, end - 1))
        while last > first and not lines.line_text(last).strip():
            last -= 1  # a loose item's srcmap runs over the blank line after it
        items.append(ListItem(_line_span(lines, first, last), first, last, depth, ordered))
    return items


def _start_byte(node: Any) -> int:
    """Where a node starts. markdown-it.rs gives `**` and `*` nodes the start of
    their block (list marker included) instead of their own: theirs is one
    delimiter run before their first child."""
    if node.name in ("em", "strong") and node.children:
        return _start_byte(node.children[0]) - (2 if node.name == "strong" else 1)
    start: int = node.srcmap[0]
    return start


def _plain(nodes: list[Any]) -> list[str]:
    """A heading's inline nodes as rendered text (the reference's `_plain_text`)."""
    parts: list[str] = []
    for node in nodes:
        name = node.name
        if name in ("text", "text_special"):
            parts.append(str(node.meta.get("content", "")))
        elif name in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif name in ("code_inline", "em", "strong", "link", "autolink"):
            parts.extend(_plain(node.children))
    return parts
