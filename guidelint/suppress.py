"""Inline suppressions, and the directives that suppressed nothing (GL002).

Markdown:  <!-- guidelint: disable-next-line GL101 -->
           <!-- guidelint: disable GL101 --> ... <!-- guidelint: enable GL101 -->
           <!-- guidelint: disable-file GL101 -->
Python:    x = 1  # guidelint: ignore[GL301]
With no codes a directive covers every rule.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from guidelint.comments import parse_directive
from guidelint.sources import SourceFile
from guidelint.spans import Span

PY_DIRECTIVE = re.compile(r"#\s*guidelint:\s*ignore(?:\[([^\]]*)\])?")
CODE = re.compile(r"[A-Za-z]+[0-9]*")


@dataclass
class Suppression:
    codes: frozenset[str] | None  # None: every code
    first_line: int
    last_line: int
    span: Span  # the directive itself, where GL002 points
    used: set[str] = field(default_factory=set)

    def covers(self, code: str, line: int) -> bool:
        if not self.first_line <= line <= self.last_line:
            return False
        return self.codes is None or any(code.startswith(c) for c in self.codes)


def _codes(text: str) -> frozenset[str] | None:
    found = [c.upper() for c in CODE.findall(text.replace(",", " "))]
    return frozenset(found) or None


def markdown_suppressions(file: SourceFile) -> list[Suppression]:
    doc = file.markdown
    last_line = file.lines.line_count
    result: list[Suppression] = []
    open_ranges: dict[frozenset[str] | None, Suppression] = {}
    for comment in doc.html_comments:
        raw = file.text[comment.span.start : comment.span.end]
        directive = parse_directive(raw, comment.span.start)
        if directive is None or directive.owner != "suppression":
            continue
        verb = directive.verb
        codes = _codes(" ".join(token.key for token in directive.rest()))
        if verb == "disable-next-line":
            target = _next_nonblank_line(file, comment.end_line + 1)
            result.append(Suppression(codes, target, target, comment.span))
        elif verb == "disable-file":
            result.append(Suppression(codes, 1, last_line, comment.span))
        elif verb == "disable":
            sup = Suppression(codes, comment.end_line, last_line, comment.span)
            open_ranges[codes] = sup
            result.append(sup)
        elif verb == "enable":
            for key, sup in list(open_ranges.items()):
                if codes is None or key == codes or (key and codes and key <= codes):
                    sup.last_line = comment.line
                    del open_ranges[key]
    return result


def _next_nonblank_line(file: SourceFile, line: int) -> int:
    lines = file.lines
    while line <= lines.line_count and not lines.line_text(line).strip():
        line += 1
    return line


def python_suppressions(file: SourceFile) -> list[Suppression]:
    if "guidelint:" not in file.text:
        return []
    result = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(file.text).readline):
            if tok.type != tokenize.COMMENT:
                continue
            match = PY_DIRECTIVE.search(tok.string)
            if match:
                line, col = tok.start
                start = file.lines.offset(line, col + 1)
                codes = _codes(match.group(1) or "")
                result.append(Suppression(codes, line, line, Span(start, start + len(tok.string))))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass  # unparsable Python gets no suppressions; its own rules report it
    return result


def suppressions_for(file: SourceFile) -> list[Suppression]:
    if file.kind == "markdown":
        return markdown_suppressions(file)
    if file.kind == "python":
        return python_suppressions(file)
    return []
