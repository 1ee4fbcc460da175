"""GL501's cues from held-out set 14 (docs/PRECISION.md, "Held-out set 14 fixes: GL501's
example labels, linked names and other repositories"): an example that supposes a case
("**Example**: If subtask 1.1 modifies `src/api.js` ..."), a line of good or bad
instances ("✅ **Right**: `scripts/deploy.sh`" beside "❌ **Wrong**: ..."), a link's text
that names its existing target from the target's own folder, a table row or a list of
another repository's paths, and the user's project ("For existing projects: ..."). Each
is checked on a small real tree, the false case silent and the true one beside it reported.
"""

from __future__ import annotations

import pytest

from tests.rules.test_gl501_heldout6_signals import stale
from tests.rules.test_gl501_heldout13_signals import claim


@pytest.mark.parametrize(
    ("text", "path"),
    [
        # claude-task-master's .claude/hamster.md: both files of the supposed case.
        (
            "- **Example**: If subtask 1.1 modifies `src/api.js` and subtask 1.2 modifies "
            "`src/utils.js`, these can run in parallel\n",
            "src/api.js",
        ),
        (
            "- **Example**: If subtask 1.1 modifies `src/api.js` and subtask 1.2 modifies "
            "`src/utils.js`, these can run in parallel\n",
            "src/utils.js",
        ),
        ("Example: when the agent edits `lib/db.ts` it reruns the tests.\n", "lib/db.ts"),
        # SuperClaude's RULES.md: good instances over bad ones.
        (
            "✅ **Right**: `tests/auth.test.js`, `scripts/deploy.sh`, `claudedocs/analysis.md`  \n"
            "❌ **Wrong**: `auth.test.js` next to `auth.js`, `debug.sh` in project root\n",
            "scripts/deploy.sh",
        ),
        (
            "- Good: `docs/api/users.md`\n- Bad: `docs/api/UsersDoc.md`\n",
            "docs/api/users.md",
        ),
        (
            "- Good: `docs/api/users.md`\n- Bad: `docs/api/UsersDoc.md`\n",
            "docs/api/UsersDoc.md",
        ),
        # claude-task-master's README: the user's project.
        (
            "For **existing projects**: You can use `scripts/prd.txt` or migrate.\n",
            "scripts/prd.txt",
        ),
        ("In your own project, add `src/agents/triage.ts`.\n", "src/agents/triage.ts"),
    ],
)
def test_examples_and_the_users_project_are_no_claims(text, path):
    assert not claim(text, path)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        # Past the supposition (its comma), the sentence points at a real file.
        ("- **Example**: if it fails, read `docs/debug.md` first.\n", "docs/debug.md"),
        ("Example: the setup in `docs/setup.md` is the one to follow.\n", "docs/setup.md"),
        # A verdict label alone, no contrasting line near: a claim.
        ("Intro.\n\n**Correct**: `src/api/client.ts`\n\nMore prose.\n", "src/api/client.ts"),
        # Words between the label and the path: the line says where something is.
        (
            "✅ **Right**: the client is in `src/api/client.ts`\n❌ **Wrong**: `api.ts`\n",
            "src/api/client.ts",
        ),
        # The path named before the user's project is this repository's.
        ("Copy `templates/agent.md` into your project.\n", "templates/agent.md"),
        ("In your repo, run `scripts/bootstrap.sh`.\n", "scripts/bootstrap.sh"),
        # payload's template README: "your app" is the template, this tree.
        (
            "If you are hosting your app elsewhere, remove `no-store` in `./src/app/_api`.\n",
            "./src/app/_api",
        ),
    ],
)
def test_what_the_repository_holds_is_still_a_claim(text, path):
    assert claim(text, path)


def test_a_link_text_named_from_its_targets_folder(tmp_path):
    # langfuse's code-review skill runs the security-review skill's checklist, naming it
    # as that skill names it; a name the target does not end with is still reported.
    skill = (
        "# Code review\n\n"
        "Run its [`references/checklist.md`](../security-review/references/checklist.md).\n"
        "Then [`references/rules.md`](../security-review/references/checklist.md).\n"
        "And [`references/gone.md`](../security-review/references/gone.md).\n"
    )
    files = {
        "skills/code-review/SKILL.md": skill,
        "skills/code-review/references/style.md": "",
        "skills/security-review/SKILL.md": "# Security\n",
        "skills/security-review/references/checklist.md": "",
    }
    found = stale(tmp_path, files)
    assert found == [
        ("skills/code-review/SKILL.md", 4, "references/rules.md"),
        ("skills/code-review/SKILL.md", 5, "references/gone.md"),
    ]


REPOSITORY_MAP = """# Repository map

| Need | Start Here | Then Check |
| --- | --- | --- |
| Product UI | `acme/shop` | `web/src/pages/`, `web/src/old-pages/` |
| JS SDK | `acme/shop-js` | `packages/client`, `packages/core` |

## SDKs

`shop-js`:

- `packages/client`: high-level client.
- `packages/tracing`: tracing wrappers.

`shop-docs`:

- `packages/widgets`: not named in full on this page.
"""


def test_a_repository_maps_rows_and_lists_of_another_repository(tmp_path):
    # langfuse's codebase navigator: rows and short-name lists of langfuse/langfuse-js.
    # The row of this repository (`acme/shop`, the checkout's own name) is checked, and
    # a short name the page never names in full is no other repository's.
    files = {
        "docs/repository-map.md": REPOSITORY_MAP,
        "web/src/pages/index.tsx": "",
        "packages/server/index.ts": "",
    }
    found = stale(tmp_path / "shop", files)
    assert found == [
        ("docs/repository-map.md", 5, "web/src/old-pages/"),
        ("docs/repository-map.md", 17, "packages/widgets"),
    ]


def test_the_users_project_in_a_tools_readme(tmp_path):
    readme = (
        "# Tool\n\n"
        "For **new projects**: Create your PRD at `.tool/docs/prd.txt`.\n"
        "For **existing projects**: You can use `scripts/prd.txt`.\n"
        "Our release script is `scripts/release.sh`.\n"
    )
    found = stale(tmp_path, {"README.md": readme, "scripts/build.sh": "", ".tool/x.json": ""})
    assert found == [("README.md", 5, "scripts/release.sh")]


def test_the_project_a_documented_command_works_on(tmp_path):
    # mcp-agent's migration agent: run with `--project-path ./src`, it "Updates
    # `src/types/database.ts`" of the reader's project. A folder the command's working
    # folder has (`./app`, beside the README) is this tree's, and is still checked.
    readme = (
        "# Migration agent\n\n"
        "```bash\npython main.py --repo personal-proj --project-path ./src\n"
        "python main.py --project-path=app\n```\n\n"
        "The agent automatically:\n\n"
        "- Updates `src/types/database.ts` with the new interface\n"
        "- Rewrites `app/routes/gone.ts`\n"
    )
    files = {
        "agents/migrate/README.md": readme,
        "agents/migrate/app/main.ts": "",
        "src/types/index.ts": "",
    }
    found = stale(tmp_path, files)
    assert found == [("agents/migrate/README.md", 11, "app/routes/gone.ts")]


def test_a_workflow_table_naming_actions_is_still_checked(tmp_path):
    # An Action this repository's workflows use, or a row that calls it one, is no
    # repository whose files the row lists.
    table = (
        "# CI\n\n"
        "| Step | Uses | Workflow |\n| --- | --- | --- |\n"
        "| Checkout | `actions/checkout` | `.github/workflows/gone.yml` |\n"
        "| Build | the `octo/build-js` action | `.github/workflows/build-old.yml` |\n"
    )
    files = {
        "docs/ci.md": table,
        ".github/workflows/ci.yml": "jobs:\n  a:\n    steps:\n      - uses: actions/checkout@v4\n",
    }
    found = stale(tmp_path, files)
    assert found == [
        ("docs/ci.md", 5, ".github/workflows/gone.yml"),
        ("docs/ci.md", 6, ".github/workflows/build-old.yml"),
    ]


def test_a_row_names_a_repository_only_in_a_cell_of_its_own(tmp_path):
    # A folder in a cell's prose (`.claude-plugin/tests`, no owner starts with a dot) or
    # an `owner/name` inside a sentence is no map of repositories.
    table = (
        "# Layout\n\n"
        "| Area | Now | Target |\n| --- | --- | --- |\n"
        "| Tests (`.claude-plugin/tests`) | `kit/tests/` | `plugins/kit/tests/` |\n"
        "| Docs from `octo/docs` | `kit/docs/` | `plugins/kit/docs/` |\n"
    )
    files = {"docs/layout.md": table, "plugins/kit/README.md": ""}
    found = stale(tmp_path, files)
    assert found == [
        ("docs/layout.md", 5, "plugins/kit/tests/"),
        ("docs/layout.md", 6, "plugins/kit/docs/"),
    ]
