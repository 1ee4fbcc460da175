"""YAML front matter with positions: the top-level keys of a Markdown file's front matter,
each with the exact spans of its key and value, read by PyYAML's composer (nodes with
marks) instead of a regex.

Hand-edited agent and skill files are not always strict YAML: the usual slip is a
one-line `description: Use when: the user asks` (a second `: ` in a plain scalar). Such
a line is read as the string it was meant to be, as Claude Code reads it; a key whose
value cannot be read at all (an unclosed `[` or quote, a tab in the indentation) is one
`problem` at its line, and the other keys are still read. Comments (`Bash  # never
shell`) are YAML comments, never values. Aliases are not expanded (a billion-laughs
front matter costs nothing), and only the top level is turned into values, to a bounded
depth.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from guidelint.sources import Derived
from guidelint.spans import Span

if TYPE_CHECKING:
    import yaml

    from guidelint.markdown import FrontMatter
    from guidelint.sources import SourceFile

TOP_KEY = re.compile(r"^(?![\s#\-])[^:\n]+:(?:[ \t]|$)", re.MULTILINE)
MAX_DEPTH = 20


@dataclass(frozen=True)
class Problem:
    """Front matter that cannot be read: where (a character offset in the file) and why."""

    offset: int
    message: str


@dataclass(frozen=True)
class Entry:
    """One top-level key: its Python value, where the key and the value are, and its node."""

    key: str
    value: Any
    key_span: Span
    value_span: Span
    node: yaml.Node | None = field(default=None, compare=False, repr=False)


@dataclass
class FrontMatterData:
    entries: dict[str, Entry]
    problems: list[Problem]
    span: Span  # the whole front matter, fences included
    is_mapping: bool = True  # False for front matter that is a list or a scalar

    def get(self, key: str) -> Any:
        entry = self.entries.get(key)
        return entry.value if entry else None


def front_matter(file: SourceFile) -> FrontMatterData | None:
    """The file's front matter, parsed once per file; None when it has none."""
    return file.derived(FRONT_MATTER)


def front_text(file: SourceFile) -> FrontMatter | None:
    """The file's front matter as text (`markdown.front_matter_of`), found once per file:
    GL601's `needs`, GL107 and the YAML reading each ask."""
    return file.derived(FRONT_TEXT)


def _front_text(file: SourceFile) -> FrontMatter | None:
    from guidelint.markdown import front_matter_of

    return front_matter_of(file.text)


FRONT_TEXT = Derived("frontmatter.text", _front_text)


def _parse(file: SourceFile) -> FrontMatterData | None:
    front = front_text(file)  # the document's own, without parsing it all
    if front is None:
        return None
    import yaml  # only now: most files have no front matter, and yaml costs start-up

    base = file.text.index("\n") + 1
    data = FrontMatterData({}, [], front.span)
    text = front.text
    if not text.strip():
        return data
    try:
        node = _compose(text)
    except yaml.YAMLError:
        _read_key_by_key(text, base, data)
        return data
    if node is None:
        return data
    if not isinstance(node, yaml.MappingNode):
        data.is_mapping = False
        data.problems.append(Problem(base, "front matter is not a mapping of `key: value` lines"))
        return data
    _add_entries(node, base, data)
    return data


# -- front matter that plainly reads ---------------------------------------------------
# A subset of YAML that PyYAML's and libyaml's composers always read as a mapping (or
# as nothing): `key: value` lines at the left margin, a value plain, quoted on one line,
# a one-line `[a, b]` or `{ a: b }`, a `|`/`>` block, or lines below its key (a plain
# text that continues, `- item` lines, or `name: value` lines of one nested mapping).
# Such front matter has no problem to report, so GL601 need not compose it (most front
# matter is this: Hugo's title and weight). Anything else (tabs, CR, anchors, tags,
# `: ` inside a plain value, deeper nesting, unusual characters) is for the composer.
FRONT_MATTER = Derived("frontmatter.yaml", _parse)


_ASCII_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")  # tab and CR included
_KEY_LINE = re.compile(r"([A-Za-z_][\w\-]*(?:[:.][\w\-]+)*):(?: +(.*))?")
# A plain scalar's first character: none of YAML's indicators, no space.
_PLAIN_START = re.compile(r"[^\-?:,\[\]{}#&*!|>'\"%@` ]|-[0-9]")
_QUOTED = re.compile(r"'(?:[^'\n]|'')*'|\"[^\"\\\n]*\"")
# A one-line flow value, read as tokens: `[`, `]`, `{`, `}`, `,`, a key (`k`), an item
# (`i`: plain words, or quoted); then the tokens' shape: `[i,i]`, `{ki,ki}`, `[{ki},i]`.
_FLOW_TOKEN = re.compile(
    r" *(?:([\[\]{},])|([A-Za-z_][\w\-]*): +|([\w/.][\w/.*\-]*(?: +[\w/.*\-]+)*"
    r"|'[^'\n]*'|\"[^\"\\\n]*\")) *"
)
_FLOW_SHAPE = re.compile(r"\[(?:(?:i|\{ki(?:,ki)*\})(?:,(?:i|\{ki(?:,ki)*\}))*)?\]|\{ki(?:,ki)*\}")
_BLOCK_HEADER = re.compile(r"[|>][+\-]?")
_ITEM_LINE = re.compile(r"- +(.*)")
_MAX_KEY = 200  # an implicit key is at most 1024 characters


def plainly_a_mapping(text: str) -> bool:
    """Whether front matter text is sure to compose to a mapping (or to nothing), with
    no problem to report; False only means "compose it to know"."""
    if _ASCII_CONTROL.search(text) or (not text.isascii() and _unusual_characters(text)):
        return False
    state = "top"  # top, open (`key:`), closed, plain, items, map, block
    indent = 0  # of `- item` or nested `name: value` lines, or of a block's text
    for line in text.split("\n"):
        body = line.lstrip(" ")
        if not body:
            if line and state == "block":
                return False  # spaces on a block's blank line: indentation rules
            continue
        margin = len(line) - len(body)
        if state == "block" and margin:
            if indent and margin < indent:
                return False
            indent = indent or margin
            continue
        if body[0] == "#":
            if state == "block":
                return False
            state = "top"  # an indented line after it is left to the composer
            continue
        if not margin:
            state, indent = _value_state(line), 0
            if not state:
                return False
            continue
        if state in ("open", "items") and body.startswith("- "):
            item = _ITEM_LINE.fullmatch(body)
            if item is None or (state == "items" and margin != indent):
                return False
            if _value_state(item.group(1), nested=True) not in ("plain", "closed"):
                return False
            state, indent = "items", margin
        elif state in ("open", "map") and _KEY_LINE.fullmatch(body):
            if state == "map" and margin != indent:
                return False
            if _value_state(body) not in ("plain", "closed"):
                return False  # a deeper mapping, a block, a text over lines
            state, indent = "map", margin
        elif state in ("open", "plain"):
            if not _plain_line(body.rstrip(" ")):
                return False
            state = "plain"
        else:
            return False
    return True


# A plain one-line value YAML reads as the string it shows (not a bool, null or number).
_WORDS = re.compile(r"[A-Za-z][\w.\-]*(?: [\w.\-]+)*")
_NOT_STRINGS = frozenset({"yes", "no", "true", "false", "on", "off", "null"})


def plain_string(text: str, key: str) -> tuple[bool, str | None]:
    """A top-level key's value read from front matter text without composing it:
    (True, what `front_matter(...).get(key)` holds when it is a string, or None when
    the key is absent), or (False, None) when only the composer can say (front matter
    that does not plainly read, a value over lines, a value YAML may read otherwise)."""
    if not plainly_a_mapping(text):
        return False, None
    lines = text.split("\n")
    for index, line in enumerate(lines):
        match = _KEY_LINE.fullmatch(line) if line.startswith(key + ":") else None
        if match is None or match.group(1) != key:
            continue
        following = next((later for later in lines[index + 1 :] if later.strip(" ")), "")
        if following.startswith(" "):
            return False, None  # the value goes on below (a text, a list, a mapping)
        value = (match.group(2) or "").rstrip(" ")
        if _WORDS.fullmatch(value) and value.lower() not in _NOT_STRINGS:
            return True, value
        if value[:1] in ("'", '"') and _QUOTED.fullmatch(value):
            inner = value[1:-1]
            return True, inner.replace("''", "'") if value[0] == "'" else inner
        return False, None  # the first such key is the one YAML keeps
    return True, None


def _value_state(line: str, nested: bool = False) -> str:
    """What a `key: value` line (a list item's text, when nested) leaves open: "open"
    (lines below may hold its value), "block", "closed", "plain"; "" for none of these."""
    if nested:
        value = line.rstrip(" ")
    else:
        match = _KEY_LINE.fullmatch(line)
        if match is None or len(match.group(1)) > _MAX_KEY:
            return ""
        value = (match.group(2) or "").rstrip(" ")
        if not value:
            return "open"
        if _BLOCK_HEADER.fullmatch(value):
            return "block"
    head, comment, _ = value.partition(" #")  # a comment: nothing may follow the value
    head = head.rstrip(" ")
    if _QUOTED.fullmatch(head) or (head[:1] in ("[", "{") and _flow_value(head)):
        return "closed"
    if comment:
        return "closed" if _plain_line(head) else ""
    return "plain" if _plain_line(value) else ""


def _flow_value(value: str) -> bool:
    """`[a, b]`, `{ a: b }` or `[{ a: b }, c]` on one line, of plain words or quotes."""
    shape = []
    at = 0
    while at < len(value):
        token = _FLOW_TOKEN.match(value, at)
        if token is None or token.end() == at:
            return False
        shape.append(token.group(1) or ("k" if token.group(2) else "i"))
        at = token.end()
    return _FLOW_SHAPE.fullmatch("".join(shape)) is not None


def _unusual_characters(text: str) -> bool:
    """A character YAML does not allow in a stream, or reads as a line break or BOM."""
    return any(
        char < "\xa0" or char in "\u2028\u2029\ufeff\ufffe\uffff" or "\ud800" <= char <= "\udfff"
        for char in set(text)
        if char > "~"
    )


def _plain_line(text: str) -> bool:
    """A line of a plain scalar that cannot end it early or open anything."""
    return (
        bool(text)
        and _PLAIN_START.match(text) is not None
        and ": " not in text
        and " #" not in text
        and not text.endswith(":")
    )


# libyaml's composer (PyYAML built with it) gives the same nodes and character marks
# as PyYAML's own, at a tenth of the cost; PyYAML's is the reference, and decides
# (and words) every error.
# None: read on first use (yaml loads only for a file with front matter); False: absent.
_FAST_LOADER: Any = None


def _compose(text: str) -> yaml.Node | None:
    import yaml

    global _FAST_LOADER
    if _FAST_LOADER is None:
        _FAST_LOADER = getattr(yaml, "CSafeLoader", False)
    if _FAST_LOADER:
        try:
            return yaml.compose(text, Loader=_FAST_LOADER)
        except yaml.YAMLError:
            pass  # libyaml is stricter in corners (a tab, some escapes): ask the reference
    return yaml.compose(text, Loader=yaml.SafeLoader)


def _add_entries(node: yaml.MappingNode, base: int, data: FrontMatterData) -> None:
    import yaml

    seen: set[int] = set()
    for key_node, value_node in node.value:
        key = str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else ""
        if not key or key in data.entries:
            continue  # a complex key, or a repeat (YAML keeps the first here)
        data.entries[key] = Entry(
            key=key,
            value=_python(value_node, 0, seen),
            key_span=_span(key_node, base),
            value_span=_span(value_node, base),
            node=value_node,
        )


def _read_key_by_key(text: str, base: int, data: FrontMatterData) -> None:
    """Strict YAML failed: read each top-level key's block on its own."""
    import yaml

    starts = [m.start() for m in TOP_KEY.finditer(text)]
    if not starts or starts[0] != 0 and text[: starts[0]].strip(" \t\r\n"):
        _strict_problem(text, base, data)
        return
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        chunk = text[start:end]
        try:
            node = yaml.compose(chunk, Loader=yaml.SafeLoader)
        except yaml.YAMLError as err:
            if not _as_plain_line(chunk, base + start, data):
                data.problems.append(_problem(err, base + start, chunk))
            continue
        if isinstance(node, yaml.MappingNode):
            _add_entries(node, base + start, data)


def _as_plain_line(chunk: str, base: int, data: FrontMatterData) -> bool:
    """`description: Use when: x` on one line: the string after the first `: `."""
    if chunk.strip().count("\n"):
        return False
    key, _, value = chunk.partition(":")
    raw = value.strip()
    if not raw or raw[0] in "\"'|>&*!%@`":
        return False  # an unclosed quote is a real error
    if raw[0] in "[{" and _unbalanced(raw):
        return False  # so is an unclosed `[` or `{`; `[issue-id] [reason]` is a hint
    key = key.strip()
    if key in data.entries:
        return True
    start = base + len(key) + 1 + (len(value) - len(value.lstrip()))
    data.entries[key] = Entry(
        key, raw, Span(base, base + len(key)), Span(start, start + len(raw)), None
    )
    return True


def _unbalanced(raw: str) -> bool:
    return raw.count("[") != raw.count("]") or raw.count("{") != raw.count("}")


def _strict_problem(text: str, base: int, data: FrontMatterData) -> None:
    import yaml

    try:
        yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as err:
        data.problems.append(_problem(err, base, text))


def _problem(err: yaml.YAMLError, base: int, text: str) -> Problem:
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    context = getattr(err, "context_mark", None)
    end = len(text.rstrip())
    index = min(mark.index, len(text)) if mark is not None else 0
    if index >= end:  # "found end of stream": where the unclosed `[` or quote opened
        index = context.index if context is not None and context.index < end else 0
    what = getattr(err, "problem", None) or str(err).splitlines()[0]
    return Problem(base + index, f"front matter is not valid YAML ({what})")


def _span(node: yaml.Node, base: int) -> Span:
    import yaml

    start, end = node.start_mark.index, node.end_mark.index
    if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
        start = end = start  # a block scalar: point at its indicator
    return Span(base + start, base + max(start, end))


def _python(node: yaml.Node, depth: int, seen: set[int] | None = None) -> Any:
    """A node's value, each node converted once: an alias (the same node again) is None,
    so `&a [*b, *b]` chains cost their size, not 3**20."""
    import yaml

    seen = set() if seen is None else seen
    if depth > MAX_DEPTH or id(node) in seen:
        return None
    seen.add(id(node))
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return [_python(item, depth + 1, seen) for item in node.value]
    if isinstance(node, yaml.MappingNode):
        result = {}
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                result[str(key.value)] = _python(value, depth + 1, seen)
        return result
    return None


def _scalar(node: yaml.ScalarNode) -> Any:
    tag = node.tag.rsplit(":", 1)[-1]
    text = node.value
    if tag == "null":
        return None
    if tag == "bool":
        return text.lower() in ("true", "yes", "on")
    if tag == "int":
        try:
            return int(text.replace("_", ""), 0)
        except ValueError:
            return text
    if tag == "float":
        try:
            return float(text.replace("_", ""))
        except ValueError:
            return text
    return text


def string_items(entry: Entry) -> Iterator[tuple[str, Span]]:
    """The names a key lists, with spans: each item of a YAML list, or a string split on
    commas and whitespace outside parentheses (`Read, Bash(git diff:*)`)."""
    import yaml

    node = entry.node
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            if isinstance(item, yaml.ScalarNode) and str(item.value).strip():
                if item.style in ("'", '"'):
                    # A quoted item is one name, spaces and all: `'Azure MCP/documentation'`.
                    yield from _one_item(str(item.value), _content_start(item, entry))
                else:
                    yield from _split(str(item.value), _content_start(item, entry), item.style)
        return
    if isinstance(entry.value, str):
        start = entry.value_span.start
        if node is not None and isinstance(node, yaml.ScalarNode):
            start = _content_start(node, entry)
            yield from _split(entry.value, start, node.style)
        else:
            yield from _split(entry.value, start, None)


def _content_start(node: yaml.ScalarNode, entry: Entry) -> int:
    """Where a scalar's text begins in the file (after its opening quote)."""
    base = entry.value_span.start - entry.node.start_mark.index if entry.node else 0
    start = base + node.start_mark.index
    return start + 1 if node.style in ("'", '"') else start


def _one_item(value: str, start: int) -> Iterator[tuple[str, Span]]:
    name = value.strip()
    at = start + value.find(name)
    yield name, Span(at, at + len(name))


def _split(value: str, start: int, style: str | None) -> Iterator[tuple[str, Span]]:
    """Offsets are exact for plain and simply-quoted scalars; a folded or escaped
    scalar's items all point at its start."""
    exact = style in (None, "", "'", '"')
    depth, begin = 0, 0
    for index, char in enumerate(value + ","):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif (char == "," or char.isspace()) and depth == 0:
            raw = value[begin:index]
            name = raw.strip().strip("'\"")
            if name:
                at = start + begin + raw.find(name) if exact else start
                yield name, Span(at, at + len(name) if exact else start)
            begin = index + 1
