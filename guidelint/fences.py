"""Fences that cross: a fence closed early by a fence nested in it, and the text that
leaves as prose (GL503 reports the fence; GL401, GL501 and GL502 leave that text alone).

A ```` ```markdown ```` example that shows a ```` ```python ```` block with fences of
the same length ends where the inner block ends: its closing ```` ``` ```` closes the
outer fence, the rest of the example becomes prose (its example links and paths
live), and the outer fence's own closing line opens a new block.

Fences left open: one inside a list item or a block quote is closed by its
container's end (`runs_to_end` tells the ones that run to the page's end), unless
its author's closing line failed there (`misplaced_close`).
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

from guidelint.lazy_re import LazyPattern
from guidelint.markdown import Fence, MarkdownDocument
from guidelint.sources import Derived, SourceFile

FENCE_MARKER = re.compile(r"[ \t]*(`{3,}|~{3,})")
# An opening fence inside a fence's content: a marker with an info string (not a
# template's tag: ```` ```{% endif %} ```` renders as a bare closing fence).
INNER_OPENER = LazyPattern(
    r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*(?:\w|\{(?![%{#]))[^`\n]*$", re.MULTILINE
)
# A Jinja template's closing fence: the marker, then only tags (```` ```{% endif %} ````).
TEMPLATE_CLOSE = LazyPattern(
    r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*(?:\{%[^%\n]*%\}[ \t]*)+$", re.MULTILINE
)


def nested_fences(text: str, doc: MarkdownDocument) -> list[tuple[Fence, str]]:
    """Fences whose content opens a fence of the same character and at least the same
    length (the inner block's closing line then closes them), with that inner opener."""
    found: list[tuple[Fence, str]] = []
    fences = doc.fences
    leftover = _last_unclosed_bare(text, fences)
    outer = _outer_example(text, fences)
    nested_before = False  # whether the fence before this one is a nested one
    for index, fence in enumerate(fences):
        after_nested, nested_before = nested_before, False
        if outer is not None and outer.position < index:
            continue  # the outer example's inner blocks, read out of step: one defect
        if outer is not None and outer.position == index:
            found.append((fence, outer.inner))
            nested_before = True
            continue
        if not fence.closed or "```" not in fence.content and "~~~" not in fence.content:
            continue
        # A bare fence holding an opener: often a parse out of step, not nesting. It is
        # the outer one where a bare fence after it is left unclosed (the outer's own
        # closing line, without a partner once the inner close ended it), unless an
        # outer fence's early close opened it.
        if not fence.lang and (index >= leftover or after_nested):
            continue
        inner = _unclosed_inner_opener(text, fence)
        if inner:
            found.append((fence, inner))
            nested_before = True
    return found


# The languages of an example that shows a document, code blocks and all.
DOCUMENT_LANGS = frozenset({"markdown", "md", "mdx", "gfm"})


class OuterExample(NamedTuple):
    """A Markdown example whose inner blocks' bare fences the parser reads out of step."""

    position: int  # the example's fence, in the document's fences
    inner: str  # its first inner block's opener, which the parser takes for its close


def _outer_example(text: str, fences: list[Fence]) -> OuterExample | None:
    """A ```` ```markdown ```` example that holds bare ```` ``` ```` blocks of its own
    length, found from the stray fence at the end of the document: the fence lines
    from the example to that stray pair up as its inner blocks (each opener, with an
    info string or bare, closed by the next bare line), so the stray is the example's
    own closing line, and its first inner opener closed it early. The first such
    example after the last fence of another character or length than the stray's."""
    if not fences or fences[-1].closed or not runs_to_end(text, fences[-1]):
        return None
    stray = fence_marker(text, fences[-1])
    if fences[-1].lang or not stray:
        return None
    lines = _marker_lines(text, fences[:-1], stray)
    # pairs[i]: lines[i:] pair up as blocks, each an opener and a bare close after it.
    pairs = [False] * (len(lines) + 2)
    pairs[len(lines)] = True
    for i in range(len(lines) - 2, -1, -1):
        pairs[i] = lines[i + 1].kind == BARE and pairs[i + 2]
    for i, line in enumerate(lines[:-1]):
        if line.fence is not None and line.lang in DOCUMENT_LANGS and pairs[i + 1]:
            if _opener_shaped(text, lines[i + 1].offset):
                return OuterExample(line.fence, text_of_line(text, lines[i + 1].offset))
    return None


BARE, OPENER = "bare", "opener"


class MarkerLine(NamedTuple):
    """A fence's opening or closing line: bare, or an opener with an info string."""

    kind: str
    offset: int
    fence: int | None  # the index of the fence it opens (None: a closing line)
    lang: str


def _marker_lines(text: str, fences: list[Fence], stray: str) -> list[MarkerLine]:
    lines: list[MarkerLine] = []
    for index, fence in enumerate(fences):
        marker = fence_marker(text, fence)
        if not marker:
            continue  # an indented code block: no fence line
        if marker != stray or not fence.closed:
            lines = []  # another fence's lines cross these: read from after it
            continue
        kind = OPENER if fence.info else BARE
        lines.append(MarkerLine(kind, fence.span.start, index, fence.lang))
        closing = text.rfind("\n", 0, fence.span.end - 1) + 1
        # Openers in the content (a closing line takes no info string, so the parser
        # reads ```` ```markdown ```` there as code): the author's inner blocks' openers.
        content = text.find("\n", fence.span.start) + 1
        for inner in INNER_OPENER.finditer(text, content, closing):
            if inner.group(1) == stray:
                lines.append(MarkerLine(OPENER, inner.start(), None, ""))
        lines.append(MarkerLine(BARE, closing, None, ""))
    return lines


def _opener_shaped(text: str, offset: int) -> bool:
    """The fence line at `offset` reads as an opener: its block's first line right
    after it, and a blank line (or a lead-in ending in `:`) before it; a close ends
    content and has a blank line after it."""
    before_end = offset - 1
    before = text_of_line(text, text.rfind("\n", 0, max(before_end, 0)) + 1)
    after_start = text.find("\n", offset) + 1
    after = text_of_line(text, after_start) if after_start else ""
    return bool(after) and (not before or before.endswith(":"))


def text_of_line(text: str, offset: int) -> str:
    end = text.find("\n", offset)
    return text[offset : len(text) if end < 0 else end].strip()


def _last_unclosed_bare(text: str, fences: list[Fence]) -> int:
    """The index of the last bare fence left unclosed, -1 where there is none."""
    for index in range(len(fences) - 1, -1, -1):
        fence = fences[index]
        if not fence.closed and not fence.lang and fence_marker(text, fence):
            return index
    return -1


def _unclosed_inner_opener(text: str, fence: Fence) -> str:
    """The opener of a same-marker fence inside the fence whose closing line ends the
    fence early, or "" where there is none."""
    marker = fence_marker(text, fence)
    if not marker:
        return ""  # an indented code block (a tab's or a list's content), no fence
    for match in INNER_OPENER.finditer(fence.content):
        inner = match.group(1)
        if inner[0] == marker[0] and len(inner) >= len(marker):
            closed_before = TEMPLATE_CLOSE.search(fence.content, 0, match.start())
            if closed_before or _last_inner_closed(fence.content, inner):
                return ""  # a template's tagged close ends the fence first, as rendered
            return match.group(0).strip()
    return ""


# A line that starts with a fence marker but is not an opener: ```` ```<end_code> ````.
MARKER_LINE = LazyPattern(r"^[ \t]{0,3}(`{3,}|~{3,})(.*)$", re.MULTILINE)


def _last_inner_closed(content: str, inner: str) -> bool:
    """Whether the content's last inner block is ended, in the author's eyes, before the
    outer fence's end: a line after its opener starts with the same marker
    (```` ```<end_code> ````, a prompt's delimiter). A closing fence may carry no info
    string (CommonMark), so that line closes nothing: the outer block runs on to its
    own bare close, as written, and no inner close ends it early."""
    openers = [m for m in INNER_OPENER.finditer(content) if m.group(1)[0] == inner[0]]
    after = openers[-1].end()
    for line in MARKER_LINE.finditer(content, after):
        marker = line.group(1)
        if marker[0] == inner[0] and not INNER_OPENER.fullmatch(line.group(0)):
            return True
    return False


def exposed_regions(text: str, doc: MarkdownDocument) -> list[tuple[int, int]]:
    """The text an early-closed fence leaves as prose: from its (early) end to the next
    fence, which its own closing line opens. GL501 and GL502 skip spans there."""
    if "```" not in text and "~~~" not in text:
        return []
    nested = {id(fence) for fence, _ in nested_fences(text, doc)}
    if not nested:
        return []
    regions = []
    fences = doc.fences
    for index, fence in enumerate(fences):
        if id(fence) in nested:
            end = fences[index + 1].span.start if index + 1 < len(fences) else len(text)
            regions.append((fence.span.end, end))
    return regions


def exposed(file: SourceFile) -> list[tuple[int, int]]:
    """`exposed_regions` of a file, worked out once (rules ask it per span or link)."""
    return file.derived(EXPOSED)


EXPOSED = Derived("fences.exposed", lambda file: exposed_regions(file.text, file.markdown))


def in_regions(offset: int, regions: list[tuple[int, int]]) -> bool:
    """Whether an offset lies in one of the regions (sorted, not overlapping)."""
    index = bisect.bisect_right(regions, (offset, float("inf"))) - 1
    return index >= 0 and regions[index][0] <= offset < regions[index][1]


def runs_to_end(text: str, fence: Fence) -> bool:
    """Whether an unclosed fence runs to the end of the text. One inside a list item or
    a block quote ends with its container (CommonMark): the next line back at the
    margin, or the next item, closes it, and the text after it is not code."""
    return fence.closed or not text[fence.span.end :].strip()


# A closing line that closes nothing: the marker with only punctuation after it
# (```` ```} ````, a typo's leftover), or alone but indented too far.
FAILED_CLOSE = LazyPattern(r"(`{3,}|~{3,})([^\w\s`~]*)")


def misplaced_close(file: SourceFile, fence: Fence) -> int | None:
    """The line of a closing fence that failed to close `fence`, an unclosed fence its
    container ended: in the content, a line of the marker alone (indented four spaces
    or more past the list item's content, it is code) or with punctuation after it
    (```` ```} ````); or the next fence line after the block's end, a bare one, which
    the container's early end (a hard-wrapped code line back at the item's margin)
    left outside it. None where there is none."""
    text = file.text
    marker = fence_marker(text, fence)
    if fence.closed or not marker:
        return None
    for offset, line in enumerate(fence.content.split("\n")):
        if _closes_like(line, marker):
            return fence.content_line + offset
    lines = file.derived(MARKER_LINES)
    later = bisect.bisect_left(lines, (fence.span.end, ""))
    if later < len(lines) and _closes_like(lines[later][1], marker):
        between = text[fence.span.end : lines[later][0]]
        if not BLANK_LINE.search(between):  # the same run of lines: the code, cut
            return text.count("\n", 0, lines[later][0]) + 1
    return None


def _closes_like(line: str, marker: str) -> bool:
    close = FAILED_CLOSE.fullmatch(line.strip())
    if close is None:
        return False
    return close.group(1)[0] == marker[0] and len(close.group(1)) >= len(marker)


BLANK_LINE = LazyPattern(r"\n[ \t\r]*\n")
# Every line that starts with a fence marker, at any indentation: its offset and text.
ANY_MARKER_LINE = LazyPattern(r"^[ \t]*(?:`{3,}|~{3,}).*$", re.MULTILINE)
MARKER_LINES = Derived(
    "fences.marker_lines",
    lambda file: [(m.start(), m.group(0)) for m in ANY_MARKER_LINE.finditer(file.text)],
)


def misplaced_close_message(file: SourceFile, fence: Fence, close: int) -> str:
    """Why the closing line at `close` leaves `fence` open, and what to do."""
    text = file.text
    marker = fence_marker(text, fence)
    end = text.count("\n", 0, fence.span.end) + 1  # the block's last line
    if close > end:
        return (
            f"its list item ends after line {end} (a line indented less than the item's "
            f"content), before its closing {marker} at line {close}: the code after that "
            "line is no code (indent every code line as the fence)"
        )
    line = fence.content.split("\n")[close - fence.content_line].strip()
    match = FAILED_CLOSE.fullmatch(line)
    trailing = match.group(2) if match else ""
    if trailing:
        return (
            f"the {marker} at line {close} has `{trailing}` after it, so it is code and "
            "the block runs on to the end of its list item (put the closing fence on a "
            "line of its own)"
        )
    return (
        f"the {marker} at line {close} is indented four spaces or more past its list "
        "item's content, so it is code and the block runs on to the item's end (indent "
        "it as the opening fence)"
    )


def fence_marker(text: str, fence: Fence) -> str:
    """The fence's opening backticks or tildes; "" for an indented code block (its
    content starts on its first line, a fence's on the line after)."""
    if fence.content_line == fence.line:
        return ""
    match = FENCE_MARKER.match(text, fence.span.start)
    return match.group(1) if match else ""
