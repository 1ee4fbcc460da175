"""The tool lists of agent/skill front matter, with exact offsets.

`tools: Read, Grep, mcp__lab__job_submit` (a comma- or space-separated string), an inline
YAML list `[Read, Grep]`, or a block list of `- Read` lines, read with the YAML front
matter model (`guidelint.frontmatter`): comments (`Bash  # never shell`) are not tools,
a list may span lines, and commas inside parentheses (`Agent(a, b)`) do not split.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.frontmatter import front_matter, front_text, string_items
from guidelint.spans import Span

if TYPE_CHECKING:
    from guidelint.sources import SourceFile

TOOL_KEYS = ("tools", "disallowedTools", "allowed-tools", "disallowed-tools")


def may_name_tools(file: SourceFile) -> bool:
    """Whether the file's front matter may hold one of TOOL_KEYS: each has `tools` or
    `Tools` in its name, which only a double-quoted key's escapes could spell otherwise.
    False: `tool_entries` is empty, and no YAML need be composed to know."""
    front = front_text(file)
    return front is not None and ("ools" in front.text or "\\" in front.text)


def tool_entries(file: SourceFile) -> Iterator[tuple[str, str, Span]]:
    """(key, tool name, span) for every tool named in the front matter, in file order."""
    data = front_matter(file)
    if data is None:
        return
    found = [
        (key, name, span)
        for key in TOOL_KEYS
        if (entry := data.entries.get(key)) is not None
        for name, span in string_items(entry)
    ]
    yield from sorted(found, key=lambda item: item[2].start)
