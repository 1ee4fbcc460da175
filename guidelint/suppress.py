"""Inline suppressions, read strictly: what each directive covers, and what is wrong with it.

Markdown:  <!-- guidelint: disable-next-line GL101 -->
           <!-- guidelint: disable-line GL101 -->   (on the line it covers)
           <!-- guidelint: disable GL101 --> ... <!-- guidelint: enable GL101 -->
           <!-- guidelint: disable-file GL101 -->
Python:    x = 1  # guidelint: ignore[GL301]
With no codes a directive covers every rule. Codes are rule codes, prefixes (`GL5`)
or rule names (`stale-path`). `apply` resolves them against the rules the caller
knows (this module imports no rule), drops the findings they cover, and returns the
directives that covered nothing and the problems found, which the engine reports as
GL002.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from guidelint.comments import SUPPRESSION_VERBS, Token, may_hold_directive, parse_directive
from guidelint.findings import Edit, Finding
from guidelint.sources import FileKind, SourceFile
from guidelint.spans import Span

PY_DIRECTIVE = re.compile(r"#\s*guidelint:\s*ignore(?:\[([^\]]*)\])?")
_CODE_SEPARATORS = re.compile(r"[^\s,]+")
# Words that start a suppression in other linters' spelling: a typo of ours, not
# an example's setting (those are GL403's to report).
_SUPPRESSION_LIKE = ("disable", "enable", "ignore", "noqa")


@dataclass(frozen=True)
class All:
    """What a directive with no codes covers: every rule."""

    def covers(self, code: str) -> bool:
        return True


@dataclass(frozen=True)
class Codes:
    """What a directive with codes covers: the rules whose code starts with one."""

    codes: frozenset[str]

    def covers(self, code: str) -> bool:
        return any(code.startswith(c) for c in self.codes)


EVERY_RULE = All()


@dataclass
class Suppression:
    written: tuple[Token, ...]  # the codes as written, each with its span; () = every rule
    first_line: int
    last_line: int
    span: Span  # the directive itself, where GL002 points
    rules: All | Codes = EVERY_RULE  # `written` resolved by `apply`
    used: set[str] = field(default_factory=set)

    def covers(self, code: str, line: int) -> bool:
        return self.first_line <= line <= self.last_line and self.rules.covers(code)


@dataclass(frozen=True)
class SuppressionProblem:
    """A `guidelint:` comment meant as a suppression that is not one."""

    span: Span
    message: str


@dataclass
class Suppressions:
    found: list[Suppression] = field(default_factory=list)
    problems: list[SuppressionProblem] = field(default_factory=list)


@dataclass(frozen=True)
class KnownRules:
    """The rules a directive's codes resolve against: every code, and name -> code."""

    codes: list[str]
    names: dict[str, str]


@dataclass(frozen=True)
class Unused:
    """A directive that suppressed nothing: `codes` those of its codes that ran here
    and covered no finding; () for a directive of every rule that covered none."""

    directive: Suppression
    codes: tuple[str, ...]


@dataclass(frozen=True)
class Applied:
    """What `apply` leaves: the findings no directive covers, the directives that
    covered nothing, and the comments meant as directives that are not ones."""

    kept: list[Finding]
    unused: list[Unused]
    problems: list[SuppressionProblem]


def apply(
    file: SourceFile, findings: list[Finding], ran: set[str], known: Callable[[], KnownRules]
) -> Applied:
    """The file's directives applied to its findings. `ran`: the codes of the rules
    that ran on it (a directive of a rule that did not run proves nothing); `known`
    is asked only when the file holds a directive."""
    try:
        suppressions = suppressions_for(file)
    except Exception:  # a malformed directive never costs the real findings
        return Applied(findings, [], [])
    if not suppressions.found and not suppressions.problems:
        return Applied(findings, [], [])
    problems = [*suppressions.problems]
    if suppressions.found:
        rules = known()
        for sup in suppressions.found:
            sup.rules = resolve_codes(sup.written, rules.codes, rules.names, problems)
    kept = [f for f in findings if not _suppressed(f, suppressions.found)]
    return Applied(kept, list(_unused(suppressions.found, ran)), problems)


def _suppressed(finding: Finding, suppressions: list[Suppression]) -> bool:
    """Whether a directive covers the finding; each that does notes the codes it used."""
    hit = False
    for sup in suppressions:
        if sup.covers(finding.code, finding.line):
            rules = sup.rules
            if isinstance(rules, Codes):
                sup.used.update(c for c in rules.codes if finding.code.startswith(c))
            else:
                sup.used.add(finding.code)
            hit = True
    return hit


def _unused(suppressions: list[Suppression], ran: set[str]) -> Iterator[Unused]:
    for sup in suppressions:
        if isinstance(sup.rules, All):
            if not sup.used:
                yield Unused(sup, ())
            continue
        # Only judge codes that actually ran here: a disabled rule proves nothing.
        idle = sorted(
            c for c in sup.rules.codes if c not in sup.used and any(r.startswith(c) for r in ran)
        )
        if idle:
            yield Unused(sup, tuple(idle))


def _code_tokens(text: str, offset: int) -> tuple[Token, ...]:
    """`GL101, stale-path GL5` -> one token per code, spans in the file."""
    return tuple(
        Token(m.group(0), None, Span(offset + m.start(), offset + m.end()))
        for m in _CODE_SEPARATORS.finditer(text)
    )


def markdown_suppressions(file: SourceFile) -> Suppressions:
    result = Suppressions()
    if not may_hold_directive(file.text):
        return result  # no directive can be there: the document need not be parsed
    last_line = file.lines.line_count
    open_ranges: dict[tuple[str, ...], Suppression] = {}
    for comment in file.markdown.html_comments:
        raw = file.text[comment.span.start : comment.span.end]
        directive = parse_directive(raw, comment.span.start)
        if directive is None or not directive.tokens:
            continue
        if directive.owner != "suppression":
            problem = _unknown_verb(directive.tokens[0])
            if problem is not None:
                result.problems.append(problem)
            continue
        verb = directive.verb
        rest = directive.rest()
        start = rest[0].span.start if rest else directive.tokens[0].span.end
        written = _code_tokens(file.text[start : rest[-1].span.end], start) if rest else ()
        key = tuple(sorted(t.key.upper() for t in written))
        if verb == "disable-next-line":
            target = _next_nonblank_line(file, comment.end_line + 1)
            result.found.append(Suppression(written, target, target, comment.span))
        elif verb == "disable-line":
            result.found.append(Suppression(written, comment.line, comment.line, comment.span))
        elif verb == "disable-file":
            result.found.append(Suppression(written, 1, last_line, comment.span))
        elif verb == "disable":
            sup = Suppression(written, comment.end_line, last_line, comment.span)
            open_ranges[key] = sup
            result.found.append(sup)
        elif verb == "enable":
            for opened, sup in list(open_ranges.items()):
                if not key or opened == key or (opened and set(opened) <= set(key)):
                    sup.last_line = comment.line
                    del open_ranges[opened]
    return result


def _unknown_verb(token: Token) -> SuppressionProblem | None:
    """A misspelled suppression verb (`disable-lines`), else None (another pillar's)."""
    import difflib  # for a did-you-mean only

    close = difflib.get_close_matches(token.key, SUPPRESSION_VERBS, n=1, cutoff=0.7)
    if not close and not token.key.lower().startswith(_SUPPRESSION_LIKE):
        return None
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    message = f"unknown suppression directive '{token.key}'{hint}; it suppresses nothing"
    return SuppressionProblem(token.span, message)


def resolve_codes(
    written: tuple[Token, ...],
    codes: list[str],
    names: dict[str, str],
    problems: list[SuppressionProblem],
) -> All | Codes:
    """Codes, prefixes and rule names as written -> the rules they cover.

    `codes` and `names` (name -> code) are the known rules. A code that names no rule
    covers nothing (`GL5O1` must not hide all of GL5) and is a problem with a
    did-you-mean.
    """
    if not written:
        return EVERY_RULE
    resolved = set()
    for token in written:
        upper = token.key.upper()
        if upper == "ALL" or any(code.startswith(upper) for code in codes):
            resolved.add(upper if upper != "ALL" else "GL")
        elif token.key in names:
            resolved.add(names[token.key])
        else:
            import difflib

            hint = difflib.get_close_matches(token.key, [*codes, *names], n=1, cutoff=0.6)
            suggestion = f" (did you mean '{hint[0]}'?)" if hint else ""
            message = f"unknown rule code '{token.key}'{suggestion}; it suppresses nothing"
            problems.append(SuppressionProblem(token.span, message))
    return Codes(frozenset(resolved))


def _next_nonblank_line(file: SourceFile, line: int) -> int:
    lines = file.lines
    while line <= lines.line_count and not lines.line_text(line).strip():
        line += 1
    return line


def python_suppressions(file: SourceFile) -> Suppressions:
    result = Suppressions()
    if "guidelint:" not in file.text:
        return result
    try:
        for tok in tokenize.generate_tokens(io.StringIO(file.text).readline):
            if tok.type != tokenize.COMMENT:
                continue
            match = PY_DIRECTIVE.search(tok.string)
            if match:
                line, col = tok.start
                start = file.lines.offset(line, col + 1)
                codes_at = start + match.start(1) if match.group(1) is not None else start
                written = _code_tokens(match.group(1) or "", codes_at)
                span = Span(start, start + len(tok.string))
                result.found.append(Suppression(written, line, line, span))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass  # unparsable Python gets no suppressions; its own rules report it
    return result


def suppressions_for(file: SourceFile) -> Suppressions:
    if file.kind == FileKind.MARKDOWN:
        return markdown_suppressions(file)
    if file.kind == FileKind.PYTHON:
        return python_suppressions(file)
    return Suppressions()


def suppression_edits(text: str, rel: str, finding: Finding) -> list[tuple[str, tuple[Edit, ...]]]:
    """The comments that would suppress a finding, as insertions, each with what it
    covers: in Markdown, "line" (`disable-next-line` above the line) or, for a line
    inside a fence, where a comment would be code, "block" (`disable` before the
    fence, `enable` after it), and "file" (`disable-file` below any front matter);
    in Python, "line" (`# guidelint: ignore[CODE]` at the line's end); none in JSON,
    which has no comments. The caller checks that an edit works where the text is
    unusual (a Python line ending in a string)."""
    from pathlib import Path

    from guidelint.markdown import front_matter_of

    lines = text.splitlines(keepends=True)
    if not 1 <= finding.line <= len(lines):
        return []
    line_start = sum(len(line) for line in lines[: finding.line - 1])
    line = lines[finding.line - 1]
    kind = SourceFile(path=Path(rel), rel=rel, text=text).kind
    code = finding.code
    if kind == FileKind.PYTHON:
        end = line_start + len(line.rstrip("\r\n"))
        return [("line", (Edit(end, end, f"  # guidelint: ignore[{code}]"),))]
    if kind != FileKind.MARKDOWN:
        return []
    newline = "\r\n" if line.endswith("\r\n") else "\n"
    fenced = _fence_lines(text, finding.line)
    edits: list[tuple[str, tuple[Edit, ...]]]
    if fenced is None:
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        above = f"{indent}<!-- guidelint: disable-next-line {code} -->{newline}"
        edits = [("line", (Edit(line_start, line_start, above),))]
    else:
        first, after = fenced
        opening = text[first : text.find("\n", first) + 1 or len(text)]
        indent = opening[: len(opening) - len(opening.lstrip(" \t"))]
        ending = "" if text[:after].endswith("\n") else newline
        edits = [
            (
                "block",
                (
                    Edit(first, first, f"{indent}<!-- guidelint: disable {code} -->{newline}"),
                    Edit(
                        after, after, f"{ending}{indent}<!-- guidelint: enable {code} -->{newline}"
                    ),
                ),
            )
        ]
    front = front_matter_of(text)
    top = front.span.end if front is not None else 0
    if top and not text[:top].endswith("\n"):
        return edits  # front matter ending the file: no line below it to take a comment
    whole = f"<!-- guidelint: disable-file {code} -->{newline}"
    return [*edits, ("file", (Edit(top, top, whole),))]


def _fence_lines(text: str, line: int) -> tuple[int, int] | None:
    """(offset where the fence's opening line starts, offset after its closing line)
    of the fenced block holding this line, None outside fences."""
    from pathlib import Path

    file = SourceFile(path=Path("fence.md"), rel="fence.md", text=text)
    for fence in file.markdown.fences:
        last = text.count("\n", 0, max(fence.span.end - 1, fence.span.start)) + 1
        if fence.line <= line <= last:
            first = text.rfind("\n", 0, fence.span.start) + 1
            after = text.find("\n", max(fence.span.end - 1, fence.span.start))
            return first, len(text) if after < 0 else after + 1
    return None
