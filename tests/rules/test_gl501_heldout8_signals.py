"""GL501's signals from held-out set 8 (docs/PRECISION.md, "Held-out set 8 fixes:
GL501"): a design document is history; an unchecked task of a plan names a file to be
made; a run's results "will be in" a folder; a folder symlinked in from outside
(`ln -s`); a sample row of a table given as a format to follow; a note that a folder
was deleted or is being relocated; a module named from a src-layout package without
its `.py`. Each is checked on a small real tree, the false case silent and the true
one beside it reported.
"""

from __future__ import annotations

import pytest

from guidelint.doc_kind import history_by_path, history_by_text
from guidelint.rules.stale_path.sentences import not_a_claim
from tests.rules.test_gl501_heldout6_signals import stale  # noqa: E402


def claim(text: str, path: str) -> bool:
    start = text.index(f"`{path}`")
    return not not_a_claim(text, start, start + len(path) + 2)


# A small repository: `server/` and `server/routes/` exist, so paths under them anchor.
TREE = {
    "server/__init__.py": "",
    "server/routes/user.py": "",
    "server/telemetry_old.py": "",
}


@pytest.mark.parametrize(
    "rel",
    [
        "enterprise/doc/design-doc/telemetry.md",
        "docs/design/cache.md",
        "docs/proposal/sharding.md",
        "docs/telemetry-design.md",
        "packages/sdk/SDK_DESIGN.md",
        "packages/server/extension-rfc.md",
    ],
)
def test_design_documents_by_folder_and_name_are_history(rel):
    assert history_by_path(rel)


@pytest.mark.parametrize("rel", ["DESIGN.md", "docs/designer.md", "docs/redesign-notes.md"])
def test_a_design_guide_named_alone_is_not_history_by_name(rel):
    # `DESIGN.md` at a root is often the project's design principles, which steer.
    assert history_by_path(rel) is None


def test_design_document_sections_make_history():
    text = "# Telemetry\n\n## 1.2 Proposed Solution\n\nx\n\n## 5. Implementation Plan\n\ny\n"
    assert history_by_text(text)
    # One such section alone is not enough: a guide may have an "Open Questions" part.
    assert history_by_text("# Guide\n\n## Open Questions\n\nNone.\n") is None


def test_a_design_document_is_read_only_as_history(tmp_path):
    plan = (
        "# Telemetry service\n\n## Problem Statement\n\nx\n\n## Implementation Plan\n\n"
        "Add the collector in `server/telemetry/collector.py`.\n"
    )
    assert stale(tmp_path, {**TREE, "server/plan.md": plan}) == []


@pytest.mark.parametrize(
    "line",
    [
        "- [ ] `server/telemetry/collector.py`",
        "- [ ] **`server/telemetry/collector.py`**",
        "1. [ ] Create `server/telemetry/collector.py` with the base class",
        "- [ ] Add tests in `server/telemetry/test_collector.py`",
    ],
)
def test_an_unchecked_task_names_a_file_to_be_made(line):
    assert not claim(line + "\n", line.split("`")[1])


@pytest.mark.parametrize(
    "line",
    [
        "- [x] `server/telemetry/collector.py`",  # done: the file must now exist
        "- [ ] Fix the flaky test in `server/telemetry/test_collector.py`",
        "- `server/telemetry/collector.py`",
    ],
)
def test_a_done_task_or_a_plain_item_still_claims_the_path(line):
    assert claim(line + "\n", line.split("`")[1])


def test_a_plan_checklist_in_a_guide_is_silent_and_a_stale_path_beside_it_reported(tmp_path):
    guide = (
        "# Telemetry\n\n"  # a guide: no design-document sections, no history folder
        "The routes live in `server/routes/users.py`.\n\n"
        "- [ ] `server/telemetry/collector.py`\n"
        "- [x] `server/telemetry/registry.py`\n"
    )
    assert stale(tmp_path, {**TREE, "server/README.md": guide}) == [
        ("server/README.md", 3, "server/routes/users.py"),
        ("server/README.md", 6, "server/telemetry/registry.py"),
    ]


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("Results will be in `server/eval_outputs/miniwob/`\n", "server/eval_outputs/miniwob/"),
        ("The outputs are written to `server/runs/x/`.\n", "server/runs/x/"),
        (
            "The `specs/` and `server/docs/` directories are symlinked from external locations.\n",
            "server/docs/",
        ),
        (
            "- The legacy `server/interfaces/agui/` implementation was fully\n"
            "  consumed or deleted; no listener was left behind.\n",
            "server/interfaces/agui/",
        ),
        (
            "- `server/surrealdb/` files are being relocated to `integrations/` "
            "— skip if still present.\n",
            "server/surrealdb/",
        ),
    ],
)
def test_made_gone_and_symlinked_paths_are_no_claims(text, path):
    assert not claim(text, path)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        (
            "Note: the toolkit example lives at `server/tools/antigravity.py` and is "
            "tracked in that folder's log.\n",
            "server/tools/antigravity.py",
        ),
        ("   - Basic usage: `server/embedders/vllm.py`\n", "server/embedders/vllm.py"),
        ("`server/x.py` holds the handlers that were removed from the API.\n", "server/x.py"),
        # Gone, but not called old: a steering file that names it still sends readers there.
        (
            "The `server/scss/` folder has been removed. All tokens now live in `server/css/`.\n",
            "server/scss/",
        ),
    ],
)
def test_where_a_file_lives_now_is_still_a_claim(text, path):
    assert claim(text, path)


def test_a_folder_a_fence_symlinks_in_is_silent(tmp_path):
    agents = (
        "# Agents\n\n## Setting up\n\nThe private notes live in `notes/`:\n\n"
        "```bash\nln -s ~/code/notes notes\n```\n\n"
        "The old guide is `server/guide/`.\n"
    )
    assert stale(tmp_path, {**TREE, "AGENTS.md": agents}) == [
        ("AGENTS.md", 11, "server/guide/"),
    ]


def test_sample_rows_of_a_table_given_as_a_format(tmp_path):
    prompt = (
        "# Test prompt\n\n4. Results table in this format:\n\n"
        "| Subdirectory | File | Status |\n|---|---|---|\n"
        "| `server/factual` | `factual.py` | PASS |\n\n"
        "The runner is `server/run_all.py`.\n\n"
        "| Folder | Holds |\n|---|---|\n| `server/handlers/` | the handlers |\n"
    )
    assert stale(tmp_path, {**TREE, "server/TEST_PROMPT.md": prompt}) == [
        ("server/TEST_PROMPT.md", 9, "server/run_all.py"),
        ("server/TEST_PROMPT.md", 13, "server/handlers/"),
    ]


def test_a_module_named_from_a_src_package_without_its_suffix(tmp_path):
    files = {
        "src/kit/__init__.py": "",
        "src/kit/utils/torch_utils.py": "",
        "utils/check_copies.py": "",  # the repository's own `utils/`: the paths anchor
        ".ai/references/modular.md": (
            "# Modular\n\nUse `randn_tensor(...)` from `utils/torch_utils`.\n"
            "The helpers are in `utils/tensor_helpers`.\n"
        ),
    }
    assert stale(tmp_path, files) == [(".ai/references/modular.md", 4, "utils/tensor_helpers")]
