"""Finding examples and their settings in Markdown, with exact lines and spans."""

from __future__ import annotations

from guidelint.markdown import parse_markdown
from guidelint.runner.directives import Settings
from guidelint.runner.examples import extract, source_offset
from guidelint.runner.outputs import compare, normalise
from guidelint.runner.plan import group_units, imports_of


def examples(text: str):
    return extract(parse_markdown(text), "docs/guide.md")


def test_python_py_and_pycon_fences_are_examples_other_languages_are_not():
    found = examples(
        "```python\na = 1\n```\n\n```py\nb = 2\n```\n\n```pycon\n>>> 1\n1\n```\n\n"
        "```sh\nls\n```\n\n```text\nx\n```\n"
    )
    assert [(e.lang, e.line, e.content_line) for e in found] == [
        ("python", 1, 2),
        ("py", 5, 6),
        ("pycon", 9, 10),
    ]
    assert [e.is_repl for e in found] == [False, False, True]


def test_prompt_block_in_a_python_fence_is_repl_style():
    (example,) = examples("```python\n>>> x = 1\n>>> x\n1\n```\n")
    assert example.is_repl
    assert example.python_source() == "x = 1\nx\n\n"  # same line count


def test_info_string_and_comment_settings_merge():
    (example,) = examples(
        "<!-- guidelint: pending needs=diffusers -->\n\n<!-- guidelint: session=pipe -->\n"
        "```python {id=tiny-pipe timeout=120 expect-error=ValueError}\npass\n```\n"
    )
    assert example.settings == Settings(
        id="tiny-pipe",
        pending=True,
        needs=("diffusers",),
        session="pipe",
        timeout=120.0,
        expect_error="ValueError",
    )
    assert example.id == "tiny-pipe"


def test_comment_not_directly_above_is_ignored():
    (example,) = examples("<!-- guidelint: skip -->\nSome prose.\n\n```python\npass\n```\n")
    assert example.settings == Settings()


def test_other_pillars_directives_are_not_ours():
    (example,) = examples(
        "<!-- guidelint: disable-next-line GL402 -->\n<!-- guidelint: row-cap=30 -->\n"
        "```python\npass\n```\n"
    )
    assert example.directives.tokens == [] and example.directives.problems == []


def test_pandoc_attributes_are_not_ours():
    (example,) = examples("```python {.numberLines startFrom=3}\npass\n```\n")
    assert example.directives.problems == []


def test_directive_problems_with_did_you_mean():
    (example,) = examples(
        "<!-- guidelint: pendng needs=gpux -->\n```python {timeout=0}\npass\n```\n"
    )
    messages = [p.message for p in example.directives.problems]
    assert messages[0] == "unknown example directive 'pendng' (did you mean 'pending'?)"
    assert messages[1].startswith("unknown need 'gpux' (did you mean 'gpu'?)")
    assert messages[2].startswith("timeout must be a positive number")


def test_output_block_must_follow_directly():
    first, second = examples(
        "```python\nprint(1)\n```\n\n```output\n1\n```\n\n```python\nprint(2)\n```\n\ntext\n\n"
        "```output\n2\n```\n"
    )
    assert first.output is not None and first.output.content == "1\n"
    assert second.output is None


def test_unterminated_fence_is_marked():
    (example,) = examples("# Guide\n\n```python\nprint('open')\n\nmore text\n")
    assert not example.closed


def test_fence_in_a_list_keeps_its_prefix_and_columns():
    text = "- step\n\n  ```python\n  x = 1\n  ```\n\n  ```output\n  1\n  ```\n"
    (example,) = examples(text)
    assert example.output.prefix == "  "
    doc = parse_markdown(text)
    offset = source_offset(example, doc.lines, 1, 1)
    assert doc.lines.position(offset).line == 4 and text[offset] == "x"


def test_source_offset_skips_repl_prompts():
    text = "```pycon\n>>> value = (1,\n...          2)\n```\n"
    (example,) = examples(text)
    doc = parse_markdown(text)
    offset = source_offset(example, doc.lines, 2, 10)
    assert text[offset] == "2"


def test_sessions_group_per_file_in_order_lone_examples_alone():
    found = examples(
        "<!-- guidelint: session=a -->\n```python\nx = 1\n```\n\n```python\ny = 2\n```\n\n"
        "<!-- guidelint: session=a -->\n```python\nprint(x)\n```\n"
    )
    units = group_units(found)
    assert [[e.line for e in unit] for unit in units] == [[2, 11], [6]]


def test_imports_are_found_statically():
    (example,) = examples(
        "```python\nimport torch.nn\nfrom diffusers import X\nfrom . import y\n```\n"
    )
    assert imports_of(example) == {"torch", "diffusers"}


def test_an_example_broken_further_down_still_imports_what_its_import_lines_name():
    """Its import lines run before the broken line fails (Ovis-Image's docstring renders
    `artist\\'s` as `artist's`, ending its string early)."""
    (example,) = examples(
        "```python\nimport torch\nfrom diffusers import X\nprompt = 'an artist's view'\n```\n"
    )
    assert imports_of(example) == {"torch", "diffusers"}


def test_output_normalisation_and_patterns():
    assert normalise("a  \r\nb\t\n\n\n") == "a\nb"
    assert compare("a\nb\n", "a   \nb") is None
    assert compare("<obj at 0x7f00aa>", "<obj at 0x7f11bb>") is not None
    assert compare("<obj at 0x7f00aa>", "<obj at 0x7f11bb>", ["addresses"]) is None
    assert compare("took 1.5s", "took 0.25 s", ["timings"]) is None
    assert "-one" in compare("one", "two")


def test_comment_inside_a_paragraph_is_not_a_directive():
    (example,) = examples("Some prose <!-- guidelint: skip -->\n\n```python\npass\n```\n")
    assert example.settings == Settings()


def test_comment_above_a_fence_in_a_blockquote_counts():
    (example,) = examples("> <!-- guidelint: skip -->\n> ```python\n> pass\n> ```\n")
    assert example.settings.skip
