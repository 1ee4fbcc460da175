"""Pre-merge correctness: `--since` and the pre-commit hook report every file whose
findings rest on a changed file, the same findings a full check gives there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO, run_cli, write_tree

WORKSPACE = REPO / "examples/workspace"
SNAPSHOT = ".guidelint/tools/lab.json"


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t", *args],
        check=True,
        capture_output=True,
    )


def committed(root: Path) -> Path:
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    return root


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(WORKSPACE, root, ignore=shutil.ignore_patterns(".guidelint_cache"))
    (root / ".gitignore").write_text(".guidelint_cache/\n", encoding="utf-8")
    return committed(root)


def findings(root: Path, *args: str) -> tuple[list[tuple], int]:
    """(findings as (path, line, code, message), files checked) of a JSON check."""
    result = run_cli("check", "--format", "json", *args, cwd=root)
    assert result.returncode in (0, 1), result.stderr
    data = json.loads(result.stdout)
    found = [(f["path"], f["line"], f["code"], f["message"]) for f in data["findings"]]
    return sorted(found), data["summary"]["files_checked"]


def rename_tool(root: Path, old: str, new: str) -> None:
    """What a server-side rename does once `guidelint tools snapshot` refreshed it."""
    path = root / SNAPSHOT
    data = json.loads(path.read_text(encoding="utf-8"))
    for tool in data["tools"]:
        if tool["name"] == old:
            tool["name"] = new
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


@pytest.mark.parametrize("cache", [True, False], ids=["cache", "no-cache"])
def test_a_refreshed_snapshot_reaches_every_file_that_names_its_tools(workspace, cache):
    flags = [] if cache else ["--no-cache"]
    findings(workspace, *flags)  # a warm cache must not hide the change either
    rename_tool(workspace, "job_submit", "job_start")
    full, _ = findings(workspace, "--no-cache")
    new = [f for f in full if "job_submit" in f[3]]
    assert len(new) >= 3  # the guides and settings that name mcp__lab__job_submit
    since, checked = findings(workspace, "--since", "HEAD", *flags)
    assert checked > 1
    assert set(new) <= set(since)
    by_path = {f[0] for f in since}
    assert since == [f for f in full if f[0] in by_path]


@pytest.mark.parametrize("cache", [True, False], ids=["cache", "no-cache"])
def test_a_deleted_snapshot_reaches_the_server_entry_that_needs_it(workspace, cache):
    flags = [] if cache else ["--no-cache"]
    findings(workspace, *flags)
    (workspace / SNAPSHOT).unlink()
    full, _ = findings(workspace, "--no-cache")
    unlisted = [f for f in full if f[2] == "GL110"]
    assert [f[0] for f in unlisted] == [".mcp.json"]  # no tool list for `lab` now
    since, _ = findings(workspace, "--since", "HEAD", *flags)
    assert set(unlisted) <= set(since)


def test_since_reports_a_file_that_links_into_a_changed_file(make_project):
    root = make_project(
        {
            "docs/a.md": "# A\n\nSee [setup](b.md#setup).\n",
            "docs/b.md": "# B\n\n## Setup\n",
            "docs/c.md": "# C\n\nNothing here.\n",
        }
    )
    committed(root)
    (root / "docs/b.md").write_text("# B\n\n## Installing\n", encoding="utf-8")
    since, checked = findings(root, "--since", "HEAD")
    assert checked == 2  # b.md itself, and a.md that links into it; not c.md
    assert [(f[0], f[2]) for f in since] == [("docs/a.md", "GL502")]


def test_since_reports_files_whose_path_was_deleted_or_added(make_project):
    root = make_project(
        {
            "docs/a.md": "# A\n\nRead `data/train.csv`.\n",
            "docs/b.md": "# B\n",
            "data/train.csv": "a,b\n",
            "data/test.csv": "a,b\n",
        }
    )
    committed(root)
    (root / "data/train.csv").unlink()
    since, checked = findings(root, "--since", "HEAD")
    assert checked == 1 and [(f[0], f[2]) for f in since] == [("docs/a.md", "GL501")]


def test_since_reads_non_ascii_file_names(make_project):
    name = "docs/caf\u00e9 \U0001f4d8 notes.md"
    root = make_project({name: "# Notes\n", "docs/b.md": "# B\n"})
    committed(root)
    (root / name).write_text("# Notes\n\nSee [b](b.md#nowhere).\n", encoding="utf-8")
    since, checked = findings(root, "--since", "HEAD")
    assert checked == 1 and [(f[0], f[2]) for f in since] == [(name, "GL502")]
    untracked = "docs/\u65e5\u672c.md"
    (root / untracked).write_text("# New\n\nSee [b](b.md#none).\n", encoding="utf-8")
    since, _ = findings(root, "--since", "HEAD")
    assert {f[0] for f in since} == {name, untracked}


def test_a_changed_configuration_reaches_every_file(make_project):
    root = make_project({"docs/a.md": "# A\n", "docs/b.md": "# B\n"}, config="")
    committed(root)
    (root / "pyproject.toml").write_text("[tool.guidelint]\njobs = 1\n", encoding="utf-8")
    assert findings(root, "--since", "HEAD")[1] == 2


def test_dependents_takes_the_given_paths_as_the_change(workspace):
    rename_tool(workspace, "job_submit", "job_start")
    full, _ = findings(workspace, "--no-cache")
    given, checked = findings(workspace, "--dependents", SNAPSHOT)
    assert checked > 1 and given == [f for f in full if f[0] in {g[0] for g in given}]
    assert any("job_submit" in f[3] for f in given)


def _hook_config() -> dict:
    """The repository's own hook, as a local hook running this checkout."""
    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    entry = hook["entry"].replace("guidelint", f"{sys.executable} -m guidelint", 1)
    # This checkout's environment already has the extras the hook would install.
    hook.pop("additional_dependencies", None)
    local = {**hook, "entry": entry, "language": "system"}
    return {"repos": [{"repo": "local", "hooks": [local]}]}


@pytest.mark.slow
def test_the_pre_commit_hook_reports_the_guides_a_snapshot_refresh_breaks(workspace, tmp_path):
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    if pre_commit is None:
        pytest.skip("pre-commit is not installed (it is in the dev extra)")
    write_tree(workspace, {".pre-commit-config.yaml": yaml.safe_dump(_hook_config())})
    git(workspace, "add", ".pre-commit-config.yaml")
    git(workspace, "commit", "-qm", "hook")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "PYTHONPATH": str(REPO),
    }

    def run_hook() -> subprocess.CompletedProcess:
        return subprocess.run(
            [pre_commit, "run"], cwd=workspace, capture_output=True, text=True, env=env
        )

    rename_tool(workspace, "job_submit", "job_start")
    git(workspace, "add", SNAPSHOT)  # only the snapshot is staged, so only it is passed
    result = run_hook()
    assert result.returncode == 1, result.stdout + result.stderr
    assert "GL101" in result.stdout and "job_submit" in result.stdout
    assert "docs/" in result.stdout
    # An edit nothing else rests on is that file alone (the example's own findings
    # elsewhere stay out of it).
    rename_tool(workspace, "job_start", "job_submit")
    (workspace / "docs/NEW.md").write_text("# New\n\nAll fine.\n", encoding="utf-8")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-qm", "a new page")
    (workspace / "docs/NEW.md").write_text("# New\n\nStill fine.\n", encoding="utf-8")
    git(workspace, "add", "docs/NEW.md")
    result = run_hook()
    assert result.returncode == 0, result.stdout + result.stderr
