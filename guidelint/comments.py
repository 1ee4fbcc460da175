"""The one grammar of `<!-- guidelint: ... -->` comments, shared by every pillar.

    <!-- guidelint: disable-next-line GL101 -->   a suppression (suppress.py)
    <!-- guidelint: row-cap=30 -->                the gotchas row cap (gotchas/parse.py)
    <!-- guidelint: pending needs=gpu -->         an example's settings (runner/directives.py)

The body after `guidelint:` is whitespace-separated tokens, `key` or `key=value`
(a value may be quoted), each with its character span in the file. The first
token's key says whose comment it is (`owner`). A fence's `{key=value ...}` info
group uses the same tokens (`tokenize`).
"""

from __future__ import annotations

import re
from typing import Literal

from guidelint.records import FrozenRecord
from guidelint.spans import Span

SUPPRESSION_VERBS = ("disable-next-line", "disable-line", "disable-file", "disable", "enable")
GOTCHAS_KEYS = ("row-cap",)

Owner = Literal["suppression", "gotchas", "example"]

_TOKEN = re.compile(r"""[^\s=]+(?:=(?:"[^"]*"|'[^']*'|\S*))?""")
_OPENING = re.compile(r"<!--\s*guidelint:")


class Token(FrozenRecord):
    __slots__ = ("key", "value", "span")
    key: str
    value: str | None  # None for a bare flag
    span: Span  # the whole `key=value` text in the file

    def __init__(self, key: str, value: str | None, span: Span) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "span", span)


class Directive(FrozenRecord):
    """One `<!-- guidelint: ... -->` comment: its tokens, in order."""

    __slots__ = ("tokens", "span")
    tokens: tuple[Token, ...]
    span: Span  # the whole comment

    def __init__(self, tokens: tuple[Token, ...], span: Span) -> None:
        object.__setattr__(self, "tokens", tokens)
        object.__setattr__(self, "span", span)

    @property
    def verb(self) -> str:
        return self.tokens[0].key if self.tokens else ""

    @property
    def owner(self) -> Owner:
        if self.verb in SUPPRESSION_VERBS:
            return "suppression"
        if self.verb in GOTCHAS_KEYS:
            return "gotchas"
        return "example"

    def rest(self) -> tuple[Token, ...]:
        """The tokens after the verb (a suppression's rule codes, say)."""
        return self.tokens[1:]


def may_hold_directive(text: str) -> bool:
    """False when no comment of the text can be a `guidelint:` one, so the text need
    not be parsed to find its directives. `parse_directive` reads a comment only if
    its raw text (a slice of `text`) starts with `_OPENING`; that slice matched is a
    match in the whole text too, so a text with none holds no directive."""
    return _OPENING.search(text) is not None


def tokenize(text: str, offset: int) -> list[Token]:
    """`key` / `key=value` tokens of `text`, which starts at file offset `offset`."""
    tokens = []
    for match in _TOKEN.finditer(text):
        key, eq, value = match.group(0).partition("=")
        if eq and len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        span = Span(offset + match.start(), offset + match.end())
        tokens.append(Token(key, value if eq else None, span))
    return tokens


def parse_directive(raw: str, offset: int) -> Directive | None:
    """The directive of an HTML comment's raw text (starting at file offset `offset`),
    or None when the comment is not a `guidelint:` one."""
    match = _OPENING.match(raw)
    if not match:
        return None
    end = raw.rfind("-->")
    body = raw[match.end() : end if end >= match.end() else len(raw)]
    tokens = tokenize(body, offset + match.end())
    return Directive(tuple(tokens), Span(offset, offset + len(raw)))
