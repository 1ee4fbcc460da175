"""GL205 duplicate-gotcha: two entries share a fingerprint, or one headline repeats another."""

from __future__ import annotations

from collections.abc import Iterator

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
        for i, entry in enumerate(entries):
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
            repeat = _first_repeat(entries[:i], tokens[:i], tokens[i], threshold)
            if repeat is not None:
                other, score = repeat
                yield self.finding(
                    file,
                    entry.headline_span,
                    f"headline repeats entry '{other.headline}' (line {other.line}): "
                    f"token similarity {score:.2f} >= duplicate-threshold {threshold:g}",
                )


def _first_repeat(
    earlier: list[Entry],
    earlier_tokens: list[frozenset[str]],
    tokens: frozenset[str],
    threshold: float,
) -> tuple[Entry, float] | None:
    """The first earlier entry whose headline this one repeats, and the score."""
    for other, other_tokens in zip(earlier, earlier_tokens, strict=True):
        score = similarity(tokens, other_tokens)
        if score >= threshold:
            return other, score
    return None
