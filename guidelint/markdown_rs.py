"""The same document model as `guidelint.markdown`, built from markdown-it-pyrs.

markdown-it-pyrs (the Rust port of markdown-it, `pip install 'guidelint[fast]'`)
parses about eight times faster than markdown-it-py and gives every node its
source range (`srcmap`, in UTF-8 bytes), so code spans, links and comments need no
position recording. `parse_document` uses it where it is installed and the text
is one it maps exactly, else falls back to `guidelint.markdown.parse_markdown`,
the reference. `tests/core/test_markdown_equivalence.py` holds both to the same spans
and the same findings over real corpora.

What differs by construction: a `Block`'s `text` is its source as written (with
the reference it is markdown-it-py's inline content, container prefixes stripped),
`ListItem.children` is empty, and `MarkdownDocument.tokens` is parsed with
markdown-it-py on first use (the gotchas parser reads tokens; nothing else does).
In a list parsed again for a tab in its indent (see Misplaced), code spans and
comments are where the source has them; the reference, which finds its inline
content back in lines whose tabs markdown-it-py has turned into spaces, can place
them a few columns off there (in 9,000 random tab-indented texts, every span that
differs is exact here). The rest of such a file is read by markdown-it.rs, with the
few readings it has that markdown-it-py has not (a table after a quote's lazy
line). The corpora's one such file gives the reference's model.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache, partial
from itertools import accumulate, chain
from typing import Any

from guidelint.markdown import (
    BLOCKQUOTE_MARKERS,
    Block,
    CodeSpan,
    Fence,
    Heading,
    Link,
    ListItem,
    MarkdownDocument,
    add_block_comments,
    add_comment,
    blank_front_matter,
    line_span,
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
# What a block parsed again may hold (see `_Walk.again`): lists of paragraphs.
# Quotes, tables, code and HTML blocks are where markdown-it.rs and markdown-it-py
# can read the same lines differently; there the reference decides, as before.
_LIST_OF_PROSE = _INLINE | {*_LISTS, "list_item", "paragraph"}
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
        with _panic_message_held():
            doc = parse_rs(text, lines, parser)
    except (RecursionError, Misplaced):  # see Misplaced
        return parse_markdown(text, lines)
    except BaseException as error:  # pyo3's PanicException is a BaseException
        if type(error).__name__ != "PanicException":
            raise
        return parse_markdown(text, lines)  # markdown-it.rs panicked (`|*|[a-` + "`")
    return doc


_held_stderr: list[int] = []  # a memory file that takes fd 2 while markdown-it.rs parses


@contextmanager
def _panic_message_held() -> Iterator[None]:
    """Rust's panic hook prints to fd 2 even when pyo3 turns the panic into an
    exception we catch (`thread '<unnamed>' panicked at ...` and a backtrace, on the
    stderr of `check` and `run`). While the parser runs, fd 2 points at a memory
    file; what anything else wrote there meanwhile is passed on, a panic's message
    is dropped. Three descriptor calls per parse; where the kernel has no memfd,
    nothing is held."""
    if not _held_stderr:
        try:
            _held_stderr.append(os.memfd_create("guidelint-stderr", os.MFD_CLOEXEC))
        except (AttributeError, OSError):
            _held_stderr.append(-1)
    held, saved = _held_stderr[0], -1
    if held >= 0:
        with contextlib.suppress(OSError):  # no fd 2 at all (a daemon): nothing to hold
            saved = os.dup(2)
    if saved < 0:
        yield
        return
    os.dup2(held, 2)
    panicked = True
    try:
        yield
        panicked = False
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        _pass_on(held, panicked)


def _pass_on(held: int, panicked: bool) -> None:
    """Write what landed in the memory file to the real stderr (unless it is a
    panic's message), and empty it."""
    size = os.lseek(held, 0, os.SEEK_CUR)
    if not size:
        return
    if not panicked:
        os.lseek(held, 0, os.SEEK_SET)
        data = os.read(held, size)
        with contextlib.suppress(OSError):
            os.write(2, data)
    os.ftruncate(held, 0)
    os.lseek(held, 0, os.SEEK_SET)


def _maps_exactly(text: str) -> bool:
    """markdown-it replaces NUL with U+FFFD and reads a lone CR as a line break:
    either would shift byte offsets or lines against the text, so those few files
    take the reference path."""
    return "\0" not in text and text.count("\r") == text.count("\r\n")


def parse_rs(text: str, lines: LineIndex | None = None, parser: Any = None) -> MarkdownDocument:
    """Parse with markdown-it-pyrs (which must be installed)."""
    source, front = blank_front_matter(text)
    lines = lines if lines is not None and lines.text is text else LineIndex(text)
    parser = parser or _rs_parser()
    root = parser.tree(source)
    doc = MarkdownDocument(text=text, lines=lines, _tokens=None, front_matter=front)
    walk = _Walk(doc, _ByteOffsets(source, lines))
    if walk.verify:
        walk.top_level(root, source, parser)
    else:
        walk.children(root, 0, False)
    # What is left unbuilt holds no reference back to `doc` (a cycle would wait for
    # the GC): its nodes, and what builds the records from them on first read.
    if walk.deferred:
        build = partial(_built_blocks, walk.blocks, text, lines.line_starts, walk.char)
        doc._pending_blocks = build
    else:
        doc._blocks = walk.blocks  # type: ignore[assignment]  # (no _Deferred in it)
    if walk.headings:
        doc._pending_headings = partial(_built_headings, walk.headings, lines, walk.char)
    if walk.raw_items:
        doc._pending_list_items = partial(_list_items, walk.raw_items, lines, walk.char)
    return doc


class Misplaced(Exception):
    """A node's range does not hold what the node says it holds.

    markdown-it.rs counts a tab in a container's indentation as the columns it
    expands to, so the ranges after it in that block shift (`- a\\n\\n\\tb`).
    Every range the model keeps is checked against the text it must start with.
    A top-level block that fails is parsed again on its own with the tabs of its
    lines' indents as spaces (`_Walk.again`); where that cannot be shown to give
    the same blocks, the whole file goes down the reference path.
    """


class _ByteOffsets:
    """UTF-8 byte offsets of a text to character offsets, line by line (most lines
    of most files are ASCII, where the two agree)."""

    def __init__(self, source: str, lines: LineIndex) -> None:
        self.source = source
        self.ascii = source.isascii()
        if self.ascii:
            return
        self.data = data = source.encode("utf-8")
        char_starts = lines.line_starts
        # Lines start after each "\n" in both (a lone CR takes the reference path),
        # so each line's byte length comes from one split, in C.
        byte_lengths = map(len, data.split(b"\n"))
        byte_starts = list(accumulate(map((1).__add__, byte_lengths), initial=0))
        # Bytes less characters before each line (and past the last): a line whose
        # next one has the same is ASCII, and shifts its offsets by that much.
        shifts = list(map(int.__sub__, byte_starts, chain(char_starts, (len(source) + 1,))))
        del byte_starts[-1]  # (a misplaced range may point past the end: the last line)
        bisect_right = bisect.bisect_right

        def char(offset: int) -> int:
            line = bisect_right(byte_starts, offset) - 1
            shift = shifts[line]
            if shift == shifts[line + 1]:
                return offset - shift
            base = byte_starts[line]
            return char_starts[line] + len(data[base:offset].decode("utf-8", "replace"))

        self.char = char


class _Indents:
    """Whole lines of a file with the tabs in their indents made spaces (to the next
    multiple of 4 columns, as CommonMark reads them), and offsets in that text back
    to the file's (see Misplaced)."""

    def __init__(self, text: str, file_starts: list[int], first: int) -> None:
        lines = text.split("\n")  # (a CR stays at the end of its line)
        self.changed: dict[int, tuple[str, str]] = {}  # line index: indent before, after
        for index, line in enumerate(lines):
            indent = line[: len(line) - len(line.lstrip(" \t"))]
            if "\t" in indent:
                spaces = indent.expandtabs(4)  # (spaces and tabs alone: columns 0 on)
                lines[index] = spaces + line[len(indent) :]
                self.changed[index] = (indent, spaces)
        self.text = "\n".join(lines)
        self.starts = LineIndex(self.text).line_starts
        offsets = _ByteOffsets(self.text, LineIndex(self.text))
        self.to_char: Any = int if offsets.ascii else offsets.char
        self.scan: Any = offsets.source if offsets.ascii else offsets.data
        self.may_hold = (_MAY_HOLD_SPANS if offsets.ascii else _MAY_HOLD_SPANS_BYTES).search
        self.file_starts = file_starts
        self.first = first

    def char(self, offset: int) -> int:
        """The file's character offset of a byte offset in `text`."""
        position = self.to_char(offset)
        index = bisect.bisect_right(self.starts, position) - 1
        column = position - self.starts[index]
        change = self.changed.get(index)
        if change is not None:
            indent, spaces = change
            if column >= len(spaces):
                column -= len(spaces) - len(indent)
            else:  # inside the indent: the tab or space that covers that column
                column = _covering(indent, column)
        return self.file_starts[self.first - 1 + index] + column

    def check_untouched(
        self, doc: MarkdownDocument, headings: list[Heading], mark: tuple[Any, ...]
    ) -> None:
        """Misplaced if what markdown-it's content was kept from since `mark` runs
        over an indent that was changed: code, comments, fences, headings."""
        touched = []
        for index, (indent, _) in self.changed.items():
            line_start = self.file_starts[self.first - 1 + index]
            touched.append((line_start, line_start + len(indent)))
        spans = [c.span for c in doc.code_spans[mark[3] :]]
        spans += [c.span for c in doc.html_comments[mark[5] :]]
        spans += [f.span for f in doc.fences[mark[6] :]]
        spans += [h.span for h in headings]
        for span in spans:
            for start, end in touched:
                if span.start < end and span.end > start:
                    raise Misplaced


def _covering(indent: str, column: int) -> int:
    """The index in an indent of the space or tab that covers a column."""
    reached = 0
    for index, character in enumerate(indent):
        reached += 4 - reached % 4 if character == "\t" else 1
        if column < reached:
            return index
    return len(indent)


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
        # Blocks in document order; one that can hold no span is left as what builds it.
        self.blocks: list[Block | _Deferred] = []
        self.deferred = False
        # Each heading's node and text, in document order (`_built_headings`).
        self.headings: list[tuple[Any, str] | Heading] = []
        # The text the ranges index: the source itself where bytes are characters.
        self.scan: Any = offsets.source if offsets.ascii else offsets.data
        self.may_hold: Any = (_MAY_HOLD_SPANS if offsets.ascii else _MAY_HOLD_SPANS_BYTES).search
        self.section = ""
        self.raw_items: list[_RawItem | ListItem] = []

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

    # -- a text with a tab ------------------------------------------------------

    def top_level(self, root: Any, source: str, parser: Any) -> None:
        """Walk each top-level block on its own; one that a tab misplaces (see
        Misplaced) is undone and parsed again (`again`)."""
        nodes = root.children
        for index, node in enumerate(nodes):
            if node.name in _INLINE:  # (never at the top level)
                raise Misplaced
            mark = self.mark()
            try:
                self.one(node)
            except Misplaced:
                self.undo(mark)
                following = nodes[index + 1] if index + 1 < len(nodes) else None
                self.again(node, following, source, parser)

    def one(self, node: Any) -> None:
        """One top-level block node, as `children` walks it."""
        name = node.name
        if name != "paragraph":
            self.block(node, name, 0, False)
        elif self.verify or self.may_hold(self.scan, *node.srcmap) is not None:
            opening = self.char(node.srcmap[0])
            self.inline_block("paragraph", node.children, 0, False, opening)
        else:
            self.defer("paragraph", node, 0, False)

    def mark(self) -> tuple[Any, ...]:
        """How far the walk has got: what `undo` goes back to."""
        return (*map(len, self.records()), self.section, self.deferred)

    def records(self) -> tuple[list[Any], ...]:
        """The lists the walk appends to, in `mark`'s order."""
        doc = self.doc
        return (
            *(self.blocks, self.headings, self.raw_items, doc.code_spans, doc.links),
            *(doc.html_comments, doc.fences),
        )

    def undo(self, mark: tuple[Any, ...]) -> None:
        for records, length in zip(self.records(), mark[:-2], strict=True):
            del records[length:]
        self.section, self.deferred = mark[-2:]

    def again(self, node: Any, following: Any, source: str, parser: Any) -> None:
        """Walk a top-level block parsed again from its lines alone, a tab in their
        indents made the spaces it stands for: markdown-it.rs then places every
        range. Kept only if the new tree has the old one's shape (the same nodes
        in the same order: the tab was read right, only ranges were off) and no
        content markdown-it gives (code, comments, headings) covers an indent that
        was changed; else Misplaced goes on to the reference path."""
        names = [n.name for n in node.walk()]
        if not _LIST_OF_PROSE.issuperset(names):
            raise Misplaced
        line_starts = self.line_starts
        first = self.line_of(self.char(node.srcmap[0]))
        stop = len(source)
        if following is not None:  # the region ends where the next block's line starts
            last = self.line_of(self.char(following.srcmap[0])) - 1
            stop = line_starts[last] if last < len(line_starts) else stop
        region = _Indents(source[line_starts[first - 1] : stop], line_starts, first)
        tree = parser.tree(region.text)
        if len(tree.children) != 1 or [n.name for n in tree.walk(include_self=False)] != names:
            raise Misplaced
        mark = self.mark()
        walked = self.char, self.scan, self.may_hold
        self.char, self.scan, self.may_hold = region.char, region.scan, region.may_hold
        try:
            self.one(tree.children[0])
        finally:
            self.char, self.scan, self.may_hold = walked
        self.build_now(mark, region.char)
        headings = self.headings[mark[1] :]  # (built now)
        region.check_untouched(self.doc, [h for h in headings if isinstance(h, Heading)], mark)

    def build_now(self, mark: tuple[Any, ...], char: Any) -> None:
        """Build what the walk left unbuilt since `mark`: its ranges are the
        region's, which the file's `char` cannot read later."""
        blocks, headings, items = mark[:3]
        built = _built_blocks(self.blocks[blocks:], self.text, self.line_starts, char)
        self.blocks[blocks:] = built
        self.headings[headings:] = _built_headings(self.headings[headings:], self.lines, char)
        self.raw_items[items:] = _list_items(self.raw_items[items:], self.lines, char)

    # -- blocks -----------------------------------------------------------------

    def children(self, node: Any, depth: int, quoted: bool) -> None:
        run: list[Any] = []
        for child in node.children:
            name = child.name
            if name in _INLINE:
                run.append(child)
                continue
            if run:
                self.run(run, depth, quoted)
                run = []
            if name != "paragraph":
                self.block(child, name, depth, quoted)
                continue
            # The most common block, handled here (as `paragraph` would).
            start_byte, end_byte = child.srcmap
            if self.verify or self.may_hold(self.scan, start_byte, end_byte) is not None:
                opening = self.char(start_byte)
                self.inline_block("paragraph", child.children, depth, quoted, opening)
            else:
                self.blocks.append(("paragraph", child, depth, quoted, self.section, None, False))
                self.deferred = True
        if run:
            self.run(run, depth, quoted)

    def block(self, node: Any, name: str, depth: int, quoted: bool) -> None:
        """Any block node but a paragraph (`children` walks those)."""
        if name in ("heading", "lheading"):
            self.heading(node, depth, quoted)
        elif name in _LISTS:
            ordered = name == "ordered_list"
            raw_items = self.raw_items
            for item in node.children:
                self.children(item, depth + 1, quoted)
                # kept as its range; `_list_items` builds the ListItems if someone asks
                raw_items.append((item.srcmap, depth + 1, ordered))
        elif name == "blockquote":
            self.children(node, depth, True)
        elif name == "table":
            self.table(node, depth, quoted)
        elif name in ("fence", "code_block"):
            self.fence(node)
        elif name == "html_block":
            first, last = self.line_range(node)
            add_block_comments(self.doc, [first - 1, last])
        elif node.children:
            self.children(node, depth, quoted)

    def heading(self, node: Any, depth: int, quoted: bool) -> None:
        """The heading's text names the section of what follows; its Heading record
        is built on first read of `headings`, its Block as a paragraph's is."""
        inline = node.children
        if inline:
            start_byte, end_byte = _inline_bytes(inline)
            if self.plain(start_byte, end_byte):
                text = self.text[self.char(start_byte) : self.char(end_byte)].strip()
                self.defer("heading", node, depth, quoted)
            else:
                opening = self.char(node.srcmap[0])
                text = self.inline_block("heading", inline, depth, quoted, opening).text.strip()
        else:  # `#` alone
            text = ""
            self.defer("heading", node, depth, quoted)
        self.headings.append((node, text))
        self.section = text

    def table(self, node: Any, depth: int, quoted: bool) -> None:
        headers: list[str] = []
        section = self.section
        for part in node.children:
            in_head = part.name == "thead"
            for row in part.children:
                for index, cell in enumerate(row.children):
                    start, end = cell.srcmap
                    if in_head:  # as markdown-it-py has it: trimmed, `\|` unescaped
                        cell_start = self.char(start)
                        content = self.text[cell_start : self.char(end)] if end > start else ""
                        headers.append(content.replace("\\|", "|").strip())
                    header = headers[index] if index < len(headers) else None
                    if self.plain(start, end):
                        self.blocks.append(
                            ("table_cell", cell, depth, quoted, section, header, in_head)
                        )
                        self.deferred = True
                    else:
                        inline = cell.children
                        kind, opening = "table_cell", self.char(start)
                        self.inline_block(kind, inline, depth, quoted, opening, header, in_head)

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
        closing = BLOCKQUOTE_MARKERS.sub("", lines.line_text(last).strip()) if is_fence else ""
        closed = (not is_fence) or (
            last > first and len(closing) >= len(marker) and closing == marker[:1] * len(closing)
        )
        lang = info.split()[0].lower() if info else ""
        span = line_span(lines, first, last)
        content_line = first + 1 if is_fence else first
        # Positional, in Fence's field order (keywords cost more).
        fence = Fence(info, lang, content, span, first, content_line, closed, self.section)
        self.doc.fences.append(fence)

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
        """Whether a block's source can hold no code span, link or comment: then
        its Block is built only if someone reads `blocks` (a text with a tab is
        walked in full, for its Misplaced checks)."""
        return not self.verify and self.may_hold(self.scan, start_byte, end_byte) is None

    def defer(self, kind: str, owner: Any, depth: int, quoted: bool) -> None:
        """Leave a block that holds no span as what builds it (`_built_blocks`)."""
        self.blocks.append((kind, owner, depth, quoted, self.section, None, False))
        self.deferred = True

    def run(self, run: list[Any], depth: int, quoted: bool) -> None:
        """A run of a tight list item's inline nodes: a paragraph's Block."""
        start_byte, end_byte = run[0].srcmap[0], run[-1].srcmap[1]
        if self.verify or self.may_hold(self.scan, start_byte, end_byte) is not None:
            self.inline_block("paragraph", run, depth, quoted)
        else:
            self.blocks.append(("paragraph", run, depth, quoted, self.section, None, False))
            self.deferred = True

    def collect(self, block: Block, nodes: list[Any]) -> None:
        # The hottest loop of the walk: spans are made here, not through `checked`.
        doc, text, char, verify = self.doc, self.text, self.char, self.verify
        for node in nodes:
            name = node.name
            if name in _PLAIN_INLINE:
                continue
            if name == "code_inline":
                start, end = node.srcmap
                span = Span(char(start), char(end))
                if verify and not text.startswith("`", span.start):
                    raise Misplaced
                content = None if verify else _code_as_written(text, span.start, span.end)
                if content is None:
                    parts = node.children
                    if len(parts) == 1:  # the usual case: one text node
                        content = parts[0].meta.get("content", "")
                    else:
                        content = "".join(child.meta.get("content", "") for child in parts)
                doc.code_spans.append(CodeSpan(content, span, block))
            elif name in ("link", "autolink"):
                span = self.checked(node, "[" if name == "link" else "<")
                doc.links.append(Link(str(node.meta.get("url", "")), span, block))
                self.collect(block, node.children)
            elif name == "html_inline":
                start, end = node.srcmap
                start = char(start)
                # Only a comment is kept: other tags need not have their content read.
                if verify or text.startswith("<!--", start):
                    content = str(node.meta.get("content", ""))
                    if content.startswith("<!--"):
                        add_comment(doc, content, self.checked(node, "<!--"))
            elif name in ("em", "strong"):
                self.collect(block, node.children)
            # An image's alt text is its own inline parse in markdown-it: the
            # reference records nothing inside it, and neither does this.


def _code_as_written(text: str, start: int, end: int) -> str | None:
    """A code span's content where it is its source between single backticks:
    on one line, not padded with a space at both ends, no `|` (a table cell's `\\|`
    is unescaped); else None (markdown-it's content is read instead)."""
    if end - start < 3 or text[start + 1] == "`":
        return None
    inner = text[start + 1 : end - 1]
    if "\n" in inner or "|" in inner or (inner[0] == " " and inner[-1] == " "):
        return None
    return inner


# A list item left unbuilt: its node's byte range, its depth, whether it is ordered.
_RawItem = tuple[tuple[int, int], int, bool]
# A block left unbuilt: its kind, its node (or a run's inline nodes), list depth,
# whether it is quoted, its section, and a cell's column header and header row.
_Deferred = tuple[str, Any, int, bool, str, "str | None", bool]


def _inline_bytes(inline: list[Any]) -> tuple[int, int]:
    """The byte range of a block's inline nodes (there is at least one)."""
    first = inline[0]
    start_byte = first.srcmap[0] if first.name not in _EMPHASIS else _start_byte(first)
    end_byte: int = inline[-1].srcmap[1]
    return start_byte, end_byte


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
        start_byte, end_byte = _inline_bytes(inline)
        start = char(start_byte)
        end = char(end_byte)
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
    """`MarkdownDocument.blocks`, the deferred Blocks built now."""
    blocks = []
    for entry in entries:
        if isinstance(entry, Block):
            blocks.append(entry)
            continue
        kind, owner, depth, quoted, section, header, header_row = entry
        if isinstance(owner, list):
            inline, opening = owner, None
        else:
            inline, opening = owner.children, char(owner.srcmap[0])
        blocks.append(
            _new_block(
                text,
                line_starts,
                char,
                kind,
                inline,
                depth,
                quoted,
                section,
                opening,
                header,
                header_row,
            )
        )
    return blocks


def _built_headings(
    entries: list[tuple[Any, str] | Heading], lines: LineIndex, char: Any
) -> list[Heading]:
    """`MarkdownDocument.headings`, from each heading's node and text."""
    line_starts = lines.line_starts
    headings = []
    for entry in entries:
        if isinstance(entry, Heading):  # built already (`_Walk.build_now`)
            headings.append(entry)
            continue
        node, text = entry
        inline = node.children
        start_byte, end_byte = node.srcmap
        opening = char(start_byte)
        if node.name == "lheading":  # the reference's span ends with the text, not the underline
            end = char(inline[-1].srcmap[1]) if inline else opening
        else:
            end = char(end_byte)
        first = bisect.bisect_right(line_starts, opening)
        last = bisect.bisect_right(line_starts, max(opening, end - 1))
        span = line_span(lines, first, last)
        plain = "".join(_plain(inline)).strip()
        headings.append(Heading(node.meta["level"], text, span, first, plain))
    return headings


def _list_items(
    raw_items: list[_RawItem | ListItem], lines: LineIndex, char: Any
) -> list[ListItem]:
    items = []
    for entry in raw_items:
        if isinstance(entry, ListItem):  # built already (`_Walk.build_now`)
            items.append(entry)
            continue
        (start_byte, end_byte), depth, ordered = entry
        start, end = char(start_byte), char(end_byte)
        first = bisect.bisect_right(lines.line_starts, start)
        last = bisect.bisect_right(lines.line_starts, max(start, end - 1))
        while last > first and not lines.line_text(last).strip():
            last -= 1  # a loose item's srcmap runs over the blank line after it
        items.append(ListItem(line_span(lines, first, last), first, last, depth, ordered))
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
