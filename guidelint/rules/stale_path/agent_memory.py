"""A memory file an agent keeps and writes at run time, as its instructions say.

A bot's skill says "You MUST maintain `tools/bot/lessons-learned.md`" under a heading
"Memory Structure", and later "**Read Memory**: Read `tools/bot/lessons-learned.md`":
the file is the agent's persistent memory, written by its runs (and often kept on a
branch of its own), not a committed file this checkout lacks. The document must say
both that the file is memory (a ledger, a journal, a scratchpad), in the paragraph or
its section's heading, and that the agent writes it (maintain, update, record, append,
write, save); every mention of that path in the document is then about the same file.
Only data files count: a memory module's source (`src/memory/store.py`) is code.
"""

from __future__ import annotations

import posixpath
import re

from guidelint.lazy_re import LazyPattern
from guidelint.rules.stale_path.candidates import candidate_path
from guidelint.rules.stale_path.sentences import CODE_SPAN_TEXT
from guidelint.sources import SourceFile

MEMORY = LazyPattern(
    r"\b(?:memory|memories|ledger|journal|scratch ?pad|lessons[- ]learned)\b", re.IGNORECASE
)

WRITES = LazyPattern(
    r"\b(?:maintain|update|record|append|write|save|persist|log)(?:s|ed|ing)?\b", re.IGNORECASE
)

# What a memory is kept in: notes and records, never source code.
DATA_SUFFIXES = (".md", ".json", ".jsonl", ".txt", ".yaml", ".yml", ".log", ".csv", ".toml")


def memory_files(file: SourceFile) -> set[str]:
    """The paths this document calls an agent's memory and tells the agent to write."""
    found: set[str] = set()
    said: dict[int, bool] = {}  # per paragraph (by id): read once, not once per path in it
    for span in file.markdown.code_spans:
        path = candidate_path(span.content) if "/" in span.content else None
        if path is None or not posixpath.basename(path).endswith(DATA_SUFFIXES):
            continue
        block = span.block
        if id(block) not in said:
            said[id(block)] = _says_memory_written(block.text, block.section)
        if said[id(block)]:
            found.add(path)
    return found


def _says_memory_written(text: str, section: str) -> bool:
    # The words, not the paths: `src/memory/x.md` says nothing of what the file is.
    words = CODE_SPAN_TEXT.sub("", text)
    heading = CODE_SPAN_TEXT.sub("", section)
    return bool(WRITES.search(words) and (MEMORY.search(words) or MEMORY.search(heading)))
