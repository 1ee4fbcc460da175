"""GL501's signals from held-out set 6 (docs/PRECISION.md, "Held-out set 6 fixes:
GL501"): a naming table of git branches, a path said not to be shipped yet, the
repository's own name as a prefix, a path written from a src-layout package's root, a
program a build writes, and a script a sentence says to run (which it does not make).
Each is checked on a small real tree, the false case silent and the true one reported.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check
from guidelint.rules.stale_path.conventions import branch_prefix
from guidelint.rules.stale_path.sentences import not_a_claim, said_made, said_not_shipped
from guidelint.spans import Span
from tests.conftest import write_tree


def stale(root: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    write_tree(root, files)
    report = run_check(CheckOptions(paths=[root], select=["GL501"], use_cache=False))
    return sorted((f.path, f.line, f.message.split("`")[1]) for f in report.findings)


def span_of(text: str, needle: str) -> tuple[int, int]:
    start = text.index(f"`{needle}`")
    return start, start + len(needle) + 2


BRANCH_TABLE = (
    "## Branches\n\nName each branch `<type>/<number>-<slug>`.\n\n"
    "| Prefix | When to use | Example |\n|---|---|---|\n"
    "| `feat/` | New features | `feat/2342-cli` |\n"
    "| `spike/` | Experiments | `spike/12-try-rust` |\n"
)


@pytest.mark.parametrize("prefix", ["feat/", "spike/"])
def test_a_branch_prefix_in_a_table_of_branch_names(prefix):
    start, end = span_of(BRANCH_TABLE, prefix)
    assert branch_prefix(prefix, BRANCH_TABLE, Span(start, end))


def test_a_folder_with_no_branch_talk_is_no_branch_prefix():
    text = "## Layout\n\n| Folder | Holds |\n|---|---|\n| `feat/` | features, e.g. `feat/x.py` |\n"
    start, end = span_of(text, "feat/")
    assert not branch_prefix("feat/", text, Span(start, end))


def test_branch_prefixes_are_silent_and_a_missing_folder_beside_them_is_reported(tmp_path):
    table = BRANCH_TABLE + "\nThe branch policy lives in `scripts/branches.md`.\n"
    findings = stale(tmp_path, {"AGENTS.md": table, "scripts/check.sh": "", "feat.md": ""})
    assert findings == [("AGENTS.md", 10, "scripts/branches.md")]


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("The tools will live under\n`src/kit/tools/`, one file per tool.\n", "src/kit/tools/"),
        (
            "> **Note:** Steps 2 and 3 describe the runtime layer\n"
            "> (`src/kit/tools/`, the registry) which is not part of the layer shipped\n"
            "> today; those modules don't yet exist in the tree.\n",
            "src/kit/tools/",
        ),
    ],
)
def test_a_path_said_not_shipped_yet(text, path):
    start, end = span_of(text, path)
    assert said_not_shipped(text, start, end)
    assert not_a_claim(text, start, end)


def test_a_path_said_to_exist_is_shipped():
    text = "The tools live under `src/kit/tools/`; the layer ships today.\n"
    start, end = span_of(text, "src/kit/tools/")
    assert not said_not_shipped(text, start, end)
    assert not not_a_claim(text, start, end)


def test_a_file_under_a_folder_not_shipped_yet_is_silent_a_shipped_one_reported(tmp_path):
    guide = (
        "# Tools\n\n"
        "> **Note:** the runtime layer (`src/kit/tools/`) is not part of the layer shipped\n"
        "> today; those modules don't yet exist.\n\n"
        "### Step 3\n\nAdd to `src/kit/tools/registry.py`:\n\n"
        "The catalog is read by `src/kit/catalog.py`.\n"
    )
    findings = stale(tmp_path, {"docs/tools.md": guide, "src/kit/schema.py": ""})
    assert findings == [("docs/tools.md", 10, "src/kit/catalog.py")]


def test_a_script_run_to_generate_something_is_not_made_by_the_sentence():
    text = "- Run the `scripts/meta.sh` script to generate all relevant metadata\n"
    start, end = span_of(text, "scripts/meta.sh")
    assert not said_made(text, start, end)
    assert not not_a_claim(text, start, end)
    made = "- The setup script generates `scripts/meta.sh` on first use\n"
    start, end = span_of(made, "scripts/meta.sh")
    assert said_made(made, start, end)


def test_a_command_that_runs_a_moved_script_is_reported(tmp_path):
    command = "# Handoff\n\n- Run the `scripts/meta.sh` script to generate the metadata\n"
    files = {".claude/commands/handoff.md": command, "hack/meta.sh": "", "scripts/a.sh": ""}
    assert stale(tmp_path, files) == [(".claude/commands/handoff.md", 3, "scripts/meta.sh")]


def test_the_repository_name_as_a_prefix_names_its_own_folder(tmp_path):
    readme = (
        "# Docs\n\nChange the docs in the `kit/docs` folder.\n"
        "The package's own notes are in `kit/notes`.\n"
    )
    files = {
        "docs/README.md": readme,
        "docs/index.md": "",
        "kit/__init__.py": "",
        "pyproject.toml": '[project]\nname = "kit"\n',
    }
    assert stale(tmp_path, files) == [("docs/README.md", 4, "kit/notes")]


def test_a_module_path_written_from_the_src_package_root(tmp_path):
    agents = (
        "# Agents\n\n- Reuse the flags in `utils/import_utils.py`.\n"
        "- The release script is `utils/publish.sh`.\n"
    )
    files = {
        "AGENTS.md": agents,
        "utils/build.sh": "",
        "src/kit/__init__.py": "",
        "src/kit/utils/import_utils.py": "",
        "lib/other/utils/publish.sh": "",
    }
    assert stale(tmp_path, files) == [("AGENTS.md", 4, "utils/publish.sh")]


def test_programs_a_go_module_builds_are_silent_a_missing_script_is_not(tmp_path):
    guide = (
        "# Development\n\n| Component | Nightly | Dev |\n|---|---|---|\n"
        "| Daemon Binary | `hld/hld-nightly` | `hld/hld-dev` |\n"
        "| Launcher | `hld/start` | `hld/run.go` |\n"
    )
    files = {"DEVELOPMENT.md": guide, "hld/go.mod": "module hld\n", "hld/main.go": ""}
    found = stale(tmp_path, files)
    assert found == [("DEVELOPMENT.md", 6, "hld/run.go"), ("DEVELOPMENT.md", 6, "hld/start")]


def test_a_program_a_makefile_writes_with_dash_o(tmp_path):
    guide = "# Run\n\nStart `tools/daemon-nightly`; its code is `tools/daemon.go`.\n"
    makefile = "nightly:\n\tcd tools && go build -o daemon-nightly ./cmd/daemon\n"
    files = {"README.md": guide, "Makefile": makefile, "tools/main.go": ""}
    assert stale(tmp_path, files) == [("README.md", 3, "tools/daemon.go")]


def test_files_named_in_a_folder_said_to_be_made_are_still_reported(tmp_path):
    skill = (
        "# Skill\n\n**Fix:** Create a `references/` directory and move material there:\n"
        "- Rubrics → `references/rubrics.md`\n- Extended examples → `references/examples.md`\n"
    )
    files = {"skills/eval/SKILL.md": skill, "skills/eval/references/rubrics.md": ""}
    assert stale(tmp_path, files) == [("skills/eval/SKILL.md", 5, "references/examples.md")]
