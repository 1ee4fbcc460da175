"""`.gitignore`-style globs decided without pathspec where the answer is plain.

Importing pathspec costs about as much as the rest of a one-file check's rules, and
most questions a check asks are plain: `README.md` against `CLAUDE.md` or `README.md`.
`decided()` answers those from the patterns' text; anything subtler (a negation that
could apply, a character class, an escape) stays undecided and goes to pathspec, the
reference (tests/core/test_globs.py compares the two on both corpora's paths).

`Globs` is the one answer to "is this path in these globs" (`Project.globs()` keeps
one per pattern list for a run): `matches()` asks `decided()` first and pathspec only
for what it leaves open; `compiled()` is pathspec alone, as one regular expression
where that is exact, for walks that ask of every path.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from fnmatch import fnmatchcase
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from guidelint.errors import ConfigError

if TYPE_CHECKING:
    import pathspec

WILDCARDS = frozenset("*?[\\")
NAMED_GROUP = re.compile(r"\(\?P<\w+>")


class Globs:
    """`.gitignore`-style globs, compiled once and only if a path needs pathspec:
    `matches(rel)` is `GitIgnoreSpec.from_lines(patterns).match_file(rel)`."""

    __slots__ = ("patterns", "_compiled")

    def __init__(self, patterns: Iterable[str]) -> None:
        self.patterns = tuple(patterns)
        self._compiled: Callable[[str], bool] | None = None

    def __reduce__(self) -> tuple[type[Globs], tuple[tuple[str, ...]]]:
        # The compiled matcher is a closure: a copy for another process compiles anew.
        return (Globs, (self.patterns,))

    def matches(self, rel: str) -> bool:
        """Whether rel is in the globs: from their text where it shows, else pathspec."""
        answer = decided(self.patterns, rel)
        return self.compiled()(rel) if answer is None else answer

    def compiled(self) -> Callable[[str], bool]:
        """pathspec's answer for every path (imported and compiled on first call)."""
        if self._compiled is None:
            self._compiled = _compile(self.patterns)
        return self._compiled


def _compile(patterns: Sequence[str]) -> Callable[[str], bool]:
    if not any(p.strip() and not p.startswith("#") for p in patterns):
        return lambda rel: False  # no pattern at all: pathspec need not load
    import pathspec  # on first use: most questions are decided from the text

    try:
        spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    except Exception:  # re.error, GitWildMatchPatternError: name the pattern
        raise ConfigError(_invalid(patterns)) from None
    for pattern in spec.patterns:
        if pattern.regex is not None:
            pattern.regex = re.compile(without_backtracking(pattern.regex.pattern))
    return fast_match(spec)


# The gaps of pathspec's regular expressions, each with its lazy form: `*` in a
# segment, a leading `**/`, a `/**/` between segments (what `[^/]+` matches, one whole
# segment, is bounded by the slashes around it).
GAPS = {"[^/]*": "[^/]*?", "(?:.+/)?": "(?:.+?/)??", "(?:/.+)?": "(?:/.+?)??"}
# One character of the text each: an escape, `?`, a class with no slash, a plain
# character, or a slash. Anything else (a group, an anchor, `[^/]+`) ends a piece, and
# so does a negated class (pathspec's `[!a]` matches a slash, so a piece could span
# two segments).
FIXED = re.compile(r"\\.|\[\^/\](?![*+])|\[(?!\^)(?:\\.|[^\]\\/])+\](?![*+])|[^\\\[\]()|*+?{}^$.]")
_TOKEN = re.compile("|".join(re.escape(gap) for gap in GAPS))


def without_backtracking(regex: str) -> str:
    """pathspec's regular expression for one pattern, matching the same paths in about
    linear time. Where a gap is followed by a piece of fixed width and then another
    gap, the first place the piece fits is as good as any later one (the next gap
    takes up the difference), so the gap and its piece become an atomic group that
    tries the shortest gap first and is never tried again. Left as it was, a pull
    request's `exclude = ["*?*?*?*?*?*?*?*?*?*?b"]` or `**/a/**/a/**/a/**/b` made a
    check backtrack for hours over one long path."""
    out: list[str] = []
    at = 0
    while True:
        gap = _TOKEN.search(regex, at)
        if gap is None:
            return "".join(out) + regex[at:]
        end = gap.end()
        while (fixed := FIXED.match(regex, end)) is not None:
            end = fixed.end()
        piece = regex[gap.end() : end]
        after = _TOKEN.match(regex, end)
        out.append(regex[at : gap.start()])
        if after is not None and piece and _absorbs(gap.group(), after.group(), piece):
            # Before `/**/`, the piece must end a segment, as the slash after it says.
            ahead = "(?=/)" if after.group() == "(?:/.+)?" else ""
            out.append(f"(?>{GAPS[gap.group()]}{piece}{ahead})")
        else:
            out.append(regex[gap.start() : end])
        at = end


def _absorbs(gap: str, after: str, piece: str) -> bool:
    """Whether the gap after a piece can take up the text between its first place and
    any later one: `/**/` always (the piece ends a segment either way); `*` only after
    a `*` in the same segment (no slash between the two places)."""
    return after == "(?:/.+)?" or (gap == after == "[^/]*")


def valid(*patterns: str) -> bool:
    """Whether pathspec reads the patterns (`[z-a]` it cannot; git ignores such a line)."""
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines(patterns)
    except Exception:
        return False
    return True


def readable(lines: Sequence[str]) -> list[str]:
    """A `.gitignore`'s lines without those pathspec cannot read (git ignores them)."""
    if all(surely_valid(line) for line in lines) or valid(*lines):
        return list(lines)
    return [line for line in lines if surely_valid(line) or why_invalid(line) is None]


def _invalid(patterns: Sequence[str]) -> str:
    """One line naming the first pattern pathspec cannot read, and why."""
    for pattern in patterns:
        why = why_invalid(pattern)
        if why is not None:
            return f"glob {pattern!r}: not a valid pattern ({why})"
    return f"globs {list(patterns)!r}: not valid patterns"


def surely_valid(pattern: str) -> bool:
    """Whether pathspec surely reads the pattern, from its text alone (no import): what
    it refuses needs a class (`[z-a]`), an escape (a lone trailing `\\`) or a leading
    `!` (one that leaves nothing)."""
    return not pattern.startswith("!") and "[" not in pattern and "\\" not in pattern


def why_invalid(pattern: str) -> str | None:
    """Why pathspec cannot read the pattern (`bad character range z-a`), else None."""
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines([pattern])
    except Exception as error:  # re.error, GitWildMatchPatternError, ValueError
        return str(error).split(" at position")[0]
    return None


def fast_match(spec: pathspec.PathSpec) -> Callable[[str], bool]:
    """`spec.match_file` for normalised POSIX relpaths, as one regex when that is exact.

    pathspec tries every pattern in turn (about 0.1 ms a file on a big .gitignore);
    without negations, "any pattern matches" is one alternation, many times faster.
    """
    patterns = [p for p in spec.patterns if p.include is not None]
    if any(p.include is False or getattr(p, "regex", None) is None for p in patterns):
        return spec.match_file
    if not patterns:
        return lambda rel: False
    # Group names repeat across patterns; the matcher needs none of them.
    alternatives = (NAMED_GROUP.sub("(?:", p.regex.pattern) for p in patterns)
    try:
        combined = re.compile("|".join(f"(?:{a})" for a in alternatives))
    except re.error:
        return spec.match_file
    return lambda rel: combined.match(rel) is not None


def decided(patterns: Sequence[str], rel: str) -> bool | None:
    """Whether pathspec's `GitIgnoreSpec.from_lines(patterns).match_file(rel)` would
    be true, when the patterns' text shows it; None when only pathspec can say."""
    plan = _plan(tuple(patterns))
    if plan is None:
        return None  # spaces, escapes, character classes: pathspec's rules
    positive, negated = plan
    segments = rel.split("/")
    if not any(p.may_match(segments) for p in positive):
        return False  # a negation only takes matches away
    if not negated and any(p.surely_matches(rel, segments) for p in positive):
        return True
    return None


class _Positive(NamedTuple):
    """One pattern that is not a negation, read once (`_plan`) for every path."""

    first: str | None  # an anchored pattern's literal first folder
    last: str | None  # its last named segment; None: it names none (`**`)
    last_wild: bool
    body: str  # what `surely_matches` compares, with `how`
    how: str  # "name" (anywhere), "wild-name", "anchored" or "" (never sure)
    folder_only: bool

    def may_match(self, segments: list[str]) -> bool:
        """A pattern matches a path only if its last named segment matches one of the
        path's (the file's name, or a folder above it that the pattern matches), and
        an anchored one (`/hooks/x.json`, `plugins/*/y`) only if its literal first
        segment is the path's first."""
        if self.last is None:
            return True  # `**`, `/`: everything
        if self.first is not None and self.first != segments[0]:
            return False
        if not self.last_wild:
            return self.last in segments
        return any(fnmatchcase(segment, self.last) for segment in segments)

    def surely_matches(self, rel: str, segments: list[str]) -> bool:
        """A literal name or path (`README.md`, `/docs/`, `.claude/**`, `**/CLAUDE.md`),
        or one name with wildcards anywhere (`CHANGELOG*.md`), that plainly covers
        rel; False for anything else (not a "no")."""
        how = self.how
        if how == "anchored":
            return rel.startswith(self.body + "/") or (not self.folder_only and rel == self.body)
        if not how:
            return False
        # The name anywhere; a folder's name only above the file.
        names = segments[:-1] if self.folder_only else segments
        if how == "name":
            return self.body in names
        # gitignore's `*` and `?` stop at a slash, as fnmatch's do within one name.
        return any(fnmatchcase(name, self.body) for name in names)


@lru_cache(maxsize=256)
def _plan(patterns: tuple[str, ...]) -> tuple[tuple[_Positive, ...], bool] | None:
    """The patterns read once: the positive ones, and whether any is a negation;
    None when one needs pathspec's own rules."""
    positive = []
    negated = False
    for raw in patterns:
        if raw != raw.strip() or "\\" in raw or "[" in raw:
            return None
        if not raw or raw.startswith("#"):
            continue
        if raw.startswith("!"):
            negated = True
        else:
            positive.append(_read(raw))
    return tuple(positive), negated


def _read(pattern: str) -> _Positive:
    named = [s for s in pattern.strip("/").split("/") if s and s != "**"]
    anchored = _anchored(pattern)
    first = None
    if anchored:
        head = pattern.lstrip("/").split("/", 1)[0]
        if head not in (".", "..") and not WILDCARDS & set(head):
            first = head
    last = named[-1] if named else None
    body = pattern
    anywhere = body.startswith("**/")
    if anywhere:
        body = body[len("**/") :]
    under = body.endswith("/**")
    if under:
        body = body[: -len("/**")]
    folder_only = under or body.endswith("/")
    body = body.rstrip("/").lstrip("/")
    if body and not anchored and "/" not in body and "**" not in body:
        how = "wild-name" if WILDCARDS & set(body) else "name"
    elif not body or WILDCARDS & set(body) or not anchored:
        how = ""  # `**/a/b`, wildcards in a path: left to pathspec
    else:
        how = "anchored"
    return _Positive(
        first, last, last is not None and bool(WILDCARDS & set(last)), body, how, folder_only
    )


def _anchored(pattern: str) -> bool:
    """A slash before the end anchors a pattern at the root (`**/` says anywhere)."""
    return not pattern.startswith("**/") and "/" in pattern.rstrip("/")
