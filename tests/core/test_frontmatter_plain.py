"""Front matter that plainly reads (`frontmatter.plainly_a_mapping`): what GL601 and
GL107 leave uncomposed.

A front matter the test accepts must compose to a mapping (or to nothing) under both
PyYAML's composer and libyaml's, with no problem for GL601 to report: checked on every
front matter of both corpora and on generated lines built from YAML's awkward pieces.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guidelint import frontmatter
from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.markdown import front_matter_of
from guidelint.project import Project
from guidelint.sources import SourceFile
from tests.conftest import shared_corpus

CORPUS = shared_corpus()
LOADERS = [yaml.SafeLoader, *([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])]

HUGO = "---\ntitle: Getting started\nweight: 10\ndescription: >-\n  How to start.\n---\n# Hi\n"
AGENT = "---\nname: reviewer\ntools: Read, Bogus\n---\nReview.\n"


def reads_plainly(text: str) -> bool:
    """The composers' own answer: a mapping or nothing, and no problem for GL601."""
    for loader in LOADERS:
        try:
            node = yaml.compose(text, Loader=loader)
        except yaml.YAMLError:
            return False
        if node is not None and not isinstance(node, yaml.MappingNode):
            return False
    data = frontmatter._parse(SourceFile(Path("/x.md"), "x.md", f"---\n{text}---\n"))
    return data is not None and not data.problems


@pytest.mark.parametrize(
    "text",
    [
        "title: x\nweight: -10\n",
        "cSpell:ignore: abc def\naliases: [a/b, ../c]\nbuild: { render: link }\n",
        "description:\n  Learn how\n  to start.\n",
        "redirects:\n  - { from: /a/*, to: ':splat' }\n  - /docs/b\n",
        "params:\n  vers: 0.1.0\n  repo: https://example.com\n",
        "commit: abc123 # patched\n",
        "x: |\n  one\n\n    two\n",
        "# prettier-ignore\ntitle: 'It''s'\n",
    ],
)
def test_plain_front_matter_is_recognised_and_reads(text):
    assert frontmatter.plainly_a_mapping(text)
    assert reads_plainly(text)


@pytest.mark.parametrize(
    "text",
    [
        "description: Use when: the build breaks\n",  # `: ` in a plain value
        "a: [unclosed\nb: fine\n",
        "\tname: tab\n",
        "- a list\n",
        "k: &a [1, *a]\n",
        "title: x\n  more: y\n",  # a nested key under a plain value
        "x: 'one'\n  two\n",
        "name: foo # c\n  more\n",
        "x: |\n    deep\n  shallow\n",
        "title: x\r\n",
        "key:value\n",
        "title: x\u2028y\n",
    ],
)
def test_anything_subtler_is_left_to_the_composer(text):
    assert not frontmatter.plainly_a_mapping(text)


PIECES = st.sampled_from(
    [
        "title",
        "a:b",
        "-",
        "- ",
        " ",
        ": ",
        ":",
        "#",
        " #",
        "x",
        "-1",
        "'",
        "''",
        '"',
        "\\",
        "[",
        "]",
        "{",
        "}",
        ",",
        "|",
        ">",
        "|-",
        "&a",
        "*a",
        "!t",
        "%",
        "@",
        "`",
        "?",
        "...",
        "---",
        "a b",
        "{ a: b }",
        "[a, b]",
        "é",
        "\t",
        "\u2028",
        "\ufeff",
        "\x85",
        "~",
        "y: z",
        "<img>",
        "/docs/*",
        "..",
        "'a: b'",
        "{{ .T }}",
        "a # c",
    ]  # fmt: skip
)
KEYS = st.sampled_from(["title", "a:b", "x-y", "_k", "A.b", "k"])
VALUES = st.lists(PIECES, min_size=1, max_size=4).map("".join)
INDENT = st.integers(1, 4).map(lambda n: " " * n)
LINES = st.one_of(
    st.tuples(KEYS, VALUES).map(lambda kv: f"{kv[0]}: {kv[1]}"),
    KEYS.map(lambda k: f"{k}:"),
    KEYS.map(lambda k: f"{k}: |"),
    st.tuples(INDENT, VALUES).map(lambda iv: f"{iv[0]}- {iv[1]}"),
    st.tuples(INDENT, KEYS, VALUES).map(lambda ikv: f"{ikv[0]}{ikv[1]}: {ikv[2]}"),
    st.tuples(INDENT, VALUES).map("".join),
    st.sampled_from(["# c", "", "  ", "- x"]),
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(LINES, min_size=1, max_size=6))
def test_what_is_recognised_always_reads(lines):
    text = "\n".join(lines) + "\n"
    if frontmatter.plainly_a_mapping(text):
        assert reads_plainly(text), text


@pytest.mark.slow
@pytest.mark.corpus()
def test_every_corpus_front_matter_recognised_reads():
    recognised = 0
    for path in sorted(CORPUS.rglob("*.md")):
        text = path.read_text("utf-8", errors="replace")
        front = front_matter_of(text)
        if front is not None and frontmatter.plainly_a_mapping(front.text):
            recognised += 1
            assert reads_plainly(front.text), path
    assert recognised > 2000  # most of both corpora's front matter (2,257 of 2,375)


def test_gl107_and_gl601_compose_no_yaml_for_plain_front_matter(make_project, monkeypatch):
    root = make_project({"docs/start.md": HUGO, ".claude/agents/reviewer.md": AGENT})
    composed: list[str] = []
    real = frontmatter._compose

    def counting(text):
        composed.append(text)
        return real(text)

    monkeypatch.setattr(frontmatter, "_compose", counting)
    config = Config(select=["GL107", "GL601"])
    engine = Engine(Project(root, config), build_selection(config))
    assert engine.check_batch(["docs/start.md"]) == []
    assert composed == []  # Hugo's title and weight: nothing composed
    found = engine.check_batch([".claude/agents/reviewer.md"])
    assert [f.code for f in found] == ["GL107"]  # an agent's tools: composed, and checked
    assert composed == ["name: reviewer\ntools: Read, Bogus\n"]


def test_gl107_still_reads_a_tools_key_spelled_with_escapes(make_project):
    text = '---\n"\\x74\\x6f\\x6fls": Read, Bogus\n---\nReview.\n'  # "tools"
    root = make_project({".claude/agents/reviewer.md": text})
    config = Config(select=["GL107"])
    engine = Engine(Project(root, config), build_selection(config))
    assert [f.code for f in engine.check_batch([".claude/agents/reviewer.md"])] == ["GL107"]


def test_front_matter_is_found_once_per_file(make_project, monkeypatch):
    """GL601's `needs`, GL107 and the YAML reading share one search for the fences."""
    import guidelint.markdown

    root = make_project({"docs/start.md": "---\ntitle: x\ntools: Read\n---\n# Hi\n"})
    found: list[str] = []
    real = guidelint.markdown.front_matter_of

    def counting(text):
        found.append(text[:3])
        return real(text)

    monkeypatch.setattr(guidelint.markdown, "front_matter_of", counting)
    config = Config(select=["GL107", "GL601"])
    engine = Engine(Project(root, config), build_selection(config))
    assert engine.check_batch(["docs/start.md"]) == []
    assert found == ["---"]


NAMED = st.one_of(
    LINES,
    st.tuples(st.sampled_from(["name: ", "name:  ", "name:"]), VALUES).map("".join),
    st.sampled_from(["name: reviewer", "name: 'it''s'", 'name: "q"', "name: yes", "name: a b"]),
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(NAMED, min_size=1, max_size=6))
def test_a_name_read_from_the_lines_is_the_composed_one(lines):
    """defined_agents reads an agent's `name` this way (`frontmatter.plain_string`)."""
    text = "\n".join(lines) + "\n"
    known, value = frontmatter.plain_string(text, "name")
    if known:
        data = frontmatter._parse(SourceFile(Path("/x.md"), "x.md", f"---\n{text}---\n"))
        composed = data.get("name") if data else None
        assert value == (composed if isinstance(composed, str) else None), text
        assert value is not None or "name" not in data.entries, text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: code-reviewer\ndescription: Reviews\n", (True, "code-reviewer")),
        ("name: 'it''s'\n", (True, "it's")),
        ("title: x\n", (True, None)),
        ("name: yes\n", (False, None)),  # a bool to YAML
        ("name: a\n  b\n", (False, None)),  # goes on below
        ("name: a\nname: b\n", (True, "a")),  # YAML keeps the first
        ("name: [a]\n", (False, None)),
    ],
)
def test_plain_string_reads_only_what_is_sure(text, expected):
    assert frontmatter.plain_string(text, "name") == expected


def test_defined_agents_composes_no_yaml_for_plain_names(make_project, monkeypatch):
    from guidelint.tools.claude_code import defined_agents

    root = make_project(
        {
            ".claude/agents/reviewer.md": AGENT,
            ".claude/agents/odd.md": "---\nname: &n tricky\n---\nOdd.\n",
            ".claude/agents/plain.md": "No front matter.\n",
        }
    )
    composed: list[str] = []
    real = frontmatter._compose
    monkeypatch.setattr(frontmatter, "_compose", lambda text: composed.append(text) or real(text))
    assert defined_agents(Project(root, Config())) == {"reviewer", "odd", "tricky", "plain"}
    assert composed == ["name: &n tricky\n"]  # only the one YAML must read
