"""GL503 broken-fence: a code fence that an inner fence closes early, or one never closed.

A ```` ```markdown ```` example that shows a ```` ```python ```` block with fences of
the same length ends where the inner block ends: its closing ```` ``` ```` closes the
outer fence, the rest of the example becomes prose (its example links and paths
live), and the outer fence's own closing line opens a new block that swallows the
prose after it. The defect is the fence, reported once at the outer fence's opening
line; GL501 and GL502 leave the text it exposes alone (`exposed_regions`).

A fence opener right under an HTML line (`<pt>` then ```` ```python ````, no blank
line between) is part of that HTML block in CommonMark: the block runs to the next
blank line, and the code's closing fence then opens a fence that is never closed.
Reported once, at the swallowed opener, except on a Hugging Face doc-builder page (a
`_toctree.yml` above it), whose site reads the tags' content as Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from guidelint.doc_kind import is_fixture
from guidelint.fences import (
    fence_marker,
    misplaced_close,
    misplaced_close_message,
    nested_fences,
    runs_to_end,
)
from guidelint.findings import Finding, Severity
from guidelint.markdown import Fence
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.rules.broken_link.anchors import doc_builder_page
from guidelint.sources import FileKind, SourceFile
from guidelint.spans import Span

PYTHON = frozenset({"python", "py", "python3", "pycon"})  # GL401 reports these unclosed


class BrokenFence(Rule):
    code = "GL503"
    name = "broken-fence"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    scope = "fenced"

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        # A test fixture's crossed fences are the input a Markdown tool is tested on.
        # MDX reads a JSX block (`<CodeGroup>`) differently from CommonMark: its fences
        # cannot be judged by a CommonMark parse.
        mdx = file.rel.lower().endswith(".mdx")
        fenced = "```" in file.text or "~~~" in file.text
        return file.kind == FileKind.MARKDOWN and fenced and not mdx and not is_fixture(file.rel)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        nested = nested_fences(file.text, file.markdown)
        for fence, inner in nested:
            marker = fence_marker(file.text, fence)
            longer = marker[0] * (len(marker) + 1)
            if inner == marker:  # bare inner blocks: the first one's opener closes it
                message = (
                    f"the {marker}{fence.lang} fence opened here holds bare {marker} blocks "
                    f"of the same length: the first one's opening {marker} ends this one "
                    f"early, and the fences after it pair up out of step (open and close "
                    f"the outer fence with {longer})"
                )
            else:
                message = (
                    f"the {marker}{fence.lang} fence opened here holds a {inner} fence of "
                    f"the same length: the inner block's closing {marker} ends this one "
                    f"early (open and close the outer fence with {longer})"
                )
            yield self.finding(file, _opening_line(file, fence), message)
        nested_ids = {id(fence) for fence, _ in nested}
        fences = file.markdown.fences
        after_nested = False  # whether a nested fence comes before this one
        for index, fence in enumerate(fences):
            after_nested = after_nested or bool(index and id(fences[index - 1]) in nested_ids)
            if fence.closed or fence.lang in PYTHON or not fence_marker(file.text, fence):
                continue
            if index and id(fences[index - 1]) in nested_ids:
                continue  # opened by a nested fence's own closing line: one defect, above
            if not fence.lang and after_nested:
                continue  # a nested fence's closing line, out of step after it: the same
            swallowed = _swallowed_opener(file, fence)
            if swallowed is not None:
                yield from self._swallowed(file, project, fence, swallowed)
                continue
            if not runs_to_end(file.text, fence):
                # A list item's or a quote's end closed it: nothing runs on, unless its
                # author's closing line, indented too far, shows as code there.
                close = misplaced_close(file, fence)
                if close is not None:
                    yield self.finding(
                        file,
                        _opening_line(file, fence),
                        f"the {fence_marker(file.text, fence)}{fence.lang} fence opened "
                        f"here is not closed: {misplaced_close_message(file, fence, close)}",
                    )
                continue
            yield self.finding(
                file,
                _opening_line(file, fence),
                f"the {fence_marker(file.text, fence)}{fence.lang} fence opened here is never "
                "closed (everything after it is code)",
            )

    def _swallowed(
        self, file: SourceFile, project: Project, leftover: Fence, swallowed: Swallowed
    ) -> Iterator[Finding]:
        """The unclosed fence is the closing line of an opener an HTML block took in."""
        if doc_builder_page(file.rel, project):
            return  # doc-builder renders `<pt>`'s fence as code: the page is right there
        start = file.lines.offset(swallowed.line)
        yield self.finding(
            file,
            Span(start, file.lines.line_end(swallowed.line)),
            f"the {swallowed.opener} fence opened here is taken into the HTML block that "
            f"starts at line {swallowed.html_line} (no blank line ends that block before "
            f"it): it shows as text, and the {fence_marker(file.text, leftover)} at line "
            f"{leftover.line} opens a fence that is never closed (put a blank line before "
            "the fence)",
        )


@dataclass(frozen=True)
class Swallowed:
    """A fence opener inside an HTML block: its line, its text, the block's first line."""

    line: int
    opener: str
    html_line: int


MARKER = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})(.*)$")


def _swallowed_opener(file: SourceFile, leftover: Fence) -> Swallowed | None:
    """The fence opener an HTML block holds without its close, when the unclosed
    `leftover` fence is the first fence after that block and would have closed it."""
    marker = fence_marker(file.text, leftover)
    if leftover.lang or not marker or "<" not in file.text:
        return None
    # The code after the swallowed opener, indented as in the HTML block, may read as
    # indented code blocks (no marker): those are no fence the leftover could close.
    earlier = [
        f.line
        for f in file.markdown.fences
        if f.line < leftover.line and fence_marker(file.text, f)
    ]
    block = _last_html_block_before(file, leftover.line)
    if block is None or (earlier and earlier[-1] > block[0]):
        return None  # another fence comes between: the leftover is not this close
    first, content = block
    opener = _open_at_end(content, marker)
    if opener is None:
        return None
    offset, text = opener
    return Swallowed(first + offset, text, first)


def _last_html_block_before(file: SourceFile, line: int) -> tuple[int, str] | None:
    """The last HTML block ending before `line`: its first line (1-based) and text."""
    found = None
    for token in file.markdown.tokens:
        if token.type == "html_block" and token.map and token.map[1] < line:
            found = (token.map[0] + 1, token.content)
    return found


def _open_at_end(content: str, marker: str) -> tuple[int, str] | None:
    """The opener (its line offset in `content`, and its text) of a fence of `marker`'s
    character that `content` opens and leaves open, where `marker` would close it."""
    opener: tuple[int, str, int] | None = None  # offset, text, marker length
    for offset, line in enumerate(content.splitlines()):
        match = MARKER.match(line)
        if not match or match.group(1)[0] != marker[0]:
            continue
        fence, rest = match.group(1), match.group(2).strip()
        if opener is None:
            if marker[0] == "~" or "`" not in rest:
                opener = (offset, line.strip(), len(fence))
        elif not rest and len(fence) >= opener[2]:
            opener = None  # closed inside the block: nothing leaks out of it
    if opener is None or len(marker) < opener[2]:
        return None
    return opener[0], opener[1]


def _opening_line(file: SourceFile, fence: Fence) -> Span:
    start = file.lines.offset(fence.line)
    return Span(start, file.lines.line_end(fence.line))
