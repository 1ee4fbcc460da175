"""GL205 duplicate-gotcha: two entries share a fingerprint, or one headline repeats another."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from guidelint.findings import Finding, Severity
from guidelint.gotchas import files as gfiles
from guidelint.gotchas.headlines import headline_tokens, similarity
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
        by_fingerprint: dict[str, Entry] = {}
        tokens = [headline_tokens(e.headline) for e in entries]
        sharing: dict[str, list[int]] = {}  # a headline word -> the entries that have it
        for i, entry in enumerate(entries):
            # Only an earlier entry sharing a word can score above 0: ask those alone,
            # in file order (all earlier entries, compared pairwise, cost n^2).
            candidates = _sharing(sharing, tokens[i]) if threshold > 0 else range(i)
            for word in tokens[i] or {""}:  # "": headlines without words repeat each other
                sharing.setdefault(word, []).append(i)
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
            repeat = _first_repeat(entries, tokens, candidates, tokens[i], threshold)
            if repeat is not None:
                other, score = repeat
                yield self.finding(
                    file,
                    entry.headline_span,
                    f"headline repeats entry '{other.headline}' (line {other.line}): "
                    f"token similarity {score:.2f} >= duplicate-threshold {threshold:g}",
                )


def _sharing(sharing: dict[str, list[int]], tokens: frozenset[str]) -> list[int]:
    """The earlier entries that share a word with these tokens, in file order."""
    found: set[int] = set()
    for word in tokens or {""}:
        found.update(sharing.get(word, ()))
    return sorted(found)


def _first_repeat(
    entries: list[Entry],
    tokens: list[frozenset[str]],
    candidates: Iterable[int],
    own: frozenset[str],
    threshold: float,
) -> tuple[Entry, float] | None:
    """The first earlier entry (of the candidates) whose headline this one repeats,
    and the score."""
    for index in candidates:
        score = similarity(own, tokens[index])
        if score >= threshold:
            return entries[index], score
    return None
