"""Where each value of a JSON document sits: path -> (start, end) character offsets.

The standard parser gives values without positions; findings on settings and
server files need the exact line of a permission entry or a server key, so this
walks the text once with the standard library's own string and number scanners.
"""

from __future__ import annotations

import re
from json.decoder import scanstring  # type: ignore[attr-defined]  # there, but not in typeshed

from guidelint.spans import Span

WHITESPACE = re.compile(r"[ \t\n\r]*")
SCALAR = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?|true|false|null")

Path = tuple  # of str keys and int indexes


def value_spans(text: str) -> dict[Path, Span]:
    """Spans of every value (and `(*path, "#key")` spans of object keys); {} on bad JSON."""
    spans: dict[Path, Span] = {}
    try:
        end = _value(text, _skip(text, 0), (), spans)
    except (ValueError, IndexError):
        return {}
    return spans if _skip(text, end) == len(text) else {}


def _skip(text: str, pos: int) -> int:
    match = WHITESPACE.match(text, pos)  # always matches (possibly nothing)
    return match.end() if match else pos


def _value(text: str, pos: int, path: Path, spans: dict) -> int:
    char = text[pos]
    if char == "{":
        end = _object(text, pos, path, spans)
    elif char == "[":
        end = _array(text, pos, path, spans)
    elif char == '"':
        _, end = scanstring(text, pos + 1)
    else:
        match = SCALAR.match(text, pos)
        if not match:
            raise ValueError(f"unexpected {char!r} at {pos}")
        end = match.end()
    spans[path] = Span(pos, end)
    return end


def _object(text: str, pos: int, path: Path, spans: dict) -> int:
    pos = _skip(text, pos + 1)
    if text[pos] == "}":
        return pos + 1
    while True:
        if text[pos] != '"':
            raise ValueError("expected a key")
        key, key_end = scanstring(text, pos + 1)
        spans[(*path, key, "#key")] = Span(pos, key_end)
        pos = _skip(text, key_end)
        if text[pos] != ":":
            raise ValueError("expected ':'")
        pos = _value(text, _skip(text, pos + 1), (*path, key), spans)
        pos = _skip(text, pos)
        if text[pos] == "}":
            return pos + 1
        if text[pos] != ",":
            raise ValueError("expected ','")
        pos = _skip(text, pos + 1)


def _array(text: str, pos: int, path: Path, spans: dict) -> int:
    pos = _skip(text, pos + 1)
    if text[pos] == "]":
        return pos + 1
    index = 0
    while True:
        pos = _skip(text, _value(text, pos, (*path, index), spans))
        index += 1
        if text[pos] == "]":
            return pos + 1
        if text[pos] != ",":
            raise ValueError("expected ','")
        pos = _skip(text, pos + 1)
