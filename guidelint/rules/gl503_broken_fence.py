"""GL503 broken-fence: a code fence that an inner fence closes early, or one never closed.

A ```` ```markdown ```` example that shows a ```` ```python ```` block with fences of
the same length ends where the inner block ends: its closing ```` ``` ```` closes the
outer fence, the rest of the example becomes prose (its example links and paths
live), and the outer fence's own closing line opens a new block that swallows the
prose after it. The defect is the fence, reported once at the outer fence's opening
line; GL501 and GL502 leave the text it exposes alone (`exposed_regions`).
"""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.doc_kind import is_fixture
from guidelint.fences import fence_marker, nested_fences
from guidelint.findings import Finding, Severity
from guidelint.markdown import Fence
from guidelint.project import Project
from guidelint.rule import Rule
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
            yield self.finding(
                file,
                _opening_line(file, fence),
                f"the {marker}{fence.lang} fence opened here holds a {inner} fence of the "
                f"same length: the inner block's closing {marker} ends this one early "
                f"(open and close the outer fence with {marker[0] * (len(marker) + 1)})",
            )
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
            yield self.finding(
                file,
                _opening_line(file, fence),
                f"the {fence_marker(file.text, fence)}{fence.lang} fence opened here is never "
                "closed (everything after it is code)",
            )


def _opening_line(file: SourceFile, fence: Fence) -> Span:
    start = file.lines.offset(fence.line)
    return Span(start, file.lines.line_end(fence.line))
