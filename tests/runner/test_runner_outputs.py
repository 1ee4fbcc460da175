"""Output normalisation: properties that --update and the comparison rely on."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from guidelint.runner.outputs import block_text, compare, normalise

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200)


@given(TEXT)
def test_normalise_is_idempotent(text):
    assert normalise(normalise(text)) == normalise(text)


@given(TEXT)
def test_an_updated_block_matches_what_was_printed(text):
    # --update writes block_text(stdout); the next run must then pass.
    assert compare(block_text(text), text) is None


@given(TEXT, st.sampled_from([" ", "\t", "  \n", "\n\n", "\r\n"]))
def test_trailing_whitespace_never_matters(text, tail):
    assert compare(text, text + tail) is None
