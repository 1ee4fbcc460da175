"""The example workspace shows the tool findings without --live, and check stays light."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from guidelint.check import CheckOptions, run_check

WORKSPACE = Path(__file__).parent.parent / "examples/workspace"


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
