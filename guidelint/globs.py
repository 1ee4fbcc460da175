"""`.gitignore`-style globs decided without pathspec where the answer is plain.

Importing pathspec costs about as much as the rest of a one-file check's rules, and
most questions a check asks are plain: `README.md` against `CLAUDE.md` or `README.md`.
`decided()` answers those from the patterns' text; anything subtler (a negation that
could apply, a character class, an escape) stays undecided and goes to pathspec, the
reference (tests/test_globs.py compares the two on both corpora's paths).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fnmatch import translate
from functools import lru_cache

WILDCARDS = frozenset("*?[\\")


def decided(patterns: Sequence[str], rel: str) -> bool | None:
    """Whether pathspec's `GitIgnoreSpec.from_lines(patterns).match_file(rel)` would
    be true, when the patterns' text shows it; None when only pathspec can say."""
    return _known_decider(tuple(patterns))(rel)


@lru_cache(maxsize=64)
def _known_decider(patterns: tuple[str, ...]) -> Callable[[str], bool | None]:
    return decider(patterns)  # a run asks a few lists (the configuration's) of every file


def decider(patterns: Sequence[str]) -> Callable[[str], bool | None]:
    """`decided` for one list of patterns, read once: a rule asks the same list of
    every file (GL501's `.gitignore` holds dozens of patterns)."""
    positive = []
    negated = False
    for raw in patterns:
        if raw != raw.strip() or "\\" in raw or "[" in raw:
            return _undecided  # spaces, escapes, character classes: pathspec's rules
        if not raw or raw.startswith("#"):
            continue
        if raw.startswith("!"):
            negated = True
        else:
            positive.append(raw)
    may_match = _may_match_any(positive)
    # `_surely_matches` of each pattern that can say yes at all; none after a negation.
    sure = [] if negated else [shape for p in positive if (shape := _sure_shape(p))]

    def answer(rel: str) -> bool | None:
        segments = rel.split("/")
        if not may_match(segments):
            return False  # a negation only takes matches away
        for anchored, folder_only, body in sure:
            if anchored:
                if rel.startswith(body + "/") or (not folder_only and rel == body):
                    return True
            elif body in (segments[:-1] if folder_only else segments):
                return True  # the name anywhere; a folder's name only above the file
        return None

    return answer


def _undecided(rel: str) -> None:
    return None


def matcher(
    patterns: Sequence[str], compile_spec: Callable[[], Callable[[str], bool]]
) -> Callable[[str], bool]:
    """A `rel -> bool` that asks `compile_spec()` (built once, on first need) only for
    the paths `decided()` leaves open."""
    spec: list[Callable[[str], bool]] = []
    decide = decider(patterns)

    def matches(rel: str) -> bool:
        answer = decide(rel)
        if answer is not None:
            return answer
        if not spec:
            spec.append(compile_spec())
        return spec[0](rel)

    return matches


def _may_match_any(patterns: list[str]) -> Callable[[list[str]], bool]:
    """Whether any pattern may match a path (given as its segments): a pattern matches
    only if its last named segment matches one of the path's (the file's name, or a
    folder above it that the pattern matches)."""
    literal: set[str] = set()
    wild: list[str] = []
    for pattern in patterns:
        named = [s for s in pattern.strip("/").split("/") if s and s != "**"]
        if not named:
            return _always  # `**`, `/`: everything
        last = named[-1]
        if WILDCARDS & set(last):
            wild.append(last)
        else:
            literal.add(last)
    # fnmatchcase compiles each pattern with fnmatch.translate; one pattern for all.
    either = re.compile("|".join(f"(?:{translate(w)})" for w in wild)).match if wild else None

    def may_match(segments: list[str]) -> bool:
        if not literal.isdisjoint(segments):
            return True
        return either is not None and any(either(segment) for segment in segments)

    return may_match


def _always(segments: list[str]) -> bool:
    return True


def _sure_shape(pattern: str) -> tuple[bool, bool, str] | None:
    """A literal name or path (`README.md`, `/docs/`, `.claude/**`, `**/CLAUDE.md`)
    that plainly covers some paths, as (anchored at the root, folders only, the name
    or path); None for a pattern that never plainly covers a path."""
    body = pattern
    anywhere = body.startswith("**/")
    if anywhere:
        body = body[len("**/") :]
    # A slash before the end anchors a pattern at the root (`**/` says anywhere).
    anchored = not anywhere and "/" in pattern.rstrip("/")
    under = body.endswith("/**")
    if under:
        body = body[: -len("/**")]
    folder_only = under or body.endswith("/")
    body = body.rstrip("/").lstrip("/")
    if not body or WILDCARDS & set(body):
        return None
    if not anchored and "/" in body:
        return None  # `**/a/b`: left to pathspec
    return anchored, folder_only, body
