"""The static rule index (guidelint.rules.index) against the rule classes themselves.

The engine imports a rule only when `in_scope` says it may apply to a file, and skips
one whose `idle_on` says it finds nothing there: both are checked here against the
real `applies_to()` and `check()` of every rule, on scratch projects and the corpora.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.rules import all_rules, rule_by_name_or_code
from guidelint.rules.index import (
    FIXABLE,
    NEEDS,
    RULES,
    SCOPES,
    SUMMARIES,
    RuleEntry,
    idle_on,
    in_scope,
)
from guidelint.sources import Unreadable, load
from tests.conftest import corpus_folders, shared_corpus

REPO = Path(__file__).resolve().parents[2]

SUFFIXES = (".md", ".mdx", ".json", ".py")

TREE = {
    "README.md": "# Read me\n\nSee [the guide](docs/guide.md).\n",
    "CLAUDE.md": "# Rules\n\nUse the `Task` tool with `subagent_type: reviewer`.\n",
    "docs/guide.md": "# Guide\n\n```python\nprint(1)\n```\n\nCall `mcp__lab__run()`.\n",
    "docs/plain.md": "---\ntitle: x\n---\n# Plain\n\nNo code at all.\n",
    "docs/odd.md": "---\ntitle: x\naliases: [a, {b: c}\n---\n# Odd front matter\n",
    ".claude/rules/gotchas.md": "# Gotchas\n\n- **One.** Text (#1).\n",
    ".claude/agents/reviewer.md": "---\nname: reviewer\ntools: Read, Bogus\n---\nReview.\n",
    ".claude/commands/ship.md": "Delegate to the `nobody` subagent.\n",
    ".claude/skills/lint/SKILL.md": "---\nname: lint\n---\nLint things.\n",
    ".claude/settings.json": '{"permissions": {"allow": ["Bash(ls)"]}, "hooks": {}}\n',
    ".mcp.json": '{"mcpServers": {"lab": {"command": "lab"}}}\n',
    "scripts/train.py": "print('train')\n",
    "lib/util.py": "print('not a driver')\n",
}


def generator():
    """scripts/gen_rule_index.py, which writes the index's table."""
    path = REPO / "scripts" / "gen_rule_index.py"
    spec = importlib.util.spec_from_file_location("gen_rule_index", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_index_is_what_the_script_writes_now():
    gen = generator()
    current = gen.INDEX.read_text(encoding="utf-8")
    wanted = gen.rendered(current, gen.discovered_rules())
    assert wanted == current, "guidelint/rules/index.py is stale: run scripts/gen_rule_index.py"


def test_every_rule_module_is_indexed_and_loads_its_class():
    discovered = generator().discovered_rules()
    assert list(all_rules()) == list(discovered)
    assert all(all_rules()[code] is rule for code, rule in discovered.items())


def test_what_a_page_states_reaches_its_rule():
    # The summary and `fixable` are stated by the page only (scripts/gen_rule_index.py).
    pages = REPO / "rules"
    for code, rule in all_rules().items():
        text = (pages / f"{code}.md").read_text(encoding="utf-8")
        assert rule.summary == " ".join(text.split("\n\n")[1].split()), code
        assert rule.fixable == ("example=fixed" in text), code
    assert {"GL101", "GL202"} <= set(FIXABLE) and set(SUMMARIES) == set(all_rules())


def test_every_row_names_known_tests():
    assert {e.scope for e in RULES} <= set(SCOPES)
    assert {e.needs for e in RULES if e.needs} <= set(NEEDS)


def test_needs_only_where_a_rule_applies_to_every_file_of_its_kinds():
    # The engine counts an idle rule as run (for unused suppressions) without asking
    # its applies_to(): that holds only where applies_to() is the kinds alone.
    rules = all_rules()
    gated = [e for e in RULES if e.needs]
    assert gated  # the index does gate some rules
    for entry in gated:
        assert entry.scope == "kinds", entry.code
        assert rules[entry.code].applies_to is Rule.applies_to, entry.code


def test_explain_loads_one_rule_by_code_or_name():
    assert rule_by_name_or_code("gl502") is all_rules()["GL502"]
    assert rule_by_name_or_code("row-cap-exceeded") is all_rules()["GL201"]
    assert rule_by_name_or_code("GL999") is None


def contradictions(project: Project, rels: list[str], seen: Counter) -> list[str]:
    """Where the index's tests disagree with the rules themselves (each counted in
    `seen`, so a caller can tell the tests were exercised)."""
    rules = {code: rule() for code, rule in all_rules().items()}
    wrong = []
    for rel in rels:
        try:
            file = load(project.root / rel, rel, project.config.max_file_size)
        except Unreadable:
            continue
        for entry in RULES:
            if file.kind not in entry.kinds:
                continue
            wrong += _contradiction(entry, rules[entry.code], file, project, seen)
    return wrong


def _contradiction(entry: RuleEntry, rule: Rule, file, project: Project, seen: Counter) -> list:
    applies = rule.applies_to(file, project)
    if not in_scope(entry, file, project):
        seen["out of scope"] += 1
        return (
            [f"{file.rel}: {entry.code} applies out of its scope {entry.scope}"] if applies else []
        )
    seen[f"in scope {entry.scope}"] += 1
    if applies and idle_on(entry, file, project):
        seen[f"idle {entry.needs}"] += 1
        found = [
            f"{file.rel}: {entry.code} found {f.message} though idle"
            for f in rule.check(file, project)
        ]
        return found
    return []


def test_scopes_cover_applies_to_and_idle_rules_find_nothing(make_project):
    root = make_project(TREE)
    project = Project(root, Config())
    seen: Counter = Counter()
    assert contradictions(project, sorted(TREE), seen) == []
    # Every test of the index was exercised: in scope, out of it, and idle.
    assert {f"in scope {s}" for s in SCOPES} <= set(seen)
    assert {f"idle {n}" for n in NEEDS} <= set(seen)
    assert seen["out of scope"] > 0


def test_a_lazy_engine_still_checks_every_kind_of_file(make_project):
    # GL2xx on the gotchas file, GL6xx on the agent, GL107 on its tools, GL4xx on
    # the example: each rule loads when its first file comes.
    root = make_project(TREE)
    config = Config(include=["**/*.md", "**/*.json", "**/*.py"])
    engine = Engine(Project(root, config), build_selection(config))
    assert engine.rules == []  # nothing loaded before a file
    codes = {f.code for f in engine.check_files(sorted(TREE), jobs=1)}
    assert {"GL107", "GL202", "GL601", "GL606", "GL607", "GL110"} <= codes
    loaded = {rule.code for rule in engine.rules}
    assert {"GL201", "GL401", "GL502", "GL601", "GL606", "GL607", "GL106"} <= loaded
    # GL601 loads for docs/odd.md alone: the other front matter reads plainly.
    assert "GL301" in loaded  # scripts/train.py is a driver (smoke.drivers)
    assert "GL301" not in Engine(Project(root, config), build_selection(config)).rules


def test_ignored_rules_never_load(make_project):
    root = make_project(TREE)
    config = Config(include=["**/*.md"], ignore=["GL2", "GL6"])
    engine = Engine(Project(root, config), build_selection(config))
    engine.check_files(sorted(rel for rel in TREE if rel.endswith(".md")), jobs=1)
    loaded = {rule.code for rule in engine.rules}
    assert loaded and not {c for c in loaded if c.startswith(("GL2", "GL6"))}


def test_a_python_file_outside_the_drivers_loads_no_smoke_rule(make_project):
    root = make_project(TREE)
    config = Config(include=["**/*.py"])
    engine = Engine(Project(root, config), build_selection(config))
    assert engine.check_file("lib/util.py") == []
    assert not [rule.code for rule in engine.rules if rule.code.startswith("GL3")]


def corpus_roots() -> list[Path]:
    otel_docs = shared_corpus("opentelemetry-docs", "content", "en", "docs")
    return [*corpus_folders("agent-repos"), otel_docs]


@pytest.mark.slow
@pytest.mark.corpus("agent-repos")
@pytest.mark.corpus("opentelemetry-docs")
@pytest.mark.parametrize("root", corpus_roots(), ids=lambda p: p.name)
def test_index_agrees_with_the_rules_on_the_corpus(root):
    config = Config(include=["**/*.md", "**/*.json"], respect_gitignore=False)
    project = Project(root, config)
    rels = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    seen: Counter = Counter()
    assert contradictions(project, [r for r in rels if r.endswith(SUFFIXES)], seen) == []
    assert seen["out of scope"] > 0 and seen["in scope kinds"] > 0
