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
