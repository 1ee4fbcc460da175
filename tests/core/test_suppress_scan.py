"""A file is parsed for its suppressions only when its text may hold a directive:
`comments.may_hold_directive`, a scan of the text, never misses a comment that the
parser and `parse_directive` would read as one."""

from __future__ import annotations

from pathlib import Path

import pytest

from guidelint.comments import may_hold_directive, parse_directive
from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from guidelint.sources import SourceFile
from tests.conftest import shared_corpus

CORPUS = shared_corpus()

# Comments the tolerant grammar reads (spacing, line breaks, any verb) or not (case,
# a blockquote's marker inside the comment), in the places comments go.
HAND_CASES = [
    "<!-- guidelint: disable-next-line GL501 -->\n",
    "<!--guidelint:disable-file-->\n",
    "<!--\n\tguidelint:   disable GL5\n-->\n",
    "<!--\n\n  guidelint: enable -->\n",
    "Text <!-- guidelint: disable-line GL501 --> inline.\n",
    "- item\n\n  <!-- guidelint: disable-nextline GL501 -->\n",
    "> <!-- guidelint: row-cap=30 -->\n",
    "> <!--\n> guidelint: disable -->\n",
    "<div>\n<!-- guidelint: pending needs=gpu -->\n</div>\n",
    "<!-- GUIDELINT: disable -->\n",
    "<!-- Guidelint: disable -->\n",
    "<!-- guidelint disable -->\n",
    "<!-- a note, then guidelint: disable -->\n",
    "< !-- guidelint: disable -->\n",
    "```\n<!-- guidelint: disable -->\n```\n",
    "<!-- unclosed guidelint:\n",
    "<!-- guidelint: unclosed\n",
]


def directives_read(text: str) -> list[str]:
    """The raw text of every comment the parser finds that reads as a directive."""
    file = SourceFile(path=Path("docs/a.md"), rel="docs/a.md", text=text)
    found = []
    for comment in file.markdown.html_comments:
        raw = text[comment.span.start : comment.span.end]
        if parse_directive(raw, comment.span.start) is not None:
            found.append(raw)
    return found


@pytest.mark.parametrize("text", HAND_CASES)
def test_the_scan_never_misses_a_directive_in_hand_cases(text):
    assert may_hold_directive(text) or directives_read(text) == []


def test_the_hand_cases_hold_directives_and_comments_that_are_none():
    read = [text for text in HAND_CASES if directives_read(text)]
    scanned = [text for text in HAND_CASES if may_hold_directive(text)]
    assert len(read) >= 8  # the cases do exercise directives
    assert set(read) <= set(scanned)
    assert not may_hold_directive("<!-- GUIDELINT: disable -->\n<!-- a note -->\n")


@pytest.mark.slow
@pytest.mark.corpus()
def test_the_scan_never_misses_a_directive_in_the_corpora():
    commented = [
        path
        for path in sorted(CORPUS.rglob("*.md"))
        if path.is_file() and "<!--" in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert len(commented) > 200
    for path in commented:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert may_hold_directive(text) or directives_read(text) == [], path
        # A directive spliced into a comment-holding file is found by both.
        spliced = text + "\n<!--\n guidelint: disable-file GL501 -->\n"
        assert may_hold_directive(spliced) and directives_read(spliced), path


def test_a_comment_that_is_no_directive_costs_no_parse(tmp_path):
    config = Config(select=["GL001", "GL002"])
    engine = Engine(Project(tmp_path, config), build_selection(config))
    note = "# Guide\n\n<!-- a note for editors -->\n\nText.\n"
    directive = "# Guide\n\n<!-- guidelint: disable-next-line GL501 -->\n\nText.\n"
    plain = SourceFile(path=tmp_path / "docs/a.md", rel="docs/a.md", text=note)
    marked = SourceFile(path=tmp_path / "docs/b.md", rel="docs/b.md", text=directive)
    assert engine.check_source(plain) == []
    assert "markdown" not in vars(plain)  # the document model was never built
    assert engine.check_source(marked) == []  # GL501 did not run: its code proves nothing
    assert "markdown" in vars(marked)
