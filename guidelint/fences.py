"""Fences that cross: a fence closed early by a fence nested in it, and the text that
leaves as prose (GL503 reports the fence; GL401, GL501 and GL502 leave that text alone).

A ```` ```markdown ```` example that shows a ```` ```python ```` block with fences of
the same length ends where the inner block ends: its closing ```` ``` ```` closes the
outer fence, the rest of the example becomes prose (its example links and paths
live), and the outer fence's own closing line opens a new block.
"""

from __future__ import annotations

import bisect
import re

from guidelint.lazy_re import LazyPattern
from guidelint.markdown import Fence, MarkdownDocument
from guidelint.sources import Derived, SourceFile

FENCE_MARKER = re.compile(r"[ \t]*(`{3,}|~{3,})")
# An opening fence inside a fence's content: a marker with an info string.
INNER_OPENER = LazyPattern(r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*[\w{][^`\n]*$", re.MULTILINE)


def nested_fences(text: str, doc: MarkdownDocument) -> list[tuple[Fence, str]]:
    """Fences whose content opens a fence of the same character and at least the same
    length (the inner block's closing line then closes them), with that inner opener."""
    found = []
    for fence in doc.fences:
        if not fence.closed or "```" not in fence.content and "~~~" not in fence.content:
            continue
        if not fence.lang:
            continue  # a bare fence holding an opener: often a parse out of step, not nesting
        marker = fence_marker(text, fence)
        if not marker:
            continue  # an indented code block (a tab's or a list's content), no fence
        for match in INNER_OPENER.finditer(fence.content):
            inner = match.group(1)
            if inner[0] == marker[0] and len(inner) >= len(marker):
                if not _last_inner_closed(fence.content, inner):
                    found.append((fence, match.group(0).strip()))
                break
    return found


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


def fence_marker(text: str, fence: Fence) -> str:
    """The fence's opening backticks or tildes; "" for an indented code block (its
    content starts on its first line, a fence's on the line after)."""
    if fence.content_line == fence.line:
        return ""
    match = FENCE_MARKER.match(text, fence.span.start)
    return match.group(1) if match else ""
