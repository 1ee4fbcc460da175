"""Which code spans GL501 reads as repository paths at all.

One token with a `/`, made only of path characters, not a URL, an absolute or home
path, a placeholder (`placeholders.py`) or an MCP method (`conventions.py`); a
`:LINE` or `#anchor` suffix is dropped first. Most code spans hold no `/` and are
never looked at further.
"""

from __future__ import annotations

import re

from guidelint.rules.stale_path.conventions import mcp_method
from guidelint.rules.stale_path.placeholders import is_placeholder

PATH_CHARS = re.compile(r"^[\w.@+\-/]+$")

LOCATION_SUFFIX = re.compile(r"(:\d+(-\d+)?(:\d+)?|#[\w\-.]*)$")


def candidate_path(text: str) -> str | None:
    """The repository path a code span names, or None if it is not one."""
    if "/" not in text:
        return None  # most code spans; dropping a suffix would not add a slash
    text = LOCATION_SUFFIX.sub("", text.strip())
    if not text or "/" not in text or not PATH_CHARS.match(text):
        return None
    if text.startswith(("/", "~", "//")) or "://" in text or "//" in text:
        return None
    segments = [s for s in text.split("/") if s not in ("", ".")]
    if not segments or is_placeholder(segments):
        return None
    if mcp_method(text):
        return None  # an MCP method (`tools/call`), not a path
    return text
