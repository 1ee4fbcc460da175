"""`.gitignore`-style globs decided without pathspec where the answer is plain.

Importing pathspec costs about as much as the rest of a one-file check's rules, and
most questions a check asks are plain: `README.md` against `CLAUDE.md` or `README.md`.
`decided()` answers those from the patterns' text; anything subtler (a negation that
could apply, a character class, an escape) stays undecided and goes to pathspec, the
reference (tests/test_globs.py compares the two on both corpora's paths).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fnmatch import fnmatchcase

WILDCARDS = frozenset("*?[\\")


def decided(patterns: Sequence[str], rel: str) -> bool | None:
    """Whether pathspec's `GitIgnoreSpec.from_lines(patterns).match_file(rel)` would
    be true, when the patterns' text shows it; None when only pathspec can say."""
    segments = rel.split("/")
    positive = []
    negated = False
    for raw in patterns:
        if raw != raw.strip() or "\\" in raw or "[" in raw:
            return None  # spaces, escapes, character classes: pathspec's rules
        if not raw or raw.startswith("#"):
            continue
        if raw.startswith("!"):
            negated = True
        else:
            positive.append(raw)
    if not any(_may_match(p, segments) for p in positive):
        return False  # a negation only takes matches away
    if not negated and any(_surely_matches(p, rel, segments) for p in positive):
        return True
    return None


def matcher(
    patterns: Sequence[str], compile_spec: Callable[[], Callable[[str], bool]]
) -> Callable[[str], bool]:
    """A `rel -> bool` that asks `compile_spec()` (built once, on first need) only for
    the paths `decided()` leaves open."""
    spec: list[Callable[[str], bool]] = []

    def matches(rel: str) -> bool:
        answer = decided(patterns, rel)
        if answer is not None:
            return answer
        if not spec:
            spec.append(compile_spec())
        return spec[0](rel)

    return matches


def _may_match(pattern: str, segments: list[str]) -> bool:
    """A pattern matches a path only if its last named segment matches one of the
    path's (the file's name, or a folder above it that the pattern matches)."""
    named = [s for s in pattern.strip("/").split("/") if s and s != "**"]
    if not named:
        return True  # `**`, `/`: everything
    last = named[-1]
    if not WILDCARDS & set(last):
        return last in segments
    return any(fnmatchcase(segment, last) for segment in segments)


def _surely_matches(pattern: str, rel: str, segments: list[str]) -> bool:
    """A literal name or path (`README.md`, `/docs/`, `.claude/**`, `**/CLAUDE.md`)
    that plainly covers rel; False for anything else (not a "no")."""
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
        return False
    if anchored:
        return rel.startswith(body + "/") or (not folder_only and rel == body)
    if "/" in body:
        return False  # `**/a/b`: left to pathspec
    # The name anywhere; a folder's name only above the file.
    return body in (segments[:-1] if folder_only else segments)
