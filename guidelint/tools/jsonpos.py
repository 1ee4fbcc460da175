"""Where each value of a JSON document sits: path -> (start, end) character offsets.

The standard parser gives values without positions; findings on settings and
server files need the exact line of a permission entry or a server key, so this
walks the text once with the standard library's own string and number scanners.

Both the walk and `parse` are bounded: a document nested deeper than MAX_DEPTH is
refused (the standard parser raises RecursionError near 1,000 levels, and every
later walk over the value would recurse as deep).
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring  # type: ignore[attr-defined]  # there, but not in typeshed
from typing import TYPE_CHECKING, Any

from guidelint.sources import Derived
from guidelint.spans import Span

if TYPE_CHECKING:
    from guidelint.sources import SourceFile

WHITESPACE = re.compile(r"[ \t\n\r]*")
# Numbers, literals, and the NaN / Infinity the standard parser accepts too.
SCALAR = re.compile(r"-?(?:\d+(\.\d+)?([eE][-+]?\d+)?|Infinity)|true|false|null|NaN")
# A string (possibly unterminated) or a bracket: what nesting depth is made of.
DEPTH_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')

# Far beyond any real settings file, server list or tool schema.
MAX_DEPTH = 200

Path = tuple  # of str keys and int indexes


class KeyMark:
    """The last step of a path to an object key's own span. Not a string, so that a
    document's key spelt `"#key"` is never read as the mark."""

    def __repr__(self) -> str:
        return "KEY"

    def __reduce__(self) -> str:
        return "KEY"  # unpickles as this module's one instance


KEY = KeyMark()


class JsonProblem(ValueError):
    """A document that cannot be used: where (a character offset) and why."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset, self.message = offset, message


def parse(text: str) -> Any:
    """The JSON value of the text; JsonProblem when it is invalid or nested too deeply."""
    deep = too_deep_at(text)
    if deep is not None:
        raise JsonProblem(deep, f"nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise JsonProblem(err.pos, f"not valid JSON ({err.msg})") from None
    except RecursionError:  # cannot happen below MAX_DEPTH; never a traceback
        raise JsonProblem(0, "nested too deeply") from None


def too_deep_at(text: str) -> int | None:
    """The offset of the first bracket nested deeper than MAX_DEPTH, if any.

    Brackets inside strings do not count. Linear, and free for small documents.
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    depth = 0
    for token in DEPTH_TOKEN.finditer(text):
        char = text[token.start()]
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return token.start()
        elif char in "]}":
            depth -= 1
    return None


def value_spans(text: str) -> dict[Path, Span]:
    """Spans of every value (and `(*path, KEY)` spans of object keys); {} on bad JSON
    or JSON nested deeper than MAX_DEPTH."""
    spans: dict[Path, Span] = {}
    try:
        end = _walk(text, spans)
    except (ValueError, IndexError):
        return {}
    return spans if _skip(text, end) == len(text) else {}


def _spans_of(file: SourceFile) -> dict[Path, Span]:
    return value_spans(file.text)


# Walked once per file, whichever of GL106, GL109, GL6xx and the tool rules asks.
JSON_SPANS = Derived("tools.json_spans", _spans_of)


def _skip(text: str, pos: int) -> int:
    match = WHITESPACE.match(text, pos)  # always matches (possibly nothing)
    return match.end() if match else pos


class _Open:
    """An object or array being walked: where it starts, its path, its next index."""

    __slots__ = ("closer", "path", "start", "index")

    def __init__(self, closer: str, path: Path, start: int) -> None:
        self.closer, self.path, self.start, self.index = closer, path, start, 0


def _walk(text: str, spans: dict[Path, Span]) -> int:
    """Walk one value from the start of the text; return the offset after it.

    An explicit stack instead of recursion: the depth is bounded by MAX_DEPTH, not
    by Python's recursion limit.
    """
    stack: list[_Open] = []
    pos, path = _skip(text, 0), ()
    while True:
        pos, opened = _value(text, pos, path, spans)
        if opened is not None:
            if len(stack) >= MAX_DEPTH:
                raise ValueError("nested too deeply")
            stack.append(opened)
            pos = _skip(text, pos)
            if text[pos] != opened.closer:
                pos, path = _next_member(text, pos, opened, spans)
                continue
        # A value ended (or an empty container opened): close what ends here.
        while True:
            pos = _skip(text, pos)
            if not stack:
                return pos
            top = stack[-1]
            if text[pos] == top.closer:
                stack.pop()
                pos += 1
                spans[top.path] = Span(top.start, pos)
                continue
            if text[pos] != ",":
                raise ValueError("expected ','")
            top.index += 1
            pos, path = _next_member(text, _skip(text, pos + 1), top, spans)
            break


def _value(text: str, pos: int, path: Path, spans: dict[Path, Span]) -> tuple[int, _Open | None]:
    """A scalar's end, or the container it opens (its span is set when it closes)."""
    char = text[pos]
    if char == "{":
        return pos + 1, _Open("}", path, pos)
    if char == "[":
        return pos + 1, _Open("]", path, pos)
    if char == '"':
        _, end = scanstring(text, pos + 1)
    else:
        match = SCALAR.match(text, pos)
        if not match:
            raise ValueError(f"unexpected {char!r} at {pos}")
        end = match.end()
    spans[path] = Span(pos, end)
    return end, None


def _next_member(
    text: str, pos: int, container: _Open, spans: dict[Path, Span]
) -> tuple[int, Path]:
    """Where the container's next value starts, and its path (an object reads its key)."""
    if container.closer == "]":
        return pos, (*container.path, container.index)
    if text[pos] != '"':
        raise ValueError("expected a key")
    key, key_end = scanstring(text, pos + 1)
    spans[(*container.path, key, KEY)] = Span(pos, key_end)
    pos = _skip(text, key_end)
    if text[pos] != ":":
        raise ValueError("expected ':'")
    return _skip(text, pos + 1), (*container.path, key)


def blank_jsonc(text: str) -> str:
    """JSON with comments (`//`, `/* */`) and trailing commas, as VS Code and Gemini CLI
    read their settings, turned into plain JSON of the same length: each comment and
    trailing comma becomes spaces (line breaks kept), so offsets and lines still hold."""
    if "/" not in text and "," not in text:
        return text
    out = list(text)
    i, n = 0, len(text)
    last_comma = -1  # a comma seen since the last value: trailing if a bracket closes next
    while i < n:
        char = text[i]
        if char == '"':
            end = _string_end(text, i)
            last_comma = -1
            i = end
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            _blank(out, i, end)
            i = end
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            _blank(out, i, end)
            i = end
            continue
        if char == ",":
            last_comma = i
        elif char in "]}":
            if last_comma >= 0:
                out[last_comma] = " "
            last_comma = -1
        elif not char.isspace():
            last_comma = -1
        i += 1
    return "".join(out)


def _string_end(text: str, start: int) -> int:
    """The offset just past the string opening at start (or the text's end)."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return len(text)


def _blank(out: list[str], start: int, end: int) -> None:
    for k in range(start, end):
        if out[k] not in "\r\n":
            out[k] = " "
