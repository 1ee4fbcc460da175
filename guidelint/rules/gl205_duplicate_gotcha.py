"""GL205 duplicate-gotcha: two entries share a fingerprint, or one headline repeats another."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from guidelint.findings import Finding, Severity
from guidelint.gotchas import files as gfiles
from guidelint.gotchas.headlines import MIN_SHARED, headline_tokens, similarity
from guidelint.gotchas.model import Entry
from guidelint.gotchas.rulebase import GotchasRule
from guidelint.project import Project
from guidelint.sources import SourceFile


class DuplicateGotcha(GotchasRule):
    code = "GL205"
    name = "duplicate-gotcha"
    severity = Severity.ERROR

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        entries = gfiles.parsed(file, project).entries
        threshold = project.config.gotchas.duplicate_threshold
        repeats = Repeats([headline_tokens(e.headline) for e in entries], threshold)
        by_fingerprint: dict[str, Entry] = {}
        for i, entry in enumerate(entries):
            repeat = repeats.first_repeat(i)  # also indexes entry i for later ones
            earlier = by_fingerprint.get(entry.fingerprint) if entry.fingerprint else None
            if earlier is not None:
                yield self.finding(
                    file,
                    entry.headline_span,
                    f"same fingerprint {entry.fingerprint} as entry '{earlier.headline}' "
                    f"(line {earlier.line})",
                )
                continue
            if entry.fingerprint:
                by_fingerprint[entry.fingerprint] = entry
            if repeat is not None:
                other, score = repeat
                yield self.finding(
                    file,
                    entry.headline_span,
                    f"headline repeats entry '{entries[other].headline}' "
                    f"(line {entries[other].line}): token similarity {score:.2f} "
                    f">= duplicate-threshold {threshold:g}",
                )


class Repeats:
    """The first earlier headline each headline repeats, without comparing every pair.

    Prefix filtering: two headlines of m and n words can only score `threshold` when
    they share at least `needed(m, n)` words; the first shared word (words ordered
    rarest in the file first) then lies among the first m - needed + 1 words of one
    and n - needed + 1 words of the other. Each headline is indexed under that
    prefix of its own (for the smallest `needed` any partner allows) and looks up,
    per size of earlier headline, its own prefix for that size. A word every
    headline shares sorts last and is never looked up unless the headlines are so
    short that sharing it could be a repeat: a file whose every headline shares one
    word costs a comparison per entry, not per pair. The candidates are compared in
    file order, so the answer is the one a comparison of every pair gives.
    """

    def __init__(self, tokens: list[frozenset[str]], threshold: float) -> None:
        self.tokens = tokens
        self.threshold = threshold
        counts = Counter(word for words in tokens for word in words)
        self.ordered = [sorted(words, key=lambda w: (counts[w], w)) for words in tokens]
        self.sizes = sorted({len(words) for words in tokens})
        self.index: dict[int, dict[str, list[int]]] = {}  # size -> word -> entries

    def first_repeat(self, i: int) -> tuple[int, float] | None:
        """The first earlier entry whose headline entry i's repeats, and the score;
        then entry i joins the index."""
        own, words = self.tokens[i], self.ordered[i]
        found: set[int] = set()
        for size, by_word in self.index.items():
            shared = needed(len(own), size, self.threshold)
            if shared is not None:
                for word in words[: len(words) - shared + 1] or [""]:
                    found.update(by_word.get(word, ()))
        self._add(i)
        for other in sorted(found):
            score = similarity(own, self.tokens[other])
            if score >= self.threshold:
                return other, score
        return None

    def _add(self, i: int) -> None:
        words = self.ordered[i]
        least = [needed(len(words), size, self.threshold) for size in self.sizes]
        shared = min((n for n in least if n is not None), default=None)
        if shared is None:
            return  # no headline in the file could repeat this one
        by_word = self.index.setdefault(len(words), {})
        for word in words[: len(words) - shared + 1] or [""]:  # "": a headline of no words
            by_word.setdefault(word, []).append(i)


@lru_cache(maxsize=4096)
def needed(m: int, n: int, threshold: float) -> int | None:
    """The fewest shared words with which headlines of m and n words score
    `threshold` (`headlines.similarity`), or None when no number does."""
    if m == 0 or n == 0:
        return 0 if m == n else None  # two empty headlines repeat each other
    for shared in range(1, min(m, n) + 1):
        score = shared / min(m, n) if shared >= MIN_SHARED else shared / (m + n - shared)
        if score >= threshold:
            return shared
    return None
