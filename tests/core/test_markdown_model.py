"""The document model gives every element an exact 1-based line and column."""

from __future__ import annotations

from guidelint.markdown import parse_markdown


def position(doc, offset):
    p = doc.lines.position(offset)
    return p.line, p.column


DOC = """\
---
name: helper
tools: Read, Bash
---
# Title `in-heading`

Text `a` and `` b ` c `` and [link](docs/x.md).

- item `mcp__lab__job_submit` here
  continued `cont`
  > quoted `q`
    1. nested `deep`

| Tool | What |
|------|------|
| `job_submit` | does `x` |

<!-- guidelint: disable GL101 -->
Inline <!-- a comment --> here.

```python {id=one timeout=5}
print(1)
```

~~~
unterminated
"""


def test_code_spans_have_exact_positions_and_text():
    doc = parse_markdown(DOC)
    found = {c.content: position(doc, c.span.start) for c in doc.code_spans}
    assert found == {
        "in-heading": (5, 9),
        "a": (7, 6),
        "b ` c": (7, 14),
        "mcp__lab__job_submit": (9, 8),
        "cont": (10, 13),
        "q": (11, 12),
        "deep": (12, 15),
        "job_submit": (16, 3),
        "x": (16, 23),
    }
    for span in doc.code_spans:
        raw = DOC[span.span.start : span.span.end]
        assert raw.startswith("`") and raw.endswith("`")


def test_code_span_context():
    doc = parse_markdown(DOC)
    by_text = {c.content: c for c in doc.code_spans}
    assert by_text["in-heading"].block.kind == "heading"
    assert by_text["job_submit"].block.table_header == "Tool"
    assert by_text["x"].block.table_header == "What"
    assert by_text["mcp__lab__job_submit"].block.list_depth == 1
    assert by_text["deep"].block.list_depth == 2
    assert by_text["q"].block.in_blockquote
    assert by_text["a"].block.section == "Title `in-heading`"


def test_links_comments_headings_fences_front_matter():
    doc = parse_markdown(DOC)
    assert [(link.href, position(doc, link.span.start)) for link in doc.links] == [
        ("docs/x.md", (7, 30))
    ]
    assert [(c.body, c.line) for c in doc.html_comments] == [
        ("guidelint: disable GL101", 18),
        ("a comment", 19),
    ]
    assert [(h.level, h.text, h.line) for h in doc.headings] == [(1, "Title `in-heading`", 5)]
    first, second = doc.fences
    assert (first.lang, first.info, first.line, first.content_line, first.closed) == (
        "python",
        "python {id=one timeout=5}",
        21,
        22,
        True,
    )
    assert first.content == "print(1)\n"
    assert not second.closed
    assert doc.front_matter is not None
    assert "tools: Read, Bash" in doc.front_matter.text


def test_list_items_have_line_ranges_and_depth():
    doc = parse_markdown(DOC)
    items = sorted((i.line, i.end_line, i.depth) for i in doc.list_items)
    assert items == [(9, 12, 1), (12, 12, 2)]


def test_crlf_and_tabs_keep_columns():
    text = "# T\r\n\r\nSee `a/b.md` and\r\n\t`c`.\r\n"
    doc = parse_markdown(text)
    spans = {c.content: position(doc, c.span.start) for c in doc.code_spans}
    assert spans["a/b.md"] == (3, 5)
    assert text[doc.code_spans[1].span.start] == "`"


def test_front_matter_does_not_shift_lines():
    doc = parse_markdown("---\ntools: A\n---\n`x`\n")
    assert position(doc, doc.code_spans[0].span.start) == (4, 1)
