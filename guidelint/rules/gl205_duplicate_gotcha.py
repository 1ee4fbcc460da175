"""GL205 duplicate-gotcha: two entries share a fingerprint, or one headline repeats another."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator

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
        if repeats.limited:
            yield self._stopped_looking(file, entries, repeats.limited)

    def _stopped_looking(
        self, file: SourceFile, entries: list[Entry], limited: list[int]
    ) -> Finding:
        """The one note that some entries were not compared with every earlier entry
        that could repeat them."""
        first = entries[limited[0]]
        return self.finding(
            file,
            first.headline_span,
            f"{len(limited)} entries, this one first, share their rarest headline words with "
            f"so many others that they were not compared with all of them: a word in more "
            f"than {CROWDED} headlines leads to no comparison, and an entry is compared with "
            f"{CANDIDATES_PER_ENTRY} earlier ones at most (limits that keep the check "
            "linear); a repeat made only of such words, or beyond those, is not reported",
            severity=Severity.WARNING,
        )


# Two limits keep each entry's cost under a constant, from the first entry on and
# whatever the file's size. A word in more than CROWDED headlines of the file leads
# to no comparison (a stop word the file chose): reading its entries would cost each
# entry a share of the file, and two headlines that repeat each other share rarer
# words too. Headlines made of the same words are still found (by their word set).
# An entry is compared with at most CANDIDATES_PER_ENTRY earlier ones. A hand-written
# file reaches neither; one that does gets one warning (`limited`).
CROWDED = 32
CANDIDATES_PER_ENTRY = 32


class Repeats:
    """The first earlier headline each headline repeats, without comparing every pair.

    Prefix filtering: two headlines of m and n words can only score `threshold` when
    they share at least `needed(m, n)` words; the first shared word (words ordered
    rarest in the file first) then lies among the first m - needed + 1 words of each.
    Each headline is indexed under, and looks up, that prefix for the smallest
    `needed` any headline of the file allows; crowded words (in more than `crowded`
    headlines) sort last and are left out of it, which loses exactly the pairs that
    share crowded words only. Identical word sets are found by a dict. Candidates are
    compared in file order, so the answer is the one a comparison of every pair gives
    unless an entry is `limited`: a crowded word was in its prefix, or it had more
    than CANDIDATES_PER_ENTRY candidates.
    """

    def __init__(
        self, tokens: list[frozenset[str]], threshold: float, crowded: int = CROWDED
    ) -> None:
        self.tokens = tokens
        self.threshold = threshold
        self.crowded = crowded
        self.counts = Counter(word for words in tokens for word in words)
        self.sizes = sorted({len(words) for words in tokens})
        self.least: dict[int, int | None] = {}  # size -> _least_needed
        self.index: dict[str, list[int]] = {}  # uncrowded prefix word -> entries
        self.same: dict[frozenset[str], int] = {}  # word set -> first entry with it
        self.limited: list[int] = []

    def first_repeat(self, i: int) -> tuple[int, float] | None:
        """The first earlier entry whose headline entry i's repeats, and the score;
        then entry i joins the index."""
        own = self.tokens[i]
        keys = self._keys(i)
        found = self._candidates(i, keys)
        if own in self.same:
            found.add(self.same[own])
        else:
            self.same[own] = i
        for word in keys:
            self.index.setdefault(word, []).append(i)
        for other in sorted(found):
            score = similarity(own, self.tokens[other])
            if score >= self.threshold:
                return other, score
        return None

    def _keys(self, i: int) -> list[str]:
        """Entry i's prefix without its crowded words (which sort last)."""
        words = self.tokens[i]
        shared = self._least_needed(len(words))
        if shared is None or not words:
            return []  # no other headline could repeat it; an empty one: by `same`
        ordered = sorted(words, key=lambda word: (self.counts[word], word))
        prefix = ordered[: len(words) - shared + 1]
        keys = [word for word in prefix if self.counts[word] <= self.crowded]
        if len(keys) < len(prefix):
            self.limited.append(i)
        return keys

    def _candidates(self, i: int, keys: list[str]) -> set[int]:
        """Earlier entries indexed under one of `keys`: at most CANDIDATES_PER_ENTRY
        (each key has fewer than `crowded` earlier entries)."""
        found: set[int] = set()
        for word in keys:
            for other in self.index.get(word, ()):
                found.add(other)
                if len(found) == CANDIDATES_PER_ENTRY:
                    if not self.limited or self.limited[-1] != i:
                        self.limited.append(i)
                    return found
        return found

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
