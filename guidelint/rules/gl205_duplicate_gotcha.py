"""GL205 duplicate-gotcha: two entries share a fingerprint, or one headline repeats another."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from itertools import islice

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
        if repeats.capped:
            yield self._stopped_looking(file, entries, repeats.capped)

    def _stopped_looking(
        self, file: SourceFile, entries: list[Entry], capped: list[int]
    ) -> Finding:
        """The one note that some entries were compared with part of their candidates."""
        first = entries[capped[0]]
        return self.finding(
            file,
            first.headline_span,
            f"{len(capped)} entries, this one first, share their rarest headline words with "
            f"so many others that each was compared with its first {CANDIDATES_PER_ENTRY} "
            "candidates only (a cap that keeps the check linear); a repeat among the rest "
            "is not reported",
            severity=Severity.WARNING,
        )


# Earlier entries one entry is compared with, at most, and postings (entries found
# under a word) plus lookups it may read to find them. A realistic file needs a
# few per entry. A file crafted so that hundreds of headlines share their rarest
# words reaches them; there each entry is compared with the first candidates its
# rarest words give, the cost stays linear, and the rule says once that it stopped.
CANDIDATES_PER_ENTRY = 32
READS_PER_ENTRY = 8 * CANDIDATES_PER_ENTRY


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
    file order, so the answer is the one a comparison of every pair gives, unless
    an entry's lookups reach CANDIDATES_PER_ENTRY (then `capped` counts it).
    """

    def __init__(self, tokens: list[frozenset[str]], threshold: float) -> None:
        self.tokens = tokens
        self.threshold = threshold
        counts = Counter(word for words in tokens for word in words)
        self.ordered = [sorted(words, key=lambda w: (counts[w], w)) for words in tokens]
        self.sizes = sorted({len(words) for words in tokens})
        self.index: dict[int, dict[str, list[int]]] = {}  # size -> word -> entries
        self.least: dict[int, int | None] = {}  # size -> _least_needed
        self.capped: list[int] = []  # entries that stopped looking at the cap

    def first_repeat(self, i: int) -> tuple[int, float] | None:
        """The first earlier entry whose headline entry i's repeats, and the score;
        then entry i joins the index."""
        own = self.tokens[i]
        found = self._candidates(i)
        self._add(i)
        for other in sorted(found):
            score = similarity(own, self.tokens[other])
            if score >= self.threshold:
                return other, score
        return None

    def _candidates(self, i: int) -> set[int]:
        """Earlier entries sharing a word of i's prefix for their size: at most
        CANDIDATES_PER_ENTRY of them, found in at most READS_PER_ENTRY reads."""
        words = self.ordered[i]
        found: set[int] = set()
        reads = READS_PER_ENTRY
        for size, by_word in self.index.items():
            shared = needed(len(words), size, self.threshold)
            reads -= 1
            if shared is None:
                continue
            for word in islice(words, len(words) - shared + 1) if words else [""]:
                postings = by_word.get(word, ())
                for other in islice(postings, max(reads, 0)):
                    found.add(other)
                    if len(found) == CANDIDATES_PER_ENTRY:
                        break
                reads -= 1 + len(postings)
                if reads < 0 or len(found) == CANDIDATES_PER_ENTRY:
                    self.capped.append(i)
                    return found
        return found

    def _add(self, i: int) -> None:
        words = self.ordered[i]
        shared = self._least_needed(len(words))
        if shared is None:
            return  # no headline in the file could repeat this one
        by_word = self.index.setdefault(len(words), {})
        for word in words[: len(words) - shared + 1] or [""]:  # "": a headline of no words
            by_word.setdefault(word, []).append(i)

    def _least_needed(self, size: int) -> int | None:
        """The fewest shared words any headline of the file needs to repeat one of
        `size` words; once per size (distinct sizes are at most sqrt(2 x words))."""
        if size not in self.least:
            least = [needed(size, other, self.threshold) for other in self.sizes]
            self.least[size] = min((n for n in least if n is not None), default=None)
        return self.least[size]


def needed(m: int, n: int, threshold: float) -> int | None:
    """The fewest shared words with which headlines of m and n words score
    `threshold` (`headlines.similarity`), or None when no number does; a few steps,
    whatever the sizes."""
    if m == 0 or n == 0:
        return 0 if m == n else None  # two empty headlines repeat each other
    fewer = min(m, n)
    for shared in range(1, min(MIN_SHARED, fewer + 1)):  # Jaccard below MIN_SHARED
        if shared / (m + n - shared) >= threshold:
            return shared
    # From one below the exact bound, so rounding in threshold * fewer cannot skip one.
    start = max(MIN_SHARED, math.ceil(threshold * fewer) - 1)
    for shared in range(start, min(start + 3, fewer + 1)):
        if shared / fewer >= threshold:
            return shared
    return None
