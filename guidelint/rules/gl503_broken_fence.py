"""GL503 broken-fence: a code fence that an inner fence closes early, or one never closed.

A ```` ```markdown ```` example that shows a ```` ```python ```` block with fences of
the same length ends where the inner block ends: its closing ```` ``` ```` closes the
outer fence, the rest of the example becomes prose (its example links and paths
live), and the outer fence's own closing line opens a new block that swallows the
prose after it. The defect is the fence, reported once at the outer fence's opening
line; GL501 and GL502 leave the text it exposes alone (`exposed_regions`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from guidelint.doc_kind import is_fixture
from guidelint.findings import Finding, Severity
from guidelint.lazy_re import LazyPattern
from guidelint.markdown import Fence, MarkdownDocument
from guidelint.project import Project
from guidelint.rules.base import Rule
from guidelint.sources import SourceFile
from guidelint.spans import Span

FENCE_MARKER = re.compile(r"[ \t]*(`{3,}|~{3,})")
# An opening fence inside a fence's content: a marker with an info string.
INNER_OPENER = LazyPattern(r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*[\w{][^`\n]*$", re.MULTILINE)
PYTHON = frozenset({"python", "py", "python3", "pycon"})  # GL401 reports these unclosed


class BrokenFence(Rule):
    code = "GL503"
    name = "broken-fence"
    summary = "A code fence is closed early by a fence nested inside it, or is never closed."
    severity = Severity.ERROR
    file_kinds = frozenset({"markdown"})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        # A test fixture's crossed fences are the input a Markdown tool is tested on.
        # MDX reads a JSX block (`<CodeGroup>`) differently from CommonMark: its fences
        # cannot be judged by a CommonMark parse.
        mdx = file.rel.lower().endswith(".mdx")
        fenced = "```" in file.text or "~~~" in file.text
        return file.kind == "markdown" and fenced and not mdx and not is_fixture(file.rel)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        nested = nested_fences(file.text, file.markdown)
        for fence, inner in nested:
            marker = _marker(file.text, fence)
            yield self.finding(
                file,
                _opening_line(file, fence),
                f"the {marker}{fence.lang} fence opened here holds a {inner} fence of the "
                f"same length: the inner block's closing {marker} ends this one early "
                f"(open and close the outer fence with {marker[0] * (len(marker) + 1)})",
            )
        nested_ids = {id(fence) for fence, _ in nested}
        fences = file.markdown.fences
        for index, fence in enumerate(fences):
            if fence.closed or fence.lang in PYTHON or not _marker(file.text, fence):
                continue
            if index and id(fences[index - 1]) in nested_ids:
                continue  # opened by a nested fence's own closing line: one defect, above
            yield self.finding(
                file,
                _opening_line(file, fence),
                f"the {_marker(file.text, fence)}{fence.lang} fence opened here is never "
                "closed (everything after it is code)",
            )


def nested_fences(text: str, doc: MarkdownDocument) -> list[tuple[Fence, str]]:
    """Fences whose content opens a fence of the same character and at least the same
    length (the inner block's closing line then closes them), with that inner opener."""
    found = []
    for fence in doc.fences:
        if not fence.closed or "```" not in fence.content and "~~~" not in fence.content:
            continue
        if not fence.lang:
            continue  # a bare fence holding an opener: often a parse out of step, not nesting
        marker = _marker(text, fence)
        if not marker:
            continue  # an indented code block (a tab's or a list's content), no fence
        for match in INNER_OPENER.finditer(fence.content):
            inner = match.group(1)
            if inner[0] == marker[0] and len(inner) >= len(marker):
                found.append((fence, match.group(0).strip()))
                break
    return found


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


def in_regions(offset: int, regions: list[tuple[int, int]]) -> bool:
    return any(start <= offset < end for start, end in regions)


def _marker(text: str, fence: Fence) -> str:
    """The fence's opening backticks or tildes; "" for an indented code block (its
    content starts on its first line, a fence's on the line after)."""
    if fence.content_line == fence.line:
        return ""
    match = FENCE_MARKER.match(text, fence.span.start)
    return match.group(1) if match else ""


def _opening_line(file: SourceFile, fence: Fence) -> Span:
    start = file.lines.offset(fence.line)
    return Span(start, file.lines.line_end(fence.line))
