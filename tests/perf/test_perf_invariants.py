"""The speed-ups keep behaviour: each fast path is compared with the plain one."""

from __future__ import annotations

import pathspec
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from guidelint.globs import fast_match
from guidelint.markdown import _parser, parse_markdown
from guidelint.spans import LineIndex

SAMPLE = """\
# Title with `code` and [link](https://x.org)

Text `scripts/a.py` then <!-- guidelint: disable GL501 --> and <b>html</b>,
an autolink <https://example.com>, escaped \\` tick and `` double `tick` ``.

| Tool | Use |
|------|-----|
| `job_submit` | run [it](a.md) |

- item with **bold** and `x/y`
  > quote `q/r`

```python
print(1)
```
"""

# Text made of the characters the position recording reacts to.
markdown_text = st.text(alphabet=st.sampled_from(list("`[]()<>!-*_#|\\ \n\tab/:.")), max_size=300)


def _stream(tokens) -> list:
    """Everything a rule could read from the token stream, positions aside."""
    out = []
    for token in tokens:
        children = _stream(token.children) if token.children else None
        attrs = dict(token.attrs)
        out.append((token.type, token.tag, token.content, token.markup, attrs, token.map, children))
    return out


def _plain_parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"maxNesting": 40}).enable("table")


def test_position_recording_leaves_the_token_stream_unchanged_on_a_sample():
    assert _stream(_parser().parse(SAMPLE)) == _stream(_plain_parser().parse(SAMPLE))


@settings(max_examples=300, deadline=None)
@given(markdown_text)
def test_position_recording_leaves_the_token_stream_unchanged(text):
    assert _stream(_parser().parse(text)) == _stream(_plain_parser().parse(text))


@settings(max_examples=300, deadline=None)
@given(markdown_text)
def test_every_code_span_and_link_gets_a_span_that_covers_its_source(text):
    doc = parse_markdown(text)
    inline = [c for t in doc.tokens if t.type == "inline" for c in t.children or []]
    assert len(doc.code_spans) == sum(c.type == "code_inline" for c in inline)
    assert len(doc.links) == sum(c.type == "link_open" for c in inline)
    for span in doc.code_spans:
        source = text[span.span.start : span.span.end]
        assert source.startswith("`") and source.endswith("`"), (source, span.content)
    for link in doc.links:
        assert text[link.span.start] in "[<", text[link.span.start : link.span.end]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab\n\r ")), max_size=60))
def test_line_index_starts_every_line_after_a_line_break(text):
    # CRLF, LF and a lone CR each end a line, as in CommonMark.
    breaks = [
        i for i, c in enumerate(text) if c == "\n" or (c == "\r" and text[i + 1 : i + 2] != "\n")
    ]
    assert LineIndex(text).line_starts == [0] + [i + 1 for i in breaks]


PATTERNS = [
    "*.pyc",
    "build/",
    "/dist",
    "**/.idea/**",
    "docs/**/*.md",
    "tmp/",
    "node_modules/",
    "a/b/c.txt",
    "*uv.lock",
    ".venv/",
    "CLAUDE.md",
    "!keep.pyc",
    "[abc].md",
    "# comment",
    "",
]
segment = st.sampled_from(
    ["a", "b", "docs", "build", "dist", "tmp", ".idea", "x.pyc", "keep.pyc", "c.txt", "b.md"]
)
rel_path = st.lists(segment, min_size=1, max_size=4).map("/".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PATTERNS), max_size=6), rel_path, st.booleans())
def test_fast_ignore_matcher_agrees_with_pathspec(patterns, rel, as_folder):
    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    path = rel + "/" if as_folder else rel
    assert fast_match(spec)(path) == spec.match_file(path)
