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

from guidelint.spans import Span

if TYPE_CHECKING:
    import yaml

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
    return file.derived("frontmatter.yaml", lambda: _parse(file))


def _parse(file: SourceFile) -> FrontMatterData | None:
    from guidelint.markdown import front_matter_of

    front = front_matter_of(file.text)  # the document's own, without parsing it all
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
