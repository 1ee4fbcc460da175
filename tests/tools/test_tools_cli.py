"""`guidelint tools snapshot | list | diff`, against the fault server in its good mode."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from click.testing import CliRunner

from guidelint.commands.cli import main

FAULT = str(Path(__file__).parents[1] / "fixtures/tools/fault_server.py")
WORKSPACE = Path(__file__).parents[2] / "examples/workspace"


def project(tmp_path: Path, mode: str = "normal") -> Path:
    (tmp_path / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"lab": {"command": sys.executable, "args": [FAULT, mode]}}})
    )
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/guide.md").write_text(
        "# Jobs\n\nSubmit with `job_submit`.\nPoll with `mcp__lab__job_get_status`.\n"
    )
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude/settings.json").write_text(
        json.dumps({"permissions": {"allow": ["mcp__lab__job_get_status"]}}, indent=2)
    )
    return tmp_path


def invoke(*args: str):
    return CliRunner().invoke(main, ["tools", *args], catch_exceptions=False)


def test_snapshot_writes_wire_format_and_list_reads_it(tmp_path):
    root = project(tmp_path)
    result = invoke("snapshot", str(root))
    assert result.exit_code == 0, result.output
    assert "wrote .guidelint/tools/lab.json: 2 tools, 1 prompts, 0 resources" in result.output
    data = json.loads((root / ".guidelint/tools/lab.json").read_text())
    assert [t["name"] for t in data["tools"]] == ["job_status", "job_submit"]
    listed = invoke("list", str(root))
    assert listed.exit_code == 0
    assert "lab  (2 tools, from .guidelint/tools/lab.json)" in listed.output
    assert "  mcp__lab__job_submit(workspace, gpu?)" in listed.output


def test_snapshot_of_a_failing_server_exits_2_with_one_line(tmp_path):
    result = invoke("snapshot", str(project(tmp_path, "exit")))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "guidelint: error: lab: the server closed the connection during initialize "
        "(did it exit?); stderr: fault server: cannot open database /nonexistent/lab.db"
    ]
    assert not (tmp_path / ".guidelint").exists()


def test_unknown_server_name_is_a_usage_error(tmp_path):
    result = invoke("snapshot", "--server", "labs", str(project(tmp_path)))
    assert result.exit_code == 2
    assert "no server `labs` is declared (known: lab)" in result.output


def test_diff_lists_changes_and_every_line_naming_a_removed_tool(tmp_path):
    root = project(tmp_path)
    snapshot = root / ".guidelint/tools/lab.json"
    snapshot.parent.mkdir(parents=True)
    snapshot.write_text(
        json.dumps(
            {
                "tools": [
                    {"name": "job_submit", "inputSchema": {"type": "object"}},
                    {"name": "job_get_status", "inputSchema": {"type": "object"}},
                ]
            }
        )
    )
    result = invoke("diff", str(root))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == (
        "lab: added: `job_status`; removed: `job_get_status`; changed: `job_submit`"
    )
    assert '  .claude/settings.json:4: "mcp__lab__job_get_status"' in lines
    assert "  docs/guide.md:4: Poll with `mcp__lab__job_get_status`." in lines


def test_list_of_the_example_workspace_needs_no_server():
    result = invoke("list", "--format", "json", str(WORKSPACE))
    data = json.loads(result.output)
    assert data["servers"]["lab"]["origin"] == ".guidelint/tools/lab.json"
    assert "job_status" in data["servers"]["lab"]["tools"]


def test_list_live_asks_the_server(tmp_path):
    result = invoke("list", "--live", str(project(tmp_path)))
    assert result.exit_code == 0, result.output
    assert "lab  (2 tools, from live)" in result.output
    assert not (tmp_path / ".guidelint").exists()  # listing never writes a snapshot
