"""The example workspace shows the tool findings without --live, and check stays light."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from guidelint.check import CheckOptions, run_check

WORKSPACE = Path(__file__).parents[2] / "examples/workspace"


def test_example_workspace_shows_the_renamed_tool_and_the_bad_ask_entry():
    report = run_check(CheckOptions(paths=[WORKSPACE], select=["GL1"], use_cache=False))
    got = [(f.path, f.code, f.message) for f in report.findings]
    assert got == [
        (
            ".claude/settings.json",
            "GL106",
            "ask: `mcp__lab__job_kill`: server `lab` has no tool `job_kill` (did you mean "
            "`mcp__lab__job_cancel` or `mcp__lab__job_status` or `mcp__lab__job_submit`?)",
        ),
        (
            "docs/WORKSPACES.md",
            "GL101",
            "server `lab` has no tool `job_get_status` (did you mean `job_status`?) "
            "[--unsafe-fixes: rewrite `mcp__lab__job_get_status` to the closest tool "
            "`mcp__lab__job_status`]",
        ),
    ]


def test_plain_check_imports_no_mcp_sdk():
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from guidelint.check import CheckOptions, run_check\n"
        f"run_check(CheckOptions(paths=[Path({str(WORKSPACE)!r})], use_cache=False))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'anyio', 'httpx2')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.strip() == "[]"


def test_unsafe_fixes_rewrite_the_renamed_tool_and_only_with_the_flag(tmp_path):
    import shutil

    copy = tmp_path / "workspace"
    shutil.copytree(WORKSPACE, copy, ignore=shutil.ignore_patterns("workspaces"))
    guide = copy / "docs/WORKSPACES.md"
    before = guide.read_text()
    run_check(CheckOptions(paths=[copy], select=["GL1"], fix=True, use_cache=False))
    assert guide.read_text() == before  # the rewrite is unsafe: --fix alone keeps it
    report = run_check(
        CheckOptions(paths=[copy], select=["GL1"], fix=True, unsafe_fixes=True, use_cache=False)
    )
    assert guide.read_text() == before.replace("mcp__lab__job_get_status", "mcp__lab__job_status")
    assert [f.code for f in report.findings] == ["GL106"]  # the ask entry has no single fix
