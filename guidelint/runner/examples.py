"""Guide examples: the fenced Python blocks of a Markdown file, with their settings.

Extraction works on the shared document model (guidelint/markdown.py), so lines
are exact and no regex ever looks for fences. An example is:

- a ```python / ```py / ```pycon fence; a pycon block, or one whose first line
  starts with `>>>`, is REPL-style (run statement by statement, outputs checked);
- its settings: the `{...}` group of the info string, and `<!-- guidelint: ... -->`
  comments right above it (blank lines and other comments may sit in between);
- the ```output fence right after it (only blank lines between), if any.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from guidelint.markdown import Fence, MarkdownDocument
from guidelint.records import FrozenRecord
from guidelint.runner.directives import (
    HARNESS_KEYS,
    DirectiveProblem,
    Directives,
    Settings,
    comment_tokens,
    info_tokens,
    validate,
)
from guidelint.sources import Derived, SourceFile
from guidelint.spans import Span

PYTHON_LANGS = ("python", "py", "python3", "pycon")
OUTPUT_LANG = "output"
PROMPT = re.compile(r"^(>>>|\.\.\.)( |$)")


class Region(FrozenRecord):
    """The content lines of a fence: where to rewrite them, and the prefix they carry."""

    __slots__ = ("content", "span", "line", "prefix")
    content: str
    span: Span  # from the first content line to the start of the closing fence line
    line: int  # line of the opening fence
    prefix: str  # container indentation or `> ` before each line

    def __init__(self, content: str, span: Span, line: int, prefix: str) -> None:
        object.__setattr__(self, "content", content)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "prefix", prefix)


@dataclass
class Example:
    rel: str  # the Markdown file, relative to the project root
    line: int  # the opening fence
    content_line: int
    end_line: int  # the closing fence (or last line when unterminated)
    lang: str
    source: str
    closed: bool
    directives: Directives = field(default_factory=Directives)
    settings: Settings = field(default_factory=Settings)
    output: Region | None = None
    body: Region | None = None

    @property
    def id(self) -> str:
        return self.settings.id or f"{self.rel}:{self.line}"

    @property
    def is_repl(self) -> bool:
        """`>>>` prompts: run statement by statement, each echo checked (doctest)."""
        return self.lang == "pycon" or _first_code_line(self.source).startswith(">>>")

    def python_source(self) -> str:
        """The code as a Python file with the same line numbers (prompts removed)."""
        if not self.is_repl:
            return self.source
        lines = []
        for text in self.source.split("\n"):
            match = PROMPT.match(text.lstrip())
            lines.append(text.lstrip()[match.end() :] if match else "")
        return "\n".join(lines)


def _first_code_line(source: str) -> str:
    return next((line.lstrip() for line in source.splitlines() if line.strip()), "")


def extract(doc: MarkdownDocument, rel: str) -> list[Example]:
    """Every Python example of a document, in order."""
    examples = []
    comments_by_end = {c.end_line: c for c in doc.html_comments}
    fences = doc.fences
    for index, fence in enumerate(fences):
        if fence.lang not in PYTHON_LANGS or _is_harness_case(doc, fence):
            continue
        example = _example(doc, fence, rel)
        example.directives = _directives(doc, fence, comments_by_end)
        example.settings = example.directives.settings()
        following = fences[index + 1] if index + 1 < len(fences) else None
        if following is not None and following.lang == OUTPUT_LANG and fence.closed:
            if _only_blank_between(doc, example.end_line, following.line):
                example.output = _region(doc, following)
        examples.append(example)
    return examples


def _is_harness_case(doc: MarkdownDocument, fence: Fence) -> bool:
    tokens = info_tokens(doc.lines.line_text(fence.line), 0) or []
    return any(t.key in HARNESS_KEYS for t in tokens)


def _example(doc: MarkdownDocument, fence: Fence, rel: str) -> Example:
    end_line = doc.lines.position(fence.span.end).line
    return Example(
        rel=rel,
        line=fence.line,
        content_line=fence.content_line,
        end_line=end_line,
        lang=fence.lang,
        source=fence.content,
        closed=fence.closed,
        body=_region(doc, fence),
    )


def _region(doc: MarkdownDocument, fence: Fence) -> Region:
    lines = doc.lines
    end_line = lines.position(fence.span.end).line
    start = lines.offset(fence.content_line)
    end = lines.offset(end_line) if fence.closed else fence.span.end
    opening = lines.line_text(fence.line)
    marker = re.search(r"(`{3,}|~{3,})", opening)
    prefix = opening[: marker.start()] if marker else ""
    return Region(fence.content, Span(start, max(start, end)), fence.line, prefix)


def _only_blank_between(doc: MarkdownDocument, first: int, last: int) -> bool:
    return all(not doc.lines.line_text(n).strip() for n in range(first + 1, last))


def _directives(doc: MarkdownDocument, fence: Fence, comments_by_end: dict) -> Directives:
    """Comment tokens (top to bottom), then info-string tokens, each validated."""
    directives = Directives()
    for comment in _comments_above(doc, fence.line, comments_by_end):
        raw = doc.text[comment.span.start : comment.span.end]
        directives.tokens.extend(comment_tokens(raw, comment.span.start) or [])
    opening = doc.lines.line_text(fence.line)
    directives.tokens.extend(info_tokens(opening, doc.lines.offset(fence.line)) or [])
    for token in directives.tokens:
        message = validate(token)
        if message:
            directives.problems.append(DirectiveProblem(token.span, message))
    return directives


def _comments_above(doc: MarkdownDocument, line: int, comments_by_end: dict) -> list:
    """Comments on lines of their own right above `line` (blank lines may sit between)."""
    found = []
    current = line - 1
    while current >= 1:
        text = doc.lines.line_text(current)
        if not text.strip():
            current -= 1
            continue
        comment = comments_by_end.get(current)
        if comment is None or not _owns_its_lines(doc, comment, text):
            break
        found.append(comment)
        current = comment.line - 1
    return list(reversed(found))


def _owns_its_lines(doc: MarkdownDocument, comment, last_line_text: str) -> bool:
    """Nothing but container markers (indentation, `>`) before it, nothing after it."""
    start = doc.lines.position(comment.span.start)
    before = doc.lines.line_text(comment.line)[: start.column - 1]
    return not before.strip(" >") and last_line_text.rstrip().endswith("-->")


def source_offset(example: Example, lines, row: int, column: int) -> int:
    """File offset of 1-based (row, column) in `python_source()` (prompts accounted for)."""
    original = example.source.split("\n")
    virtual = example.python_source().split("\n")
    row = max(1, min(row, len(original)))
    line_no = example.content_line + row - 1
    file_line = lines.line_text(line_no)
    text = original[row - 1]
    container = len(file_line) - len(text) if file_line.endswith(text) else 0
    prompt = len(text) - len(virtual[row - 1])
    column = max(1, min(column, len(virtual[row - 1]) + 1))
    return lines.offset(line_no, container + prompt + column)


def syntax_error(example: Example) -> SyntaxError | None:
    """The first syntax error of an example's code (top-level await is allowed)."""
    import ast

    flags = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    try:
        compile(example.python_source(), example.id, "exec", flags=flags, dont_inherit=True)
    except SyntaxError as error:
        return error
    except ValueError as error:  # e.g. NUL bytes in the source
        return SyntaxError(str(error), (example.id, 1, 1, ""))
    return None


def examples_of(file: SourceFile) -> list[Example]:
    """A SourceFile's examples, extracted once and shared by GL401-GL403."""
    return file.derived(EXAMPLES)


def _extract(file: SourceFile) -> list[Example]:
    return extract(file.markdown, file.rel)


EXAMPLES = Derived("runner.examples", _extract)


def syntax_errors_of(file: SourceFile) -> list[SyntaxError | None]:
    """Each example's syntax error (None: it parses, or is skipped or never closed),
    in the order of `examples_of`: compiled once, shared by GL401 and GL402."""
    return file.derived(SYNTAX_ERRORS)


def _syntax_errors(file: SourceFile) -> list[SyntaxError | None]:
    return [
        syntax_error(e) if e.closed and not e.settings.skip else None for e in examples_of(file)
    ]


SYNTAX_ERRORS = Derived("runner.syntax_errors", _syntax_errors)
