"""Example settings: `{key=value ...}` in a fence's info string, or a comment above it.

    ```python {id=tiny-pipe timeout=120}
    <!-- guidelint: pending needs=diffusers session=pipe -->

Every token keeps its character span in the file, so `--promote` can rewrite
`pending` into `verified=DATE` in place and GL403 can point at a misspelling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from guidelint.comments import Token, parse_directive, tokenize
from guidelint.runner.config import MAX_TIMEOUT_S
from guidelint.spans import Span

FLAGS = ("skip", "pending")
VALUED = ("id", "needs", "session", "timeout", "expect-error", "verified")
KNOWN = FLAGS + VALUED
NEEDS = ("gpu", "diffusers")
# Keys of the rule-page harness (guidelint/testing.py): such a fence is a test case
# of a rule page, not a guide example, and is neither checked nor run.
HARNESS_KEYS = ("example", "fixture")
# Mintlify's code-block attributes (mintlify.com/docs/create/code): another tool's.
MINTLIFY_KEYS = ("theme", "lines", "icon", "wrap", "expandable", "highlight", "focus")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
NAME = re.compile(r"^[A-Za-z_][\w.]*$")


@dataclass(frozen=True, slots=True)
class DirectiveProblem:
    """A misspelled key or a bad value (GL403), where it is in the file."""

    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class Settings:
    id: str | None = None
    skip: bool = False
    pending: bool = False
    verified: str | None = None
    needs: tuple[str, ...] = ()
    session: str | None = None
    timeout: float | None = None
    expect_error: str | None = None


@dataclass
class Directives:
    """All settings tokens of one example, in file order, with their problems."""

    tokens: list[Token] = field(default_factory=list)
    problems: list[DirectiveProblem] = field(default_factory=list)

    def settings(self) -> Settings:
        values: dict[str, Any] = {}
        needs: list[str] = []
        for token in self.tokens:
            if token.key in FLAGS:
                values[token.key] = True
            elif token.key == "needs":
                needs.extend(n for n in (token.value or "").split(",") if n in NEEDS)
            elif token.key == "timeout":
                values["timeout"] = _number(token.value)
            elif token.key in VALUED:
                values[token.key.replace("-", "_")] = token.value
        return Settings(needs=tuple(dict.fromkeys(needs)), **values)


def info_tokens(info_line: str, line_offset: int) -> list[Token] | None:
    """Tokens of the `{...}` group of a fence's opening line, None when there is none.

    A group with a `.class` or `#id` token, or an HTML `data-*` attribute
    (`{data-mdtest="ignore"}`), is Pandoc/MkDocs attribute syntax, not ours; so is
    a group with a Mintlify code-block attribute (`{theme=null}`). A group that is
    an attribute's value (`theme={null}`, `highlight={1,3}`: JSX-style, Mintlify's)
    is skipped: ours stands alone.
    """
    group = _own_group(info_line)
    if group is None:
        return None
    start, end = group
    tokens = tokenize(info_line[start + 1 : end], line_offset + start + 1)
    if any(t.key.startswith((".", "#", "data-")) or t.key in MINTLIFY_KEYS for t in tokens):
        return None
    return tokens


def _own_group(info_line: str) -> tuple[int, int] | None:
    """Where the first `{...}` group that is not a `key={...}` value opens and closes."""
    start = info_line.find("{")
    while start != -1:
        end = info_line.find("}", start)
        if end == -1:
            return None
        if start == 0 or info_line[start - 1] != "=":
            return start, end
        start = info_line.find("{", end)
    return None


def comment_tokens(raw: str, offset: int) -> list[Token] | None:
    """Tokens of a `<!-- guidelint: ... -->` comment that is an example's, else None
    (suppressions and the gotchas row cap are other pillars' comments)."""
    directive = parse_directive(raw, offset)
    if directive is None or not directive.tokens or directive.owner != "example":
        return None
    return list(directive.tokens)


def validate(token: Token) -> str | None:
    """What is wrong with one token, or None."""
    key, value = token.key, token.value
    if key not in KNOWN:
        return f"unknown example directive '{key}'{_did_you_mean(key, KNOWN)}"
    if key in FLAGS:
        return None if value is None else f"'{key}' takes no value (got '{key}={value}')"
    if not value:
        return f"'{key}' needs a value ({key}=...)"
    if key == "timeout" and not _positive(_number(value)):
        return (
            f"timeout must be a positive number of seconds, at most {MAX_TIMEOUT_S:g} "
            f"(got '{value}')"
        )
    if key == "needs":
        for need in value.split(","):
            if need not in NEEDS:
                hint = _did_you_mean(need, NEEDS)
                return f"unknown need '{need}'{hint}; known: {', '.join(NEEDS)}"
    if key == "verified" and not DATE.match(value):
        return f"verified must be a date YYYY-MM-DD (got '{value}')"
    if key == "expect-error" and not NAME.match(value):
        return f"expect-error must name an exception class (got '{value}')"
    return None


def _number(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _positive(number: float | None) -> bool:
    """A usable timeout: finite, above 0, at most a day (`inf`, `nan`, `1e308` are not)."""
    return number is not None and 0 < number <= MAX_TIMEOUT_S


def _did_you_mean(word: str, choices: tuple[str, ...]) -> str:
    import difflib  # for a did-you-mean only

    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.5)
    return f" (did you mean '{close[0]}'?)" if close else ""
