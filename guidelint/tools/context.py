"""Where a code span sits in the way tool docs are written (rules/GL104.md).

Server READMEs and guides name tools in a few shapes, and everything else in
backticks is an argument, a field, a value or a command:

- the lead of a list item or table cell: `- `read_file`: Read a file ...`. Its
  lead is the tool; a lead of a list whose other leads are known tools is a tool
  candidate wherever the list stands;
- the description after such a lead: `returns `text/html` in `content``. Those
  spans are arguments and values unless they name a known tool;
- a run of spans joined by commas, `/`, `or`, `and`: when the other spans of the
  run are known tools, every span of the run is a tool candidate (an invented
  sibling in `(`open_ticket`, `drop_ticket`, `list_tickets`)` is caught);
- a prohibition (`never call ...`, `MUST NOT use ...`): an unknown server or tool
  named there is not a defect, the sentence keeps the agent away from it;
- another agent's tools: a line, section or document about VS Code Copilot,
  Gemini, OpenCode, Codex, Cursor, ... or "the harness" names tools this
  project's agent does not have, by design.

The analysis is made once per file and kept with it (SourceFile.derived).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from guidelint.sources import Derived
from guidelint.spans import line_around

if TYPE_CHECKING:
    from guidelint.markdown import Block, CodeSpan
    from guidelint.sources import SourceFile

# Between two spans of a run: `a`, `b`, or `c` / `a` / `b` / `a` and `b`.
RUN_GAP = re.compile(r"^\s*(?:,|/|\||;)?\s*(?:(?:or|and|&)\s+)?$", re.IGNORECASE)
# What may come before the lead span of a block: list marker leftovers, bold, a link.
LEAD_PREFIX = re.compile(r"^\s*(?:\*\*|__|\[|\(|\d+\.\s+)*\s*$")
# A lead written as bold text (`- **read_text_file**`): the item names a tool, in bold.
BOLD_LEAD = re.compile(r"^\s*(\*\*|__)[^*_\s][^*\n]*?(\*\*|__)")
PROHIBITION = re.compile(
    r"\b(not|never|avoid|forbid|forbidden|prohibit|prohibited|disallow|disallowed|"
    r"deny|denied|don't|do not|must not|instead of)\b[^.!?]*$",
    re.IGNORECASE,
)


@dataclass
class SpanPlaces:
    """For one file: which code spans sit in a lead's description, and which runs
    and lists they belong to (ids are span starts)."""

    descriptions: set[int] = field(default_factory=set)
    runs: dict[int, list[CodeSpan]] = field(default_factory=dict)  # start -> its run
    lead_groups: dict[int, list[CodeSpan]] = field(default_factory=dict)  # start -> its list

    def in_description(self, span: CodeSpan) -> bool:
        return span.span.start in self.descriptions

    def run_of(self, span: CodeSpan) -> list[CodeSpan]:
        return self.runs.get(span.span.start, [])

    def list_of(self, span: CodeSpan) -> list[CodeSpan]:
        return self.lead_groups.get(span.span.start, [])


def span_places(spans: list[CodeSpan], text: str) -> SpanPlaces:
    places = SpanPlaces()
    by_block: dict[int, list[CodeSpan]] = {}
    for span in spans:
        by_block.setdefault(id(span.block), []).append(span)
    groups: dict[tuple[str, int, str | None], list[CodeSpan]] = {}
    for block_spans in by_block.values():
        block = block_spans[0].block
        runs = _runs(block_spans, text)
        for run in runs:
            if len(run) > 1:
                for member in run:
                    places.runs[member.span.start] = run
        lead_run = runs[0] if runs and _is_lead(runs[0][0], text) else []
        itemized = block.list_depth > 0 or block.kind == "table_cell"
        if itemized and (lead_run or BOLD_LEAD.match(block.text)):
            lead_ids = {s.span.start for s in lead_run}
            places.descriptions.update(
                s.span.start for s in block_spans if s.span.start not in lead_ids
            )
        if itemized and lead_run:
            key = (block.section, block.list_depth, block.table_header)
            groups.setdefault(key, []).append(lead_run[0])
    for group in groups.values():
        for lead in group:
            places.lead_groups[lead.span.start] = group
    return places


def _runs(spans: list[CodeSpan], text: str) -> list[list[CodeSpan]]:
    """The block's spans cut into runs: neighbours with only a separator between."""
    runs: list[list[CodeSpan]] = [[spans[0]]]
    for before, span in zip(spans, spans[1:], strict=False):
        gap = text[before.span.end : span.span.start]
        if len(gap) <= 12 and RUN_GAP.match(gap):
            runs[-1].append(span)
        else:
            runs.append([span])
    return runs


def _is_lead(span: CodeSpan, text: str) -> bool:
    block: Block = span.block
    start = block.offset(0) if block.text else span.span.start
    return start <= span.span.start and bool(LEAD_PREFIX.match(text[start : span.span.start]))


def mostly_known(others: list[CodeSpan], is_tool: Callable[[str], bool]) -> bool:
    """At least one of the other spans is a known tool, and at least half of them."""
    known = sum(1 for s in others if is_tool(s.content.strip()))
    return known >= 1 and 2 * known >= len(others)


def in_prohibition(span: CodeSpan, text: str) -> bool:
    """`never call `mcp__x__y``, `MUST NOT use ...`: the sentence keeps the agent away."""
    before, _ = line_around(text, span.span.start, span.span.end, 80, 0)
    return bool(PROHIBITION.search(before))


# Other coding agents and "the harness": their tool names are not this agent's.
OTHER_AGENT = re.compile(
    r"\b(VS ?Code|Copilot|Gemini|OpenCode|Codex|Cursor|Windsurf|Cline|Kimi|Grok|Devin|"
    r"Aider|Roo ?Code|Kiro|harness(es)?)\b",
    re.IGNORECASE,
)


def about_another_agent(span: CodeSpan, file: SourceFile, title: str) -> bool:
    """The span's line, section, table column or document names another agent."""
    breaks, mentions = file.derived(AGENT_MENTIONS)
    before = bisect_left(breaks, span.span.start)  # line breaks before the span
    line_start = breaks[before - 1] + 1 if before else 0
    after = bisect_left(breaks, span.span.end)
    line_end = breaks[after] if after < len(breaks) else len(file.text)
    first = bisect_left(mentions, line_start)
    if first < len(mentions) and mentions[first] < line_end:
        return True
    block = span.block
    return any(names_another_agent(part) for part in (block.section, block.table_header, title))


def _agent_mentions(file: SourceFile) -> tuple[list[int], list[int]]:
    """Where the file's lines break, and where another agent is named: read once per
    file, so a long line of many spans is not searched once per span. A name never
    spans a line break, so a line names an agent when a mention starts in it."""
    breaks = [m.start() for m in LINE_FEED.finditer(file.text)]
    return breaks, [m.start() for m in OTHER_AGENT.finditer(file.text)]


AGENT_MENTIONS = Derived("tools.agent-mentions", _agent_mentions)
LINE_FEED = re.compile("\n")


@lru_cache(maxsize=256)
def names_another_agent(text: str | None) -> bool:
    """A section, column header or title names another agent (asked once per span:
    the answer for one long heading is kept)."""
    return bool(text and OTHER_AGENT.search(text))
