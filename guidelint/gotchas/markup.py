"""Markdown details of gotchas files: line endings, inline markup, link text escaping."""

from __future__ import annotations

import re

INLINE_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def newline_of(text: str) -> str:
    """The file's line ending: CRLF when its first line ending is one, else LF."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def plain(markdown: str) -> str:
    """Markdown inline text without link targets and emphasis markers."""
    text = INLINE_LINK.sub(r"\1", markdown)
    return re.sub(r"[*`]|(?<!\w)_|_(?!\w)", "", text)


def escape_link_text(text: str, table: bool = False) -> str:
    text = text.replace("[", r"\[").replace("]", r"\]")
    return text.replace("|", r"\|") if table else text


def unescape_link_text(text: str) -> str:
    return re.sub(r"\\([\[\]|])", r"\1", text)
