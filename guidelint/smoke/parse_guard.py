"""Whether a driver is safe to hand to libcst, decided before libcst sees it.

libcst's parser is native code: on deep enough nesting it overflows the C stack and
the whole run dies with a segfault, which no `try` can catch. CPython's own parser
guards itself (more than 200 nested brackets is a SyntaxError, deeper expressions a
RecursionError or MemoryError), so the source goes through `ast.parse` first:

- what CPython refuses is not Python; the rules skip it, as any syntax error;
- what CPython accepts but nests deeper than MAX_DEPTH is refused here, with the
  line where it gets too deep. The depth counts what libcst nests and the AST does
  not: an `a and b and ...` chain is one BoolOp in the AST but a chain of
  BooleanOperations in libcst, and a dotted import name a chain of Attributes;
- a driver of more than MAX_NODES syntax nodes is refused too: libcst reads about
  20,000 nodes a second, so a flat but huge expression would stall the run.

A dotted name of MAX_DEPTH parts is refused before `ast.parse`, which takes time
quadratic in the length of an import's dotted name (100,000 parts: 14 s). The scan
does not know strings from code: such a name in a comment or string refuses too.

Real code stays far below the limits (at most 28 levels over 3,000 files of
transformers, libcst and guidelint itself; transformers' trainer.py has 24,000 nodes).
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass

from guidelint.spans import LineIndex

MAX_DEPTH = 100
MAX_NODES = 100_000
# Names joined by dots (a backslash may continue the line between them). Matches do
# not overlap, so one scan is linear in the text.
_GAP = r"(?:[ \t\f]|\\\r?\n|\\\r)*"
DOTTED_NAME = re.compile(rf"[^\W\d]\w*(?:{_GAP}\.{_GAP}[^\W\d]\w*)+")


@dataclass(frozen=True)
class TooDeep:
    """Valid Python that the reader cannot safely follow: too deep, or too large."""

    line: int  # where the nesting first gets too deep (1 when the whole file is too large)
    reason: str = "nested too deeply"

    @property
    def message(self) -> str:
        return f"driver not read: {self.reason}; GL301-GL304 cannot check its smoke gates"


DEEP = f"nested more than {MAX_DEPTH} levels deep"


class NotPython(Exception):
    """CPython itself refuses the source (syntax error, or nesting past its own limits)."""


def check_parsable(text: str) -> TooDeep | None:
    """None when libcst may read the text; TooDeep when it must not; NotPython if invalid."""
    for dotted in DOTTED_NAME.finditer(text):
        if dotted.group().count(".") >= MAX_DEPTH:
            line = LineIndex(text).position(dotted.start()).line
            return TooDeep(line, f"a dotted name of more than {MAX_DEPTH} parts")
    try:
        with warnings.catch_warnings():  # invalid escapes warn; not ours to report
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
        raise NotPython(str(err)) from None
    return _too_deep_or_large(tree)


def _too_deep_or_large(tree: ast.AST) -> TooDeep | None:
    """The first node nested deeper than MAX_DEPTH, walked without recursion."""
    stack: list[tuple[ast.AST, int]] = [(tree, 1)]
    nodes = 0
    while stack:
        node, depth = stack.pop()
        depth += _hidden_depth(node)
        if depth > MAX_DEPTH:
            line = getattr(node, "lineno", 1)
            return TooDeep(line, DEEP)
        nodes += 1
        if nodes > MAX_NODES:
            return TooDeep(1, f"more than {MAX_NODES:,} syntax nodes")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return None


def _hidden_depth(node: ast.AST) -> int:
    """Levels libcst nests where the AST is flat."""
    if isinstance(node, ast.BoolOp):
        return len(node.values) - 2
    if isinstance(node, ast.Import):
        return max(alias.name.count(".") for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").count(".")
    return 0
