"""Headlines: normalised for comparison, turned into anchors, compared for repeats."""

from __future__ import annotations

import re
from collections.abc import Iterable

from guidelint.gotchas.markup import plain

SLUG_DROP = re.compile(r"[^\w\- ]")
WORD = re.compile(r"[^\W_]+")
# Slugs are cut at this many words: long enough to tell entries apart, short
# enough for a readable link.
SLUG_WORDS = 8
MIN_SHARED = 3
# Words that carry no meaning when comparing two headlines.
STOPWORDS = frozenset(
    "a an and are as at be by for from in into is it its must never no not of on or "
    "the this to when with".split()
)


def normalize_headline(source: str) -> str:
    """Collapse whitespace and drop a final period, so row and entry compare fairly."""
    collapsed = " ".join(source.split())
    return collapsed.rstrip(".:;, ").strip()


def slugify(headline: str) -> str:
    """GitHub-style slug of a headline's first words: lower case, hyphens for spaces."""
    words = plain(headline).lower().split()[:SLUG_WORDS]
    slug = SLUG_DROP.sub("", " ".join(words)).strip().replace(" ", "-")
    return slug or "entry"


def unique_anchors(anchors: Iterable[str]) -> list[str]:
    """Suffix repeats like GitHub does for headings: x, x-1, x-2."""
    used: set[str] = set()
    result = []
    for anchor in anchors:
        candidate, count = anchor, 0
        while candidate in used:
            count += 1
            candidate = f"{anchor}-{count}"
        used.add(candidate)
        result.append(candidate)
    return result


def headline_tokens(headline: str) -> frozenset[str]:
    """Content words of a headline, lower case, a plural 's' dropped."""
    words = (w.lower() for w in WORD.findall(plain(headline)))
    return frozenset(_singular(w) for w in words if w not in STOPWORDS)


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """How much one headline repeats the other, from 0 to 1.

    With at least MIN_SHARED words in common it is the overlap coefficient (shared
    words over the shorter headline's words), so a headline that restates a longer
    one scores high; below that, Jaccard, so two short headlines that merely share
    a word or two do not.
    """
    if not a or not b:
        return 1.0 if a == b else 0.0
    shared = len(a & b)
    if shared >= MIN_SHARED:
        return shared / min(len(a), len(b))
    return shared / (len(a) + len(b) - shared)  # len(a | b), without building it
