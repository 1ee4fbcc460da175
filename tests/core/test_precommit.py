"""The pre-commit hook guidelint offers (.pre-commit-hooks.yaml), run by the real tool.

`pre-commit try-repo` installs guidelint from this repository (uncommitted changes
included) into an environment of its own, as a user's `repo:` entry would, with
the hook's additional_dependencies, then runs it on a git repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from guidelint.config import tomllib  # tomli on Python 3.10

REPO = Path(__file__).parents[2]
HOOKS = REPO / ".pre-commit-hooks.yaml"


def _hook() -> dict:
    import yaml  # pre-commit's own dependency

    (hook,) = yaml.safe_load(HOOKS.read_text())
    return hook


def test_the_hook_brings_the_smoke_and_lint_extras():
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert sorted(_hook()["additional_dependencies"]) == sorted(extras["smoke"] + extras["lint"])


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=ci@example.org", "-c", "user.name=ci", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.mark.slow  # pre-commit builds the hook's environment (pip, from the index)
def test_pre_commit_runs_the_hook_with_every_check_rule(tmp_path):
    workspace = tmp_path / "workspace"
    shutil.copytree(REPO / "examples" / "workspace", workspace)
    _git(workspace, "init", "-q")
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-q", "-m", "workspace")
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "guidelint", "--all-files"],
        cwd=workspace,
        capture_output=True,
        text=True,
        env={**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")},
    )
    output = done.stdout + done.stderr
    assert done.returncode == 1, output  # the example workspace has defects on purpose
    assert "guidelint....." in output and "Failed" in output
    # The driver rule ran (libcst is in the hook's environment), and no rule crashed
    # or went without its extra.
    assert "scripts/smoke_distill.py:38:5: GL301 realized n=1 row" in output
    assert "GL000" not in output and "not installed" not in output


@pytest.mark.slow  # the real pre-commit tool runs the hook
def test_a_file_named_like_an_option_is_a_file_to_the_hook(tmp_path):
    """pre-commit appends the file names to the hook's command: a pull request that
    commits a top-level file named `--exit-zero` (or `--ignore=GL`, `--fix`) turned
    it into an option, and the hook passed over a stale path. The hook's default
    `args` end the options (`--`), so every name after them is a file. Run by the
    real tool, as a local hook with this hook's entry, args and file types (the
    `guidelint` of this environment in place of an installed one)."""
    import yaml

    hook = _hook()
    program, *rest = hook["entry"].split()
    guidelint = Path(sys.executable).parent / program
    local = {
        "id": hook["id"],
        "name": hook["name"],
        "entry": " ".join([str(guidelint), *rest]),
        "language": "system",
        "types": hook["types"],
        "pass_filenames": hook["pass_filenames"],
        "require_serial": hook["require_serial"],  # one command line with every file
        "args": hook.get("args", []),
    }
    config = {"repos": [{"repo": "local", "hooks": [local]}]}
    project = tmp_path / "project"
    (project / "docs").mkdir(parents=True)
    (project / "scripts").mkdir()
    (project / "scripts" / "ok.py").write_text("")
    (project / "pyproject.toml").write_text("[tool.guidelint]\n")
    (project / "docs" / "a.md").write_text("# A\n\nRun `scripts/gone.py`.\n")
    for name in ("--exit-zero", "--ignore=GL"):
        (project / name).write_text("a file, not an option\n")
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files"],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")},
    )
    output = done.stdout + done.stderr
    assert done.returncode == 1 and "Failed" in output, output
    assert "docs/a.md:3:5: GL501 `scripts/gone.py` does not exist" in output
