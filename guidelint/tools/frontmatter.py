"""The tool lists of agent/skill front matter, with exact offsets.

`tools: Read, Grep, mcp__lab__job_submit` (a comma- or space-separated string), an inline
YAML list `[Read, Grep]`, or a block list of `- Read` lines. Commas inside
parentheses (`Agent(a, b)`) do not split.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.spans import Span

if TYPE_CHECKING:
    from guidelint.sources import SourceFile

TOOL_KEYS = ("tools", "disallowedTools", "allowed-tools", "disallowed-tools")
KEY = re.compile(r"^(?P<key>[A-Za-z_][\w\-]*)\s*:(?P<value>.*)$")
ITEM = re.compile(r"^\s+-\s+(?P<value>.*)$")


def tool_entries(file: SourceFile) -> Iterator[tuple[str, str, Span]]:
    """(key, tool name, span) for every tool named in the front matter."""
    from guidelint.markdown import front_matter_of

    front = front_matter_of(file.text)  # the document's own, without parsing it all
    if front is None:
        return
    offset = file.text.index("\n") + 1
    key = None
    for line in front.text.splitlines(keepends=True):
        match = KEY.match(line)
        if match:
            key = match.group("key") if match.group("key") in TOOL_KEYS else None
            if key:
                start = offset + match.start("value")
                yield from _split(key, match.group("value"), start)
        elif key and (item := ITEM.match(line)):
            yield from _split(key, item.group("value"), offset + item.start("value"))
        elif line.strip() and not line[0].isspace():
            key = None
        offset += len(line)


def _split(key: str, value: str, start: int) -> Iterator[tuple[str, str, Span]]:
    """Split on commas or whitespace outside parentheses; strip quotes and brackets.

    Skills' `allowed-tools: Read Grep Bash` is space-separated, agents' `tools:`
    comma-separated; `Bash(git diff:*)` keeps its inner space.
    """
    depth, begin = 0, 0
    for index, char in enumerate(value + ","):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif (char == "," or char.isspace()) and depth == 0:
            yield from _entry(key, value[begin:index], start + begin)
            begin = index + 1


def _entry(key: str, raw: str, start: int) -> Iterator[tuple[str, str, Span]]:
    stripped = raw.strip().strip("[]").strip().strip("'\"").strip()
    if not stripped or stripped.startswith("#"):
        return
    at = raw.find(stripped)
    yield key, stripped, Span(start + at, start + at + len(stripped))
