"""GL401 example-syntax-error: a Python example in a guide does not parse."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.doc_kind import is_fixture
from guidelint.findings import Finding, Severity
from guidelint.lazy_re import LazyPattern
from guidelint.runner.rulebase import ExampleRule
from guidelint.spans import Span

# Syntax newer than the running Python: PEP 695 type parameters and `type` aliases.
NEWER_SYNTAX = LazyPattern(r"^\s*(?:(?:async\s+)?def|class)\s+\w+\[|^\s*type\s+\w+", re.MULTILINE)
BLOCK_OPENER = LazyPattern(r":\s*(?:#.*)?$")

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile


class ExampleSyntaxError(ExampleRule):
    code = "GL401"
    name = "example-syntax-error"
    summary = "A Python example in a guide does not parse, or its fence is never closed."
    severity = Severity.ERROR

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        # A test fixture's broken example is the input its test feeds a tool.
        return super().applies_to(file, project) and not is_fixture(file.rel)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.runner.examples import source_offset, syntax_errors_of

        for example, error in zip(self.examples(file), syntax_errors_of(file), strict=True):
            if example.settings.skip:
                continue
            if not example.closed:
                start = file.lines.offset(example.line)
                span = Span(start, file.lines.line_end(example.line))
                yield self.finding(
                    file,
                    span,
                    f"the ```{example.lang} fence opened here is never closed"
                    " (everything after it would be code)",
                )
                continue
            if error is None or not_python_code(example.python_source()):
                continue
            offset = source_offset(example, file.lines, error.lineno or 1, error.offset or 1)
            yield self.finding(file, Span(offset, offset), f"example does not parse: {error.msg}")


def not_python_code(source: str) -> bool:
    """A `python` fence that holds no program, so its parse error is no defect: an API
    reference's signatures (`tool(self, fn: F) -> F`), an outline of `def` lines with
    no bodies, or syntax newer than the Python guidelint runs on."""
    if sys.version_info < (3, 12) and NEWER_SYNTAX.search(source):
        return True
    stripped = source.strip()
    if stripped and _parses("def " + stripped + ": ..."):
        return True  # a signature, as API reference pages show them
    return _parses(_with_bodies(source))


def _with_bodies(source: str) -> str:
    """The source with `...` after each block opener that has no indented body."""
    lines = source.split("\n")
    out = []
    for index, line in enumerate(lines):
        out.append(line)
        if not BLOCK_OPENER.search(line) or not line.strip():
            continue
        following = next((later for later in lines[index + 1 :] if later.strip()), "")
        indent = len(line) - len(line.lstrip())
        if len(following) - len(following.lstrip()) <= indent:
            out[-1] = line + " ..."
    return "\n".join(out)


def _parses(source: str) -> bool:
    import ast

    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    return True
