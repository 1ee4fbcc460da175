"""Every rule has a page in rules/, and the page's examples behave as documented."""

from __future__ import annotations

from pathlib import Path

import pytest

from guidelint.rules import all_rules
from guidelint.testing import REQUIRED_SECTIONS, parse_page, run_example

PAGES = Path(__file__).parents[2] / "rules"
CODES = list(all_rules())


def load(code: str):
    path = PAGES / f"{code}.md"
    assert path.is_file(), f"rule {code} has no page {path}"
    return parse_page(path.read_text(encoding="utf-8"), code)


@pytest.mark.parametrize("code", CODES)
def test_page_has_title_and_sections(code):
    page = load(code)
    rule = all_rules()[code]
    assert page.title == f"{code} {rule.name}"
    if page.no_examples:
        return
    for section in REQUIRED_SECTIONS:
        assert section in page.sections, f"rules/{code}.md lacks '## {section}'"
    kinds = {e.kind for e in page.examples}
    assert {"bad", "good"} <= kinds, f"rules/{code}.md needs a bad and a good example"


def _examples(kind: str):
    for code in CODES:
        page = load(code)
        for example in page.examples:
            if example.kind == kind:
                yield pytest.param(code, example, page.fixtures, id=f"{code}-line{example.line}")


@pytest.mark.parametrize(("code", "example", "fixtures"), list(_examples("bad")))
def test_bad_example_reports_expected_lines(code, example, fixtures):
    findings, _ = run_example(code, example, fixtures)
    assert example.expect, f"bad example at rules/{code}.md:{example.line} needs expect=LINES"
    assert sorted(f.line for f in findings) == example.expect, [f.message for f in findings]


@pytest.mark.parametrize(("code", "example", "fixtures"), list(_examples("good")))
def test_good_example_is_clean(code, example, fixtures):
    findings, _ = run_example(code, example, fixtures)
    assert findings == [], [f"{f.line}: {f.message}" for f in findings]


def _fix_pairs():
    for code in CODES:
        page = load(code)
        for before, after in zip(page.examples, page.examples[1:], strict=False):
            if before.kind == "bad" and after.kind == "fixed":
                yield pytest.param(
                    code, before, after, page.fixtures, id=f"{code}-line{after.line}"
                )


@pytest.mark.parametrize(("code", "bad", "fixed", "fixtures"), list(_fix_pairs()))
def test_fix_gives_documented_result_and_relints_clean(code, bad, fixed, fixtures):
    remaining, text = run_example(code, bad, fixtures, fix=True)
    assert text == fixed.content
    assert all(f.fix is None for f in remaining), "a fixable finding survived --fix"


@pytest.mark.parametrize(("code", "example", "fixtures"), list(_examples("bad")))
def test_only_a_rule_whose_page_shows_a_fix_offers_one(code, example, fixtures):
    # `fixable` is read from the page (scripts/gen_rule_index.py): a rule whose page
    # shows no fix must offer none, or `guidelint rules` would call it unfixable.
    findings, _ = run_example(code, example, fixtures)
    if not all_rules()[code].fixable:
        assert all(f.fix is None for f in findings), f"{code} fixes, its page shows no fix"


def test_every_page_belongs_to_a_rule():
    orphans = [p.stem for p in PAGES.glob("GL*.md") if p.stem not in all_rules()]
    assert orphans == []


def test_a_page_may_not_give_one_fixture_path_two_contents():
    """Fixtures are page-wide: a second `mkdocs.yml` would silently replace the first
    for every example (two merged branches did this to GL502's page)."""
    fence = "```yaml {{fixture=mkdocs.yml}}\n{}\n```\n"
    one, other = fence.format("a: 1"), fence.format("b: 2")
    page = f"# GLX\n\n{one}\n{other}"
    with pytest.raises(ValueError, match="mkdocs.yml written twice"):
        parse_page(page, "GLX")
    same = "# GLX\n\n```yaml {fixture=m.yml}\na: 1\n```\n\n```yaml {fixture=m.yml}\na: 1\n```\n"
    assert parse_page(same, "GLX").fixtures == {"m.yml": "a: 1\n"}
