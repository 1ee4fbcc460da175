"""Which fences `nested_fences` holds closed early by a fence inside them (GL503)."""

from __future__ import annotations

from guidelint.fences import nested_fences
from guidelint.markdown import parse_markdown


def _nested_lines(text: str) -> list[int]:
    return [fence.line for fence, _ in nested_fences(text, parse_markdown(text))]


def test_a_bare_fence_holding_a_block_is_the_outer_one_when_its_close_is_left_over():
    text = "# A\n\n```\n## Example\n\n```javascript\nrun()\n```\n\nMore.\n```\n"
    assert _nested_lines(text) == [3]


def test_a_bare_fence_holding_an_opener_with_nothing_left_over_is_no_nesting():
    # A stray bare line, then a block: out of step, and the document ends closed.
    text = "# A\n\n```\nstray\n```js\nrun()\n```\n\nDone.\n"
    assert _nested_lines(text) == []


def test_a_bare_fence_opened_by_an_early_close_is_not_reported_again():
    text = (
        "# A\n\n```markdown\nShow:\n\n```python\nrun()\n```\n\nprose\n```\n\n"
        "```bash\nls\n```\n\nEnd.\n```\n"
    )
    assert _nested_lines(text) == [3]


def test_a_jinja_tagged_close_ends_its_fence():
    text = "{% if c %}\n```bibtex\n{{ c }}\n```{% endif %}\n\n```bibtex\n@x{y}\n```\n"
    assert _nested_lines(text) == []


def test_a_markdown_example_of_bare_blocks_is_the_outer_one_when_the_stray_pairs_them():
    # 3 is closed by 7, which opens its first inner block (content right after it);
    # the stray at the end is the example's own close.
    text = (
        "# A\n\n```markdown\n# Protocol\n\nList:\n\n```\n1. case\n```\n\n"
        "Hints:\n\n```markdown\n# Hints\n```\n```\n"
    )
    assert _nested_lines(text) == [3]


def test_a_markdown_example_that_closes_where_its_author_meant_is_not_the_outer_one():
    # The markdown example closes at its bare line (a blank line after it); the bare
    # block later, holding a ```typescript block, is the one a stray leaves open.
    text = (
        "# A\n\n```markdown\n## Guide\n```\n\n"
        "### Example\n```\nUser: hi\n\n```typescript\nrun()\n```\n\nDone.\n```\n\n"
        "### Two\n```\nUser: bye\n```\n"
    )
    assert _nested_lines(text) == [8]
