"""GL502 does not report an anchor into a page mkdocstrings fills from `::: module.path`
lines (instructor's `../api.md#llm_validator`): its API entries' ids come from the code.
A missing page, and an anchor into a page with no such line, are still reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check

VALIDATION = (
    "# Validation\n\n"
    "See [`llm_validator`](api.md#llm_validator),\n"
    "[the guide's validator](guide.md#llm_validator),\n"
    "[the old page](old-api.md#llm_validator).\n"
)


def lint(root: Path, api: str, mkdocs: bool = False) -> list[int]:
    (root / "docs").mkdir()
    (root / "docs" / "validation.md").write_text(VALIDATION)
    (root / "docs" / "api.md").write_text(api)
    (root / "docs" / "guide.md").write_text("# Guide\n\n## Validators\n")
    if mkdocs:
        (root / "mkdocs.yml").write_text("site_name: Docs\n")
    report = run_check(CheckOptions(paths=[root], select=["GL502"], use_cache=False))
    return sorted(f.line for f in report.findings if f.path == "docs/validation.md")


@pytest.mark.parametrize(
    ("api", "mkdocs", "lines"),
    [
        ("# API\n\n::: instructor.dsl.validators\n", False, [4, 5]),
        ("# API\n\n::: instructor\n", True, [4, 5]),
        # Docusaurus' admonition, no MkDocs: the page's anchors are its headings.
        ("# API\n\n::: info\nA note.\n:::\n", False, [3, 4, 5]),
        # The directive shown in a code span or mid-line is no directive.
        ("# API\n\nWrite `::: instructor.dsl` to document it.\n", False, [3, 4, 5]),
    ],
)
def test_an_anchor_into_a_page_mkdocstrings_fills_is_unknowable(tmp_path, api, mkdocs, lines):
    assert lint(tmp_path, api, mkdocs) == lines
