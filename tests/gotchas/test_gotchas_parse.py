"""The tolerant gotchas parser: entries, anchors, provenance, row cap, index forms."""

from __future__ import annotations

from pathlib import Path

from guidelint.gotchas.headlines import headline_tokens, similarity, slugify, unique_anchors
from guidelint.gotchas.parse import parse_gotchas

FIXTURES = Path(__file__).parents[1] / "fixtures" / "gotchas"
SMOKE_ENTRY = """\
- **Smoke-gate floors must be computed from the REALIZED smoke slice, never an
  assumed row cap.** A post-smoke assert like ">=2 checkpoints" dies when the
  realized smoke yield is smaller than the cap the dial was calibrated on (#1489:
  capped 30, realized 2; epochs=1 @ effective batch 16 -> 1 optimizer step -> 1
  checkpoint). fingerprint: `9C1E4F27a0b3`
"""


def test_the_issue_entry_parses_with_a_wrapped_headline_and_provenance():
    text = "# Gotchas\n\n## Training\n\n" + SMOKE_ENTRY
    [entry] = parse_gotchas(text).entries
    assert entry.headline == (
        "Smoke-gate floors must be computed from the REALIZED smoke slice, never an assumed row cap"
    )
    assert entry.anchor == "smoke-gate-floors-must-be-computed-from-the-realized"
    assert not entry.explicit_anchor
    assert entry.issues == ("#1489",)
    assert entry.fingerprint == "9c1e4f27a0b3"
    assert entry.section == "Training"
    assert (entry.line, entry.end_line) == (5, 9)
    bold = text[entry.headline_span.start : entry.headline_span.end]
    assert bold.startswith("**Smoke-gate") and bold.endswith("row cap.**")


def test_explicit_anchor_wins_and_repeated_slugs_get_suffixes():
    text = (
        '- <a id="custom"></a>**Same words.** a (#1)\n'
        "- **Same words.** b (#2)\n"
        "- **Same words!** c (#3)\n"
    )
    entries = parse_gotchas(text).entries
    assert [e.anchor for e in entries] == ["custom", "same-words", "same-words-1"]
    assert entries[0].explicit_anchor


def test_messy_file_finds_only_real_entries():
    document = parse_gotchas((FIXTURES / "messy.md").read_text(encoding="utf-8"))
    headlines = [e.headline for e in document.entries]
    assert headlines == [
        "Smoke gates use the realized slice",
        "Eval loaders never share a seed",
        "Numbered entries count too",
    ]
    first = document.entries[0]
    assert "A second paragraph of the same entry." in first.text  # nested content belongs
    reasons = [(n.line, n.reason) for n in document.not_entries]
    assert reasons == [
        (25, "the item does not start with a bold headline"),
        (26, "the item does not start with a bold headline"),
    ]
    assert [r.anchor for r in document.index.rows] == [
        "smoke-gates-use-the-realized-slice",
        "eval-loaders-never-share-a-seed",
    ]


def test_table_index_rows_and_columns():
    document = parse_gotchas((FIXTURES / "table_index.md").read_text(encoding="utf-8"))
    index = document.index
    assert index.form == "table"
    assert index.header == ("#", "Lesson", "Section", "Note")
    assert index.link_column == 1
    assert [(r.line, r.anchor, r.headline) for r in index.rows] == [
        (9, "realized-slice", "Smoke gates use the realized slice"),
        (10, "geometry", "Geometry lives in one file"),
        (11, "retired", "Retired lesson"),
    ]
    assert index.rows[0].cells[3] == "the expensive one"
    assert document.cap.value == 10


def test_empty_file_and_file_without_index():
    assert parse_gotchas("").entries == []
    document = parse_gotchas("- **Alone.** (#1)\n")
    assert document.index is None and len(document.entries) == 1


def test_index_section_without_rows_is_an_insertion_point():
    text = "# G\n\n## LESSONS index\n\nRows follow.\n\n## Lessons\n\n- **A.** b (#1)\n"
    index = parse_gotchas(text).index
    assert index.form == "empty"
    assert text[: index.region.start].endswith("Rows follow.")


def test_crlf_file_parses_like_lf():
    lf = (FIXTURES / "table_index.md").read_text(encoding="utf-8")
    crlf = lf.replace("\n", "\r\n")
    a, b = parse_gotchas(lf), parse_gotchas(crlf)
    assert b.newline == "\r\n"
    assert [(e.headline, e.line, e.anchor) for e in a.entries] == [
        (e.headline, e.line, e.anchor) for e in b.entries
    ]
    assert [r.headline for r in a.index.rows] == [r.headline for r in b.index.rows]


def test_row_cap_directive_values():
    assert parse_gotchas("<!-- guidelint: row-cap=12 -->\n").cap.value == 12
    bad = parse_gotchas("<!-- guidelint: row-cap=twelve -->\n").cap
    assert bad.value is None and "not a positive whole number" in bad.error
    assert parse_gotchas("<!-- guidelint: row-cap=0 -->\n").cap.error


def test_provenance_ids_and_what_is_not_one():
    text = "- **A.** see owner/repo#12 and #34, not &#123; or [x](#56-anchor) or a#7 (#34)\n"
    [entry] = parse_gotchas(text).entries
    assert entry.issues == ("owner/repo#12", "#34")


def test_slug_and_unique_anchors():
    assert slugify("Use `torch.compile` [only](http://x) on **GPU**!") == (
        "use-torchcompile-only-on-gpu"
    )
    assert slugify("!!!") == "entry"
    assert unique_anchors(["a", "a", "a-1", "b"]) == ["a", "a-1", "a-1-1", "b"]


def test_similarity_treats_a_restated_headline_as_a_repeat():
    long = headline_tokens(
        "Smoke-gate floors must be computed from the REALIZED slice, not the cap"
    )
    short = headline_tokens("Smoke gate floors computed from the realized slice")
    other = headline_tokens("One workspace per experiment")
    assert similarity(long, short) == 1.0
    assert similarity(long, other) == 0.0
    # Two short headlines sharing one word are not repeats.
    assert similarity(headline_tokens("Seed loaders"), headline_tokens("Seed tokenizers")) < 0.5
