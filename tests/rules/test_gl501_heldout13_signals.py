"""GL501's signals from held-out set 13 (docs/PRECISION.md, "Held-out set 12 fixes:
GL501's intent words and nested harness folders"): a folder its sentence says is absent
on purpose ("would go under", "currently empty", "no-ops if missing"), a test run's
coverage report and what a tool "outputs to", a list item labelled "Example:", and an
agent file under a nested `.claude/` that speaks from the folder holding it. Each is
checked on a small real tree, the false case silent and the true one beside it reported.
"""

from __future__ import annotations

import pytest

from guidelint.rules.stale_path.roots import harness_root
from guidelint.rules.stale_path.sentences import not_a_claim
from tests.rules.test_gl501_heldout6_signals import stale


def claim(text: str, path: str) -> bool:
    start = text.index(f"`{path}`")
    return not not_a_claim(text, start, start + len(path) + 2)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        # open-swe's AGENTS.md: the folder is where tests would go, and is empty.
        (
            "- Tests are unit-only by default (`tests/`). Integration tests would go under "
            "`tests/integration_tests/` (currently empty — `make integration_tests` no-ops "
            "if missing).\n",
            "tests/integration_tests/",
        ),
        ("Fixtures would be placed in `tests/fixtures/`.\n", "tests/fixtures/"),
        ("The `data/raw/` folder is still empty.\n", "data/raw/"),
        ("`build/gen/` has not been created yet by any script.\n", "build/gen/"),
        ("`make lint` skips `conf/local.yaml` if absent.\n", "conf/local.yaml"),
        # openai-agents-js' AGENTS.md: a test run's report folder.
        ("- Reports output to `coverage/`.\n", "coverage/"),
        ("The profiler outputs into `prof/run.json`.\n", "prof/run.json"),
        # Roo-Code's rules: a worked example on a file the reader is imagined to have.
        (
            "    - Example: For `src/tests/user.test.ts`, run `cd src && npx vitest run "
            "tests/user.test.ts`\n",
            "src/tests/user.test.ts",
        ),
        ("1. **Example:** `src/app/page.tsx` becomes the `/` route.\n", "src/app/page.tsx"),
        ("- e.g.: `docs/guide/intro.md`\n", "docs/guide/intro.md"),
    ],
)
def test_absent_made_and_example_paths_are_no_claims(text, path):
    assert not claim(text, path)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("Integration tests live under `tests/integration_tests/`.\n", "tests/integration_tests/"),
        ("Example: the setup in `docs/setup.md` is the one to follow.\n", "docs/setup.md"),
        ("See the example in `docs/examples/intro.md`.\n", "docs/examples/intro.md"),
        ("The report template is `templates/report.html`.\n", "templates/report.html"),
        ("Run `scripts/check.sh`; it would fail without a token.\n", "scripts/check.sh"),
    ],
)
def test_what_the_repository_holds_is_still_a_claim(text, path):
    assert claim(text, path)


def test_a_coverage_folder_is_silent_and_a_missing_script_beside_it_reported(tmp_path):
    agents = (
        "# Testing\n\n"
        "- Run `pnpm test:coverage`; open `coverage/lcov-report/index.html`.\n"
        "- The runner is `scripts/run-tests.sh`.\n"
    )
    found = stale(tmp_path, {"AGENTS.md": agents, "scripts/test.sh": "echo\n"})
    assert found == [("AGENTS.md", 4, "scripts/run-tests.sh")]


@pytest.mark.parametrize(
    ("rel", "root"),
    [
        ("demo/.claude/agents/recruiter.md", ["demo"]),
        ("a/b/.cursor/rules/style.mdc", ["a/b"]),
        ("x/.claude/skills/s/.roo/notes.md", ["x/.claude/skills/s"]),
        (".claude/agents/recruiter.md", []),  # the repository's own: its root
        ("docs/claude/agents.md", []),
    ],
)
def test_the_folder_holding_a_nested_harness_folder(rel, root):
    assert harness_root(rel) == root


def test_a_nested_claude_agent_speaks_from_its_project(tmp_path):
    # claude-cookbooks' chief_of_staff_agent: the agent names `scripts/talent_scorer.py`
    # of its own project, while the repository's root has a `scripts/` of its own.
    agent = (
        "# Recruiter\n\n"
        "- Score talent with `scripts/talent_scorer.py`.\n"
        "- Rank with `scripts/ranker.py`.\n"
    )
    files = {
        "scripts/validate.py": "",
        "sdk/pyproject.toml": "[project]\nname = 'sdk'\n",
        "sdk/chief/scripts/talent_scorer.py": "",
        "sdk/chief/.claude/agents/recruiter.md": agent,
    }
    found = stale(tmp_path, files)
    assert found == [("sdk/chief/.claude/agents/recruiter.md", 4, "scripts/ranker.py")]
