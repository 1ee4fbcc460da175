"""GL501's shortcuts for reading a span's sentence answer as the patterns do (#28).

`Worded` skips a pattern on ASCII text holding none of its words, `AtEnd` runs a
pattern anchored at the end on the last few words only, and `sentence_tail` /
`sentence_head` skip SENTENCE_END where no [.!?] meets white space: each must give
what the plain pattern gives on any text.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guidelint.rules import gl501_stale_path
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
    "create",
    "written",
    "if it exists",
    "stores it in",
    "at runtime",
    "in that repo",
    "gitignore`d",
    "legacy",
    "old",
    "Deprecated",
    "xold",
    "-old",
)
TEXTS = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)
SHORTCUTS = [
    (name, value) for name, value in vars(sentences).items() if isinstance(value, (Worded, AtEnd))
]


def test_the_shortcuts_cover_the_patterns_they_name():
    names = {name for name, _ in SHORTCUTS}
    assert {"NOT_SHIPPED", "RUN_BEFORE", "NEGATED", "USED_TO_BE", "OR_SIMILAR"} <= names
    assert {"CREATED", "OLD"} <= names  # run on each span's whole sentence, words before it


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


def test_the_sentence_after_a_quoted_span_goes_on_into_the_next_quoted_line():
    """Also on a line other than the first (QUOTE_MARK's `^` matches only at 0 when
    given a start offset, so the check had stopped at the first line's quotes)."""
    text = "Intro.\n\n> (`x/`, the `Tool` protocol)\n> which is not part of the layer shipped today"
    end = text.index("`,") + 1
    assert "which is not part of the layer shipped today" in sentences.whole_sentence_after(
        text, end
    )
    assert sentences.said_not_shipped(text, text.index("`x/`"), end)


def test_a_sentence_on_one_line_never_looks_for_its_line_start(monkeypatch):
    """The line's start (read back over the whole line) is asked only once the sentence
    reaches a following line: on one long line, every span asking made GL501 quadratic."""

    def read_back(text: str, end: int) -> bool:
        raise AssertionError("read back to the line's start")

    monkeypatch.setattr(sentences, "in_quote", read_back)
    text = "Run `a/b.py` and more, " * 100  # no sentence end, no newline
    assert sentences.whole_sentence_after(text, text.index("`a/b.py`", 1000) + 8)


@settings(max_examples=200, deadline=None)
@given(text=TEXTS, at=st.integers(min_value=0, max_value=200))
def test_the_newline_before_an_offset_is_rfinds(text, at):
    newlines = gl501_stale_path._newline_offsets(text)
    expected = text.rfind("\n", 0, at)
    assert gl501_stale_path._newline_before(newlines, at) == expected


@pytest.mark.parametrize("count", [1, 3, 6])
def test_at_end_shortcuts_on_long_text_read_its_last_words(count):
    text = "legacy word " * 200 + "the old "
    assert sentences.last_words(text, count) == " ".join(text.split()[-count:]) + " "
