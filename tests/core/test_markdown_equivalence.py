"""markdown-it-pyrs (guidelint.markdown_rs) against markdown-it-py (the reference).

Both must build the same document model, every span at the same offset, and give
the same findings, on hand-made corner cases and on every Markdown file of the two
real corpora (`../shared/corpus`). A file the fast path cannot place exactly falls
back to the reference, and the corpora show how rare that is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from guidelint import markdown_rs
from guidelint.config import Config, PathsConfig
from guidelint.engine import Engine, build_selection
from guidelint.markdown import MarkdownDocument, parse_markdown
from guidelint.project import Project
from guidelint.sources import SourceFile
from tests.conftest import corpus_folders, shared_corpus

CORPUS = shared_corpus()
OTEL = CORPUS / "opentelemetry-docs"
AGENT_REPOS = CORPUS / "agent-repos"

pytestmark = pytest.mark.skipif(
    not markdown_rs.available(), reason="markdown-it-pyrs is not installed"
)


def block_of(block) -> tuple:
    lead = len(block.text) - len(block.text.lstrip())
    return (
        block.kind,
        block.line,
        block.section,
        block.list_depth,
        block.in_blockquote,
        block.table_header,
        block.table_row_is_header,
        block.offset(lead),  # where the content starts in the file
    )


def model(doc: MarkdownDocument) -> dict[str, list[tuple]]:
    """Everything a rule can read from the document, as comparable values."""
    return {
        "code_spans": [(c.content, c.span, block_of(c.block)) for c in doc.code_spans],
        "fences": [
            (f.info, f.lang, f.content, f.span, f.line, f.content_line, f.closed, f.section)
            for f in doc.fences
        ],
        "headings": [(h.level, h.text, h.span, h.line, h.plain) for h in doc.headings],
        "list_items": [(i.span, i.line, i.end_line, i.depth, i.ordered) for i in doc.list_items],
        "links": [(link.href, link.span, block_of(link.block)) for link in doc.links],
        "html_comments": [(c.body, c.span, c.line, c.end_line) for c in doc.html_comments],
        "blocks": [block_of(b) for b in doc.blocks if b.text.strip()],
        "anchors": sorted(doc.anchors()),
        "front_matter": [doc.front_matter],
    }


def escaped_pipe_cells(doc: MarkdownDocument) -> set[int]:
    """Lines of table rows with a `\\|` in a cell. markdown-it-py unescapes it in the
    cell's content, so the reference cannot find that content in the line and places
    the row's spans at the start of the line; markdown-it-pyrs places them exactly."""
    return {
        b.line
        for b in doc.blocks
        if b.kind == "table_cell" and "\\|" in doc.lines.line_text(b.line)
    }


def differences(reference: MarkdownDocument, fast: MarkdownDocument) -> dict[str, tuple]:
    """Per part of the model: (reference, fast) where they differ; {} when equal."""
    unsure = escaped_pipe_cells(reference)
    ours, theirs = model(reference), model(fast)
    found = {}
    for key in ours:
        mine = [v for v in ours[key] if not _in(v, unsure)]
        other = [v for v in theirs[key] if not _in(v, unsure)]
        if mine != other:
            found[key] = (mine, other)
    return found


def _in(value: object, lines: set[int]) -> bool:
    """Whether a model value is (or belongs to) a table cell on one of `lines`."""
    if not isinstance(value, tuple):
        return False
    block = value[-1] if value and isinstance(value[-1], tuple) else value
    return len(block) == 8 and block[0] == "table_cell" and block[1] in lines


CORNERS = {
    "strong over two lines in a list": "x\n\n- **Dev of\n  Open metrics**: Aimed at\n",
    "inline nodes over lines": "x\n\n- [Dev of\n  Open](u) `a\n  b` <!--\n  c --> *e\n  f*\n",
    "blockquoted list": "x\n\n> - *a\n>   b* [c\n>   d](e)\n",
    "nested emphasis": "x\n\n1. ***a\n   b*** `q`\n",
    "setext headings": "Title\n=====\n\nT2\n  more\n---\n",
    "unclosed fence in a list": "- a\n\n  ```py\n  x\n\n- b\n",
    "unclosed fence at the end": "```\nunclosed\n\n\n",
    "unclosed comment": "<!-- x\n\n- y\n",
    "not ASCII": "# é `ü` [ß](ä)\n\n| é | `x` |\n|---|---|\n| ü | [a](b) |\n",
    "loose list": "- a\n- b\n\n\n- c\n",
    "indented lists": "  - x\n    - y\n      z `w`\n",
    "breaks": "a  \nb\\\nc `d`\n",
    "references and autolinks": "[a]: <u v>\n\n[x][a] <mailto:a@b.c> <a@b.c> [y](<a b> 't')\n",
    "CRLF": "# T `a`\r\n\r\n- x [l](m)\r\n  y `z`\r\n\r\n```py\r\nq\r\n```\r\n",
    "front matter": "---\ntitle: ü `x`\n---\n# H `c`\n",
    "table with empty cells": "| a | b | c |\n|---|---|---|\n| `x` |  | `x` |\n",
    "image alt": "![alt `c` [l](u)](img.png) `after`\n",
    "heading ids": "# A {#custom}\n\n## B <a id='x'></a>\n\n## A\n\n## A\n",
    "html blocks": "<div>\n<!-- one -->\n</div>\n\n<!-- two\nlines -->\n",
    "entities": "# a &amp; b\n\n`&amp;` [&lt;](x&amp;y)\n",
}


@pytest.mark.parametrize("text", CORNERS.values(), ids=CORNERS.keys())
def test_corner_cases_build_the_same_model(text):
    assert differences(parse_markdown(text), markdown_rs.parse_rs(text)) == {}


def test_a_tab_in_a_container_indent_parses_that_block_again(monkeypatch):
    # markdown-it.rs shifts ranges after such a tab: the check catches it, and the
    # list is parsed again on its own with its indents' tabs as spaces.
    text = "# T\n\n- a [l](u)\n\n\tWork `c` <!-- k -->\n\n\t- b `d`\n\nafter `e`\n"
    again = []
    monkeypatch.setattr(markdown_rs._Walk, "again", spy(markdown_rs._Walk.again, again))
    doc = markdown_rs.parse_document(text)
    assert len(again) == 1 and doc._tokens is None  # one block again, no markdown-it-py
    assert [text[c.span.start : c.span.end] for c in doc.code_spans] == ["`c`", "`d`", "`e`"]
    assert [c.body for c in doc.html_comments] == ["k"]
    assert [(i.line, i.depth) for i in doc.list_items] == [(7, 2), (3, 1)]
    assert model(doc) == model(parse_markdown(text))


@pytest.mark.parametrize(
    "text",
    [
        "- a\n\n\tb\n\n  ```\n\tx\n  ```\n",  # a fence's content over a changed indent
        "- a\n\n\tb `c\n\td`\n",  # a code span's
        "- a\n\n\tb <!-- c\n\td -->\n",  # a comment's
        "- a\n\n  b\n\n\t[x][r]\n\n[r]: /u\n",  # a reference defined outside the block
        "- a\n\n  > q\n\n\tb `c`\n",  # a quote in it: not a list of prose
        "- a\n\n  | x |\n  |---|\n\n\tb `c`\n",  # a table
    ],
)
def test_a_block_parsed_again_unlike_the_first_takes_the_reference_path(text):
    with pytest.raises(markdown_rs.Misplaced):
        markdown_rs.parse_rs(text)
    doc = markdown_rs.parse_document(text)
    assert doc._tokens is not None and model(doc) == model(parse_markdown(text))


def spy(function, calls):
    def recorded(*args):
        calls.append(args)
        return function(*args)

    return recorded


def test_a_text_that_panics_markdown_it_rs_takes_the_reference_path():
    # An unclosed backtick in a table cell panics markdown-it.rs 0.6 (code_pair.rs).
    text = "|*|[a-`"
    with pytest.raises(BaseException, match="index out of bounds"):
        markdown_rs.parse_rs(text)
    doc = markdown_rs.parse_document(text)
    assert doc._tokens is not None and model(doc) == model(parse_markdown(text))


def test_texts_it_cannot_map_take_the_reference_path(monkeypatch):
    for text in ("a\rb `c`\n", "a `b`\0\n"):
        doc = markdown_rs.parse_document(text)
        assert doc._tokens is not None  # parsed by markdown-it-py
    monkeypatch.setenv(markdown_rs.PARSER_ENV, markdown_rs.REFERENCE)
    assert markdown_rs.parse_document("plain `x`\n")._tokens is not None
    monkeypatch.delenv(markdown_rs.PARSER_ENV)
    fast = markdown_rs.parse_document("plain `x`\n")
    assert fast._tokens is None
    assert [t.type for t in fast.tokens][:2] == ["paragraph_open", "inline"]  # on demand


def test_escaped_pipes_are_placed_exactly():
    text = "| a | b |\n|---|---|\n| x | `\\|old\\| < 1` |\n"
    (span,) = markdown_rs.parse_rs(text).code_spans
    assert text[span.span.start : span.span.end] == "`\\|old\\| < 1`"
    assert span.content == "|old| < 1"


# -- the corpora ------------------------------------------------------------------

CHUNKS = {
    "otel-en": (OTEL, "content/en"),
    "otel-ja": (OTEL, "content/ja"),
    "otel-other-languages": (OTEL, "content/[!ej]*"),
    "otel-outside-content": (OTEL, "[!c]*"),
}
# One chunk per agent repository (they run in parallel under xdist).
CHUNKS.update(
    {f"agent-repos/{repo.name}": (AGENT_REPOS, repo.name) for repo in corpus_folders("agent-repos")}
)


def chunk_files(root: Path, pattern: str) -> list[str]:
    rels = {
        path.relative_to(root).as_posix()
        for folder in root.glob(pattern)
        for path in ([folder] if folder.is_file() else folder.rglob("*"))
        if path.suffix == ".md" and path.is_file()
    }
    return sorted(rels)


def check_all(root: Path, rels: list[str]) -> tuple[list[str], dict[str, MarkdownDocument]]:
    """Every rule on every file, the way `check` runs them; findings and documents."""
    config = Config(
        include=["**/*.md"], select=["GL"], paths=PathsConfig(links=["**"]), cache=False
    )
    project = Project(root, config)
    engine = Engine(project, build_selection(config))
    files = [
        SourceFile(path=root / rel, rel=rel, text=(root / rel).read_bytes().decode("utf-8-sig"))
        for rel in rels
    ]
    findings = [
        f"{f.path}:{f.line}:{f.column}-{f.end_line}:{f.end_column} {f.message}"
        for f in engine.check_sources(files)
    ]
    return findings, {file.rel: file.markdown for file in files}


@pytest.mark.slow
@pytest.mark.corpus("agent-repos")
@pytest.mark.corpus("opentelemetry-docs")
@pytest.mark.parametrize("chunk", CHUNKS)
def test_the_corpora_give_the_same_model_and_findings(chunk, monkeypatch):
    root, pattern = CHUNKS[chunk]
    rels = chunk_files(root, pattern)
    assert rels
    monkeypatch.setenv(markdown_rs.PARSER_ENV, markdown_rs.REFERENCE)
    reference_findings, reference_docs = check_all(root, rels)
    monkeypatch.delenv(markdown_rs.PARSER_ENV)
    fast_findings, fast_docs = check_all(root, rels)

    assert fast_findings == reference_findings
    fell_back = [rel for rel, doc in fast_docs.items() if doc._tokens is not None]
    assert len(fell_back) <= max(3, len(rels) // 50), fell_back  # the fast path is the rule
    for rel in rels:
        if rel not in fell_back:
            assert differences(reference_docs[rel], fast_docs[rel]) == {}, rel


@pytest.mark.parametrize("accent", ["", "é "], ids=["ASCII", "not ASCII"])
def test_plain_paragraphs_get_their_blocks_when_read(accent):
    text = f"# T\n\n{accent}plain prose\n\n- tight {accent}item\n- `code` item\n\n"
    text += "> quoted\n\n[l](u)\n"
    doc = markdown_rs.parse_rs(text)
    assert doc._pending_blocks is not None  # the plain paragraphs' Blocks are not built yet
    (span,) = doc.code_spans
    blocks = doc.blocks
    assert [(b.kind, b.text, b.line, b.list_depth, b.in_blockquote) for b in blocks] == [
        ("heading", "T", 1, 0, False),
        ("paragraph", f"{accent}plain prose", 3, 0, False),
        ("paragraph", f"tight {accent}item", 5, 1, False),
        ("paragraph", "`code` item", 6, 1, False),
        ("paragraph", "quoted", 8, 0, True),
        ("paragraph", "[l](u)", 10, 0, False),
    ]
    assert {b.section for b in blocks[1:]} == {"T"}
    assert blocks[3] is span.block and blocks[5] is doc.links[0].block  # not copies
    assert doc.blocks is blocks  # built once
    assert differences(parse_markdown(text), markdown_rs.parse_rs(text)) == {}


def test_a_text_with_a_tab_builds_every_block_while_walking():
    # Its Misplaced checks read each paragraph's first text node.
    doc = markdown_rs.parse_rs("plain\tprose\n\nmore\n")
    assert doc._pending_blocks is None and [b.text for b in doc.blocks] == ["plain\tprose", "more"]


@pytest.mark.parametrize("accent", ["", "é "], ids=["ASCII", "not ASCII"])
def test_table_cells_without_spans_get_their_blocks_when_read(accent):
    text = f"# T\n\n| {accent}Tool | What |\n|---|---|\n| `x` | {accent}plain |\n|  | [l](u) |\n"
    doc = markdown_rs.parse_rs(text)
    assert doc._pending_blocks is not None
    entries = doc._pending_blocks.args[0]  # what the walk kept: Blocks, or what builds one
    unbuilt = [entry for entry in entries if not isinstance(entry, markdown_rs.Block)]
    assert [entry[0] for entry in unbuilt] == ["heading", *["table_cell"] * 4]
    built = [entry for entry in entries if isinstance(entry, markdown_rs.Block)]
    assert [b.text for b in built] == ["`x`", "[l](u)"]  # the cells that hold a span
    (span,), (link,) = doc.code_spans, doc.links
    blocks = doc.blocks
    assert [(b.kind, b.text, b.line, b.table_header, b.table_row_is_header) for b in blocks] == [
        ("heading", "T", 1, None, False),
        ("table_cell", f"{accent}Tool", 3, f"{accent}Tool", True),
        ("table_cell", "What", 3, "What", True),
        ("table_cell", "`x`", 5, f"{accent}Tool", False),
        ("table_cell", f"{accent}plain", 5, "What", False),
        ("table_cell", "", 6, f"{accent}Tool", False),
        ("table_cell", "[l](u)", 6, "What", False),
    ]
    assert blocks[3] is span.block and blocks[6] is link.block  # not copies
    assert {b.section for b in blocks[1:]} == {"T"}
    assert differences(parse_markdown(text), markdown_rs.parse_rs(text)) == {}


@pytest.mark.parametrize("accent", ["", "é "], ids=["ASCII", "not ASCII"])
def test_headings_are_built_when_read(accent):
    text = f"# {accent}T {{#t}}\n\n## `code` and [l](u)\n\n#\n\nSetext *{accent}e*\n---\n\ntext\n"
    doc = markdown_rs.parse_rs(text)
    assert doc._pending_headings is not None and doc._headings == []  # nothing built yet
    blocks = doc.blocks
    assert [b.section for b in blocks] == [
        "",
        f"{accent}T {{#t}}",
        "`code` and [l](u)",
        "",
        f"Setext *{accent}e*",
    ]
    headings = doc.headings
    assert [(h.level, h.text, h.line, h.plain) for h in headings] == [
        (1, f"{accent}T {{#t}}", 1, f"{accent}T {{#t}}"),
        (2, "`code` and [l](u)", 3, "code and l"),
        (1, "", 5, ""),
        (2, f"Setext *{accent}e*", 7, f"Setext {accent}e"),
    ]
    assert doc.headings is headings and doc._pending_headings is None  # built once
    assert differences(parse_markdown(text), markdown_rs.parse_rs(text)) == {}
