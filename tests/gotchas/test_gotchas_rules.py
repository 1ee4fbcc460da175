"""GL201-GL208 through the real engine on scratch projects, including bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.findings import Severity
from guidelint.gotchas.config import GotchasConfig
from guidelint.project import Project
from tests.conftest import write_tree

FIXTURES = Path(__file__).parents[1] / "fixtures" / "gotchas"
GOTCHAS = ".claude/rules/gotchas.md"


def lint(root: Path, tree: dict[str, str], check: str = GOTCHAS, **gotchas):
    write_tree(root, tree)
    config = Config(select=["GL2"], gotchas=GotchasConfig(**gotchas))
    engine = Engine(Project(root, config), build_selection(config))
    return engine.check_file(check)


def entries(count: int, start: int = 1) -> str:
    return "".join(
        f"- **Lesson number {n} about topic{n}.** Body {n} (#{1000 + n}).\n"
        for n in range(start, start + count)
    )


def indexed(body: str, cap: int | None = None) -> str:
    """A gotchas file with a correct index for `body`'s entries."""
    from guidelint.gotchas.parse import parse_gotchas

    rows = "".join(f"- [{e.headline}](#{e.anchor})\n" for e in parse_gotchas(body).entries)
    directive = f"<!-- guidelint: row-cap={cap} -->\n\n" if cap else ""
    return f"# Gotchas\n\n{directive}## LESSONS index\n\n{rows}\n## Lessons\n\n{body}"


def codes(findings) -> list[str]:
    return [f.code for f in findings]


def test_clean_file_has_no_findings(tmp_path):
    assert lint(tmp_path, {GOTCHAS: indexed(entries(3), cap=3)}) == []


def test_gl201_counts_and_names_the_oldest(tmp_path):
    [finding] = lint(tmp_path, {GOTCHAS: indexed(entries(5), cap=3)})
    assert finding.code == "GL201"
    assert "5 entries exceed the row cap of 3" in finding.message and "by 2" in finding.message
    assert "'Lesson number 1 about topic1'" in finding.message
    assert "'Lesson number 2 about topic2'" in finding.message
    assert "topic3" not in finding.message  # only the two oldest must go


def test_gl201_config_cap_and_far_over_cap(tmp_path):
    findings = lint(tmp_path, {GOTCHAS: indexed(entries(400))}, row_cap=10)
    assert codes(findings) == ["GL201"]
    assert "400 entries exceed the row cap of 10 (row-cap in config) by 390" in findings[0].message
    assert "and 387 more" in findings[0].message


def test_gl201_bad_directive(tmp_path):
    directive = "# Gotchas\n\n<!-- guidelint: row-cap=ten -->\n"
    text = indexed(entries(1)).replace("# Gotchas\n", directive)
    [finding] = lint(tmp_path, {GOTCHAS: text})
    assert finding.code == "GL201" and "'ten'" in finding.message and finding.line == 3


def test_gl202_gl203_gl204_on_a_drifted_index(tmp_path):
    text = (
        "## LESSONS index\n\n"
        "- [Second](#second)\n"  # out of order
        "- [First, old words](#first)\n"  # stale headline
        "- [Gone](#gone)\n"  # dangling
        "- no link at all\n"  # dangling
        "- [Second again](#second)\n"  # a second row
        "\n## Lessons\n\n"
        '- <a id="first"></a>**First.** (#1)\n'
        '- <a id="second"></a>**Second.** (#2)\n'
        '- <a id="third"></a>**Third.** (#3)\n'
    )
    findings = lint(tmp_path, {GOTCHAS: text})
    got = sorted((f.code, f.line) for f in findings)
    assert got == [
        ("GL202", 13),
        ("GL203", 5),
        ("GL203", 6),
        ("GL203", 7),
        ("GL204", 3),
        ("GL204", 4),
    ]
    assert all(f.fix is not None for f in findings)
    assert len({f.fix for f in findings}) == 1  # one shared regenerating fix


def test_gl202_without_index_section(tmp_path):
    findings = lint(tmp_path, {GOTCHAS: "# Gotchas\n\n" + entries(2)})
    assert codes(findings) == ["GL202", "GL202"]
    assert "no `## LESSONS index` section" in findings[0].message


def test_empty_and_entryless_files_are_clean(tmp_path):
    assert lint(tmp_path, {GOTCHAS: ""}) == []
    assert lint(tmp_path, {GOTCHAS: "# Gotchas\n\nNothing learned yet.\n"}) == []


def test_gl205_fingerprint_and_near_duplicate_headline(tmp_path):
    body = (
        "- **Smoke gates use the realized slice.** (#1) fingerprint: abcdef12\n"
        "- **Checkpoints only at save steps.** (#2) fingerprint: ABCDEF12\n"
        "- **Smoke gate floors: use the realized smoke slice.** (#3)\n"
        "- **Eval loaders never share a seed.** (#4)\n"
    )
    findings = [f for f in lint(tmp_path, {GOTCHAS: indexed(body)}) if f.code == "GL205"]
    messages = [f.message for f in findings]
    assert len(findings) == 2
    assert "same fingerprint abcdef12" in messages[0]
    assert "headline repeats entry 'Smoke gates use the realized slice'" in messages[1]


def test_gl205_threshold_is_configurable(tmp_path):
    body = "- **Seed the eval loaders.** (#1)\n- **Seed the train loaders.** (#2)\n"
    assert [f for f in lint(tmp_path, {GOTCHAS: indexed(body)}) if f.code == "GL205"] == []
    loose = lint(tmp_path, {GOTCHAS: indexed(body)}, duplicate_threshold=0.3)
    assert "GL205" in codes(loose)


def test_gl206_severity_comes_from_config(tmp_path):
    body = "- **No provenance here.** Just a lesson.\n"
    [warning] = lint(tmp_path, {GOTCHAS: indexed(body)})
    assert (warning.code, warning.severity) == ("GL206", Severity.WARNING)
    [error] = lint(tmp_path, {GOTCHAS: indexed(body)}, provenance_severity="error")
    assert error.severity is Severity.ERROR


def test_gl207_budget(tmp_path):
    body = "- **Long.** " + "word " * 60 + "(#1)\n"
    assert lint(tmp_path, {GOTCHAS: indexed(body)}) == []
    [finding] = lint(tmp_path, {GOTCHAS: indexed(body)}, max_entry_chars=100)
    assert finding.code == "GL207" and "over the budget of 100" in finding.message


def test_messy_file_reports_clearly(tmp_path):
    text = (FIXTURES / "messy.md").read_text(encoding="utf-8")
    findings = lint(tmp_path, {GOTCHAS: text})
    assert sorted((f.code, f.line) for f in findings) == [
        ("GL202", 33),
        ("GL208", 25),
        ("GL208", 26),
    ]


def test_crlf_file_gives_the_same_findings(tmp_path):
    text = (FIXTURES / "table_index.md").read_text(encoding="utf-8")
    lf = lint(tmp_path / "lf", {GOTCHAS: text})
    crlf = lint(tmp_path / "crlf", {GOTCHAS: text.replace("\n", "\r\n")})
    assert [(f.code, f.line, f.column, f.message) for f in lf] == [
        (f.code, f.line, f.column, f.message) for f in crlf
    ]
    assert sorted(codes(lf)) == ["GL202", "GL203"]


def test_only_configured_files_are_gotchas_files(tmp_path):
    text = "# Notes\n\n- plain list item\n"
    assert lint(tmp_path, {"docs/notes.md": text}, check="docs/notes.md") == []
    findings = lint(tmp_path, {"docs/notes.md": text}, check="docs/notes.md", files=["docs/*.md"])
    assert codes(findings) == ["GL208"]


@pytest.mark.parametrize("form", ["list", "table"])
def test_separate_index_file(tmp_path, form):
    body = '- <a id="one"></a>**One.** (#1)\n- <a id="two"></a>**Two.** (#2)\n'
    if form == "list":
        rows = "- [One](../.claude/rules/gotchas.md#one)\n- [Gone](../.claude/rules/gotchas.md#x)\n"
    else:
        rows = "| Lesson |\n|---|\n| [One](../.claude/rules/gotchas.md#one) |\n| [Gone](#x) |\n"
    files = {GOTCHAS: "# Gotchas\n\n" + body, "docs/LESSONS.md": "# Lessons\n\n" + rows}
    assert lint(tmp_path, files, index_file="docs/LESSONS.md") == []  # the gotchas file
    findings = lint(tmp_path, files, check="docs/LESSONS.md", index_file="docs/LESSONS.md")
    assert sorted(codes(findings)) == ["GL202", "GL203"]
    assert f"'Two' ({GOTCHAS}:4)" in next(f for f in findings if f.code == "GL202").message


def test_missing_separate_index_file(tmp_path):
    findings = lint(tmp_path, {GOTCHAS: entries(1)}, index_file="docs/LESSONS.md")
    assert codes(findings) == ["GL202"]
    assert "`docs/LESSONS.md` does not exist" in findings[0].message
    assert findings[0].fix is None


def test_gl204_wrong_row_number_in_a_table(tmp_path):
    text = (
        "## LESSONS index\n\n| # | Lesson |\n|---|---|\n"
        "| 1 | [First](#first) |\n| 3 | [Second](#second) |\n"
        "\n## Lessons\n\n"
        '- <a id="first"></a>**First.** (#1)\n'
        '- <a id="second"></a>**Second.** (#2)\n'
    )
    [finding] = lint(tmp_path, {GOTCHAS: text})
    assert (finding.code, finding.line) == ("GL204", 6)
    assert "numbered '3' but its entry is number 2" in finding.message


def _first_repeats_pairwise(tokens: list[frozenset[str]], threshold: float) -> list:
    """GL205's answer by comparing every pair: the first earlier entry each repeats."""
    from guidelint.gotchas.headlines import similarity

    found: list[tuple[int, float] | None] = []
    for i, own in enumerate(tokens):
        scores = ((j, similarity(own, tokens[j])) for j in range(i))
        found.append(next(((j, s) for j, s in scores if s >= threshold), None))
    return found


@settings(max_examples=300, deadline=None)
@given(
    tokens=st.lists(
        st.frozensets(st.sampled_from("abcdefghij"), max_size=7), min_size=1, max_size=25
    ),
    threshold=st.sampled_from([0.1, 0.3, 0.5, 0.6, 0.8, 0.9, 1.0]),
)
def test_gl205_prefix_filter_finds_what_every_pair_finds(tokens, threshold):
    """Repeats looks at a few candidates per entry; the answer is the pairwise one."""
    from guidelint.rules.gl205_duplicate_gotcha import Repeats

    repeats = Repeats(tokens, threshold)
    found = [repeats.first_repeat(i) for i in range(len(tokens))]
    assert found == _first_repeats_pairwise(tokens, threshold)


def test_gl205_headlines_sharing_one_word_are_not_compared_pairwise(monkeypatch):
    """Every headline shares 'always' (#28): no pair of them is compared."""
    from guidelint.gotchas.headlines import headline_tokens, similarity
    from guidelint.rules import gl205_duplicate_gotcha

    compared = []
    monkeypatch.setattr(
        gl205_duplicate_gotcha, "similarity", lambda a, b: compared.append(1) or similarity(a, b)
    )
    headlines = [f"Always alpha{i} beta{i} gamma{i}" for i in range(300)] + ["Always alpha7 beta7"]
    repeats = gl205_duplicate_gotcha.Repeats([headline_tokens(h) for h in headlines], 0.8)
    found = [repeats.first_repeat(i) for i in range(len(headlines))]
    assert found == [None] * 300 + [(7, 1.0)]  # the last restates entry 7
    assert len(compared) == 1


def _first_repeats_sharing_an_uncrowded_word(tokens: list[frozenset[str]], threshold, crowded):
    """The pairwise answer among pairs GL205 compares: the same words, or a word in at
    most `crowded` headlines in common."""
    from collections import Counter

    from guidelint.gotchas.headlines import similarity

    counts = Counter(word for words in tokens for word in words)

    def compared(a: frozenset[str], b: frozenset[str]) -> bool:
        return a == b or any(counts[word] <= crowded for word in a & b)

    found: list[tuple[int, float] | None] = []
    for i, own in enumerate(tokens):
        scores = ((j, similarity(own, tokens[j])) for j in range(i) if compared(own, tokens[j]))
        found.append(next(((j, s) for j, s in scores if s >= threshold), None))
    return found


@settings(max_examples=300, deadline=None)
@given(
    tokens=st.lists(
        st.frozensets(st.sampled_from("abcdefghij"), max_size=7), min_size=1, max_size=25
    ),
    threshold=st.sampled_from([0.1, 0.3, 0.5, 0.6, 0.8, 0.9, 1.0]),
    crowded=st.integers(min_value=1, max_value=8),
)
def test_gl205_loses_only_repeats_made_of_crowded_words(tokens, threshold, crowded):
    """A word in more than `crowded` headlines leads to no comparison: exactly the
    repeats whose shared words are all crowded are lost, and an entry that could
    have one is counted in `limited`."""
    from guidelint.rules.gl205_duplicate_gotcha import Repeats

    repeats = Repeats(tokens, threshold, crowded=crowded)
    found = [repeats.first_repeat(i) for i in range(len(tokens))]
    assert found == _first_repeats_sharing_an_uncrowded_word(tokens, threshold, crowded)
    every_pair = _first_repeats_pairwise(tokens, threshold)
    lost = {i for i in range(len(tokens)) if found[i] != every_pair[i]}
    assert lost <= set(repeats.limited)


def test_gl205_compares_an_entry_with_at_most_its_cap_of_candidates():
    """An entry whose two rarest words each lead to 30 earlier entries is compared with
    CANDIDATES_PER_ENTRY of them, and is counted in `limited`."""
    from guidelint.rules.gl205_duplicate_gotcha import CANDIDATES_PER_ENTRY, Repeats

    common = {"c1", "c2", "c3"}  # in 61 headlines: crowded, never looked up
    tokens = [frozenset({"x", f"u{i}", *common}) for i in range(30)]
    tokens += [frozenset({"y", f"v{i}", *common}) for i in range(30)]
    tokens.append(frozenset({"x", "y", *common}))
    repeats = Repeats(tokens, 0.8)
    found = [repeats.first_repeat(i) for i in range(len(tokens))]
    assert found == _first_repeats_pairwise(tokens, 0.8)  # the first candidates hold it
    assert found[60] == (0, 0.8) and repeats.limited == [60]
    assert 60 > CANDIDATES_PER_ENTRY


def test_gl205_says_once_where_it_stopped_looking_and_still_finds_a_close_repeat(tmp_path):
    """Headlines whose every word is in 60 of 600 headlines (#28): such crowded words
    lead to no comparison; one warning says so, and a repeat whose rarest word is rare
    is still found."""
    from guidelint.rules.gl205_duplicate_gotcha import CROWDED

    words = ("north", "east", "south", "west")
    body = "".join(
        f"- **{' '.join(f'{w}{(n // 10**p) % 10}' for p, w in enumerate(words))}.** (#{n})\n"
        for n in range(600)
    )
    body += "- **Zebra crossings need lights.** (#600)\n- **Zebra crossings need lights!** (#601)\n"
    findings = [f for f in lint(tmp_path, {GOTCHAS: body}) if f.code == "GL205"]
    errors = [f for f in findings if f.severity is Severity.ERROR]
    [note] = [f for f in findings if f.severity is Severity.WARNING]
    assert [f.line for f in errors] == [602]  # the second zebra; no digit headline repeats
    assert f"a word in more than {CROWDED} headlines leads to no comparison" in note.message
    assert note.message.startswith("600 entries, this one first") and note.line == 1


def test_gl205_finds_identical_headlines_of_crowded_words(tmp_path):
    """Forty entries with one headline: its words are crowded, the repeats are found."""
    body = "".join(f"- **Run the smoke test first.** (#{n})\n" for n in range(40))
    findings = [f for f in lint(tmp_path, {GOTCHAS: body}) if f.code == "GL205"]
    errors = [f for f in findings if f.severity is Severity.ERROR]
    assert [f.line for f in errors] == list(range(2, 41))
    assert all("repeats entry 'Run the smoke test first' (line 1)" in f.message for f in errors)
