"""GL501's shortcuts for reading a span's sentence answer as the patterns do (#28).

`Worded` skips a pattern on ASCII text holding none of its words, `AtEnd` runs a
pattern anchored at the end on the last few words only, and `sentence_tail` /
`sentence_head` skip SENTENCE_END where no [.!?] meets white space: each must give
what the plain pattern gives on any text.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from guidelint.rules.stale_path import sentences
from guidelint.rules.stale_path.sentences import SENTENCE_END, AtEnd, Worded

# Words of the patterns, pieces that nearly match them, and odd white space.
PIECES = (
    "will ",
    "live",
    "be created",
    "not ",
    "yet",
    "n't",
    "don't",
    "exist",
    "part of",
    "ship",
    "shipped",
    "or ",
    "similar",
    "the like",
    "equivalent",
    "e.",
    "g.",
    "e.g.",
    "for example",
    "such as",
    "formerly",
    "previously",
    "renamed from",
    "was at",
    "old path",
    "original path",
    "run",
    "Run",
    "execute",
    "call",
    "source",
    "the",
    "script",
    "no",
    "never",
    "without",
    "x",
    "-",
    "`",
    ".",
    "!",
    "? ",
    " ",
    "  ",
    "\t",
    "\n",
    "\x1c",
    "\xa0",
    "A",
    "Z",
    "é",
    "ſ",
    "K",
    "WILL ",
    "NOT ",
    "e. g.",
    "i.e.",
    "path/to",
)
TEXTS = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)
SHORTCUTS = [
    (name, value) for name, value in vars(sentences).items() if isinstance(value, (Worded, AtEnd))
]


def test_the_shortcuts_cover_the_patterns_they_name():
    names = {name for name, _ in SHORTCUTS}
    assert {"NOT_SHIPPED", "RUN_BEFORE", "NEGATED", "USED_TO_BE", "OR_SIMILAR"} <= names


@settings(max_examples=400, deadline=None)
@given(text=TEXTS)
def test_each_shortcut_finds_what_its_pattern_finds(text):
    for name, shortcut in SHORTCUTS:
        assert bool(shortcut.search(text)) == bool(shortcut.pattern.search(text)), name


@settings(max_examples=400, deadline=None)
@given(text=TEXTS)
def test_sentence_tail_and_head_split_as_sentence_end_does(text):
    assert sentences.sentence_tail(text) == SENTENCE_END.split(text)[-1]
    assert sentences.sentence_head(text) == SENTENCE_END.split(text)[0]
