"""The false families of held-out set 11 (docs/PRECISION.md, "Held-out set 11 fixes:
GL502 and GL501"): doc-builder's own heading ids (`### HF_TOKEN` is `#hftoken`), a page
template's numbered stand-in links (`../concepts/related1.md`), an all-caps hyphenated
placeholder folder (`docs/source/LANG-ID/`) and a folder named for the kind of item
(`tests/llm/test_provider/evals/`). Each is checked on a small real tree, the false
case silent and the true one beside it still reported."""

from __future__ import annotations

from pathlib import Path

from guidelint.rules.broken_link.names import template_placeholder
from guidelint.rules.stale_path.placeholders import is_placeholder
from tests.rules.test_gl501_heldout6_signals import stale
from tests.rules.test_heldout8_families import findings

# --- GL502: doc-builder's heading ids ------------------------------------------------

TOCTREES = {
    "docs/source/en/_toctree.yml": "- title: Get started\n",
    "docs/source/de/_toctree.yml": "- title: Los geht's\n",
}

ENVIRONMENT = "# Environment variables\n\n### HF_TOKEN\n\n### HF_HUB_DISABLE_SYMLINKS\n"

GERMAN_START = "# Schnellstart\n\n## Anmelden\n\n## 설치\n"


def test_doc_builder_ids_are_anchors_of_a_doc_builder_page(tmp_path: Path) -> None:
    guide = (
        "# Guide\n\n[token](reference/environment#hftoken), "
        "[links](reference/environment#hfhubdisablesymlinks).\n"
    )
    german = "# Installation\n\n[prüfen](#installation-berprfen)\n\n## Installation überprüfen\n"
    files = {
        **TOCTREES,
        "docs/source/en/reference/environment.md": ENVIRONMENT,
        "docs/source/en/guide.md": guide,
        "docs/source/de/installation.md": german,
    }
    assert findings(tmp_path, files, "GL502") == []


def test_anchors_no_doc_builder_heading_makes_stay_reported(tmp_path: Path) -> None:
    # English `#login` into a translated page whose heading is `Anmelden`; an id of no
    # heading; a heading of no ASCII letter makes no id an empty fragment could match.
    setup = "# Setup\n\n[a](quick-start#login)\n[b](../en/reference/environment#hf-home)\n[c](#-)\n"
    files = {
        **TOCTREES,
        "docs/source/en/reference/environment.md": ENVIRONMENT,
        "docs/source/de/quick-start.md": GERMAN_START,
        "docs/source/de/setup.md": setup,
    }
    assert [line for _, line, _ in findings(tmp_path, files, "GL502")] == [3, 4, 5]


def test_doc_builder_ids_need_a_doc_builder_tree(tmp_path: Path) -> None:
    # No `_toctree.yml`: GitHub's slug `#hf_token` is the heading's id, `#hftoken` is not.
    guide = "# Guide\n\n[token](reference/environment#hftoken)\n"
    files = {"docs/reference/environment.md": ENVIRONMENT, "docs/guide.md": guide}
    assert [line for _, line, _ in findings(tmp_path, files, "GL502")] == [3]


# --- GL502: a page template's stand-in links -----------------------------------------


def test_a_template_s_numbered_stand_ins_are_no_broken_links(tmp_path: Path) -> None:
    template = (
        "# [Concept]\n\n- [Related 1](../concepts/related1.md)\n"
        "- [Example 2](../examples/example2.md)\n- [Page](../guides/page-name.md)\n"
        "- [Retries](../concepts/retries.md)\n"
    )
    files = {"docs/templates/concept_template.md": template, "docs/index.md": "# Home\n"}
    found = findings(tmp_path, files, "GL502")
    assert [(line, message.split("`")[1]) for _, line, message in found] == [
        (6, "../concepts/retries.md")
    ]


def test_stand_in_names_outside_a_template_stay_broken_links(tmp_path: Path) -> None:
    doc = "# Concepts\n\n- [Related 1](concepts/related1.md)\n"
    assert [line for _, line, _ in findings(tmp_path, {"docs/index.md": doc}, "GL502")] == [3]


def test_what_counts_as_a_page_template_and_a_stand_in() -> None:
    assert template_placeholder("docs/cookbook_template.md", "../examples/related2.md")
    assert template_placeholder("docs/templates/provider.md", "example_1.md")
    assert template_placeholder("template.md", "page-name.md")
    assert not template_placeholder("docs/templates/provider.md", "../concepts/retries.md")
    assert not template_placeholder("docs/guide.md", "../examples/example1.md")
    assert not template_placeholder("docs/templates/x.md", "../examples/examples.md")


# --- GL501: placeholder folders and a folder named for the kind of item ---------------

EVALS = {
    "tests/llm/test_anthropic/evals/test_run.py": "",
    "tests/llm/test_openai/evals/test_run.py": "",
    "tests/llm/test_openai/test_basic.py": "",
}


def test_a_folder_named_for_the_kind_of_item_is_no_stale_path(tmp_path: Path) -> None:
    doc = (
        "# Tests\n\nEach provider's evals: `tests/llm/test_provider/evals/`.\n"
        "Mistral's: `tests/llm/test_mistral/evals/`.\n"
        "Fixtures: `tests/llm/test_provider/fixtures/`.\n"
        "Translations: `docs/source/LANG-ID/`.\n"
    )
    found = stale(tmp_path, {**EVALS, "docs/index.md": "# Docs\n", "CLAUDE.md": doc})
    assert found == [
        ("CLAUDE.md", 4, "tests/llm/test_mistral/evals/"),
        ("CLAUDE.md", 5, "tests/llm/test_provider/fixtures/"),
    ]


def test_one_real_folder_is_no_set_of_items(tmp_path: Path) -> None:
    # Only `test_openai/` holds `test_basic.py`: a rename, not a stand-in for each.
    doc = "# Tests\n\nSee `tests/llm/test_provider/test_basic.py`.\n"
    found = stale(tmp_path, {**EVALS, "CLAUDE.md": doc})
    assert found == [("CLAUDE.md", 3, "tests/llm/test_provider/test_basic.py")]


def test_capitals_joined_by_hyphens_name_a_placeholder_folder() -> None:
    assert is_placeholder(["docs", "source", "LANG-ID"])
    assert is_placeholder(["YOUR-NAME", "notes.md"])
    assert not is_placeholder(["licenses", "LICENSE-MIT.txt"])
    assert not is_placeholder(["models", "GPT-4", "card.md"])
