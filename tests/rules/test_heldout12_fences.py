"""GL401's, GL502's and GL503's false families of held-out set 12 (docs/PRECISION.md,
"Held-out set 12 fixes: fences, examples and Mintlify links"): notebook cells turned
into pages, printed signatures, an excerpt that starts at `elif`, a catalogue's lone
decorator, a `.env` file beside Python; a fence a list item's end closes; a Mintlify
page linked as `.md`. Each false case is checked on a small real tree, silent, with a
true case beside it still reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check
from tests.conftest import write_tree


def _findings(root: Path, files: dict[str, str], code: str) -> list[tuple[str, int, str]]:
    write_tree(root, files)
    report = run_check(CheckOptions(paths=[root], select=[code], use_cache=False))
    return sorted((f.path, f.line, f.message) for f in report.findings)


def _python(block: str, before: str = "") -> str:
    return f"# Guide\n\n{before}```python\n{block}```\n\nThe end.\n"


NOT_PYTHON_TO_PARSE = {
    "pip with extras": ('pip install "camel-ai[rag]==0.2.22"\n', ""),
    "a shell escape with a space": ("# Update Composio apps\n! composio apps update\n", ""),
    "a program's command line": ("neo4j start\n", ""),
    "output after its lead-in": (
        "Response from the search tools:\n Based on my search results, here's what I found\n",
        "Expected output:\n\n\n\n",
    ),
    "a printed signature": (
        "pixie.run_and_evaluate(evaluator: 'Callable[..., Any]', *, expected: 'Any' = "
        "<object object at 0x7788c2ad5c80>) -> 'Evaluation'\n",
        "",
    ),
    "a dataclass's printed signature": (
        "Evaluation(score: 'float', details: 'dict[str, Any]' = <factory>) -> None\n",
        "",
    ),
    "an excerpt from elif": (
        'elif item["type"] == "mcp_approval_request":\n    yield item\n\npending = 1\n',
        "",
    ),
    "a catalogue's lone decorator": (
        "# Missing CSRF\n@csrf_exempt  # only for token auth\n\n# Debug mode\nDEBUG = True\n",
        "",
    ),
    "a .env file beside Python": (
        "# .env file (git-ignored)\nDATAVERSE_URL=https://org.crm.dynamics.com\n\n"
        "# Python code\nimport os\n",
        "",
    ),
}


@pytest.mark.parametrize("name", sorted(NOT_PYTHON_TO_PARSE))
def test_gl401_leaves_what_is_no_python_to_parse(tmp_path: Path, name: str) -> None:
    block, before = NOT_PYTHON_TO_PARSE[name]
    assert _findings(tmp_path, {"guide.md": _python(block, before)}, "GL401") == []


STILL_ERRORS = {
    "tabs and spaces mixed": ("def f():\n\tif x:\n        pass\n", 6, "inconsistent use of tabs"),
    "Python 2's print": ('print "hello"\n', 4, "Missing parentheses"),
    "a real error after elif": ("elif x:\n    y = (1,\n", 5, "was never closed"),
    "a decorator on an assignment": ("@cache\nDEBUG = True\n", 5, "invalid syntax"),
    "code after a lead-in that is no output": ("x = (1,\n", 4, "was never closed"),
}


@pytest.mark.parametrize("name", sorted(STILL_ERRORS))
def test_gl401_still_reports_real_errors(tmp_path: Path, name: str) -> None:
    block, line, message = STILL_ERRORS[name]
    before = "Here is the code that prints it:\n\n" if "lead-in" in name else ""
    found = _findings(tmp_path, {"guide.md": _python(block, before)}, "GL401")
    assert [(found_line, message in text) for _, found_line, text in found] == [
        (line + (2 if before else 0), True)
    ]


LIST_ITEM_FENCES = (
    "# Upgrade\n\n"
    "- **System.Text.Json**\n"
    "  ```csharp\n"
    "  var obj = JsonSerializer.Deserialize<MyClass>(json);\n"
    "IHostBuilder vs WebHostBuilder\n\n"
    "- **Upgrade Assistant**:\n"
    "  ```bash\n"
    "  upgrade-assistant upgrade <SolutionName>.sln```\n\n"
    "- **Pipelines**: update them.\n\n"
    "- Python:\n"
    "  ```python\n"
    "  x = 1\n"
    "Back at the margin.\n"
)


def test_a_fence_a_list_item_closes_is_not_left_open(tmp_path: Path) -> None:
    files = {"guide.md": LIST_ITEM_FENCES}
    assert _findings(tmp_path, files, "GL503") == []
    assert _findings(tmp_path, files, "GL401") == []


def test_a_fence_left_open_to_the_end_is_still_reported(tmp_path: Path) -> None:
    text = LIST_ITEM_FENCES + "\n```text\nnever closed\n\n- an item\n"
    assert [line for _, line, _ in _findings(tmp_path, {"guide.md": text}, "GL503")] == [19]
    in_item = "# Steps\n\n- Run:\n  ```bash\n  make\n"
    found = _findings(tmp_path / "item", {"guide.md": in_item}, "GL503")
    assert [(line, "never closed" in text) for _, line, text in found] == [(4, True)]


def test_a_closing_line_that_closes_nothing_in_a_list_item_is_reported(tmp_path: Path) -> None:
    text = (
        "# Contributing\n\n"
        "* **Sub-sections:**\n\n"
        "    ```python\n"
        "    def f():\n"
        "        ...\n"
        "      ```\n\n"
        "- Reference paper\n\n"
        "    ```bibtex\n"
        "    @article{x, year={2022}\n"
        "    ```}\n\n"
        "## Next\n"
    )
    found = _findings(tmp_path, {"guide.md": text}, "GL401")
    found += _findings(tmp_path, {"guide.md": text}, "GL503")
    assert [(line, message.split(": ")[1][:30]) for _, line, message in found] == [
        (5, "the ``` at line 8 is indented "),
        (12, "the ``` at line 14 has `}` aft"),
    ]


def test_a_code_line_back_at_the_margin_cuts_the_fence_before_its_close(tmp_path: Path) -> None:
    # A hard-wrapped code line at the outer item's indentation ends the inner item and
    # the fence in it; the closing line follows in the same run of lines. A bare fence
    # after a blank line is another block's.
    text = (
        "# Changelog\n\n"
        "- Added transforms.\n"
        "    - Pass keyword arguments:\n"
        "      ```python\n"
        "      tts = Service(\n"
        "          transforms=[VoiceFormatter(expand=True,\n"
        "  acronyms=False)],\n"
        "      )\n"
        "      ```\n\n"
        "- Tools:\n"
        "  ```python\n"
        "  install()\n"
        "Back at the margin.\n\n"
        "```\nplain\n```\n"
    )
    found = _findings(tmp_path, {"guide.md": text}, "GL401")
    assert [
        (line, "before its closing ``` at line 10" in message) for _, line, message in found
    ] == [(5, True)]


def test_a_swallowed_opener_is_reported_past_the_indented_code_after_it(tmp_path: Path) -> None:
    text = (
        "# Runtimes\n\n"
        '<Card title="Remote runtime">\n'
        "  Run tools remotely.\n"
        "  ```python\n"
        "  from camel.runtimes import RemoteHttpRuntime\n\n"
        '  if __name__ == "__main__":\n'
        "      runtime = RemoteHttpRuntime()\n\n"
        "      runtime.wait()\n"
        "  ```\n"
        "</Card>\n\n"
        "## Next\n"
    )
    found = _findings(tmp_path, {"guide.md": text}, "GL503")
    assert [(line, "taken into the HTML block" in message) for _, line, message in found] == [
        (5, True)
    ]


def test_a_markdown_example_of_bare_blocks_is_reported_at_its_opener(tmp_path: Path) -> None:
    text = (
        "# Review protocol\n\n"
        "```markdown\n# Protocol\n\nList the cases:\n\n"
        "```\n1. [ ] Case 1\n```\n\n"
        "Write findings:\n\n"
        "```\n## Audit\n```\n\n"
        "The hints file:\n\n"
        "```markdown\n# Hints\n```\n"
        "```\n"
    )
    found = _findings(tmp_path, {"guide.md": text}, "GL503")
    assert [(line, "holds bare ``` blocks" in message) for _, line, message in found] == [(3, True)]


MINTLIFY_CONFIG = '{"$schema": "https://mintlify.com/docs.json", "name": "Docs"}\n'
PAGE = "# Benchmarks\n\nSee [agents](./agents.md) and [the notebook](../cookbooks/tasks.ipynb).\n"


def test_a_md_link_reaches_the_mdx_page_in_a_mintlify_site(tmp_path: Path) -> None:
    files = {
        "docs/docs.json": MINTLIFY_CONFIG,
        "docs/key_modules/Benchmark.mdx": PAGE,
        "docs/key_modules/agents.mdx": "# Agents\n",
        "docs/cookbooks/tasks.mdx": "# Tasks\n",
    }
    found = _findings(tmp_path, files, "GL502")
    assert [message.split("`")[1] for _, _, message in found] == ["../cookbooks/tasks.ipynb"]


@pytest.mark.parametrize("config", [None, '{"name": "some other tool"}\n'])
def test_a_md_link_to_an_mdx_page_is_broken_outside_mintlify(
    tmp_path: Path, config: str | None
) -> None:
    files = {"docs/key_modules/Benchmark.mdx": PAGE, "docs/key_modules/agents.mdx": "# A\n"}
    if config is not None:
        files["docs/docs.json"] = config
    found = _findings(tmp_path, files, "GL502")
    assert sorted(message.split("`")[1] for _, _, message in found) == [
        "../cookbooks/tasks.ipynb",
        "./agents.md",
    ]
