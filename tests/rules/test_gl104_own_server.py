"""GL104 and the project's own MCP server (payload's `payload` at a local URL): its tool
list comes from running the project, so a bare name in a tool context that resembles
no known tool may be one of its tools and is not reported; a near miss of a known
tool still is. Without such a server the same name is reported."""

from __future__ import annotations

import json
from pathlib import Path

from guidelint.check import CheckOptions, run_check

LAB_TOOLS = {
    "tools": [
        {"name": "job_submit", "inputSchema": {"type": "object"}},
        {"name": "job_status", "inputSchema": {"type": "object"}},
    ]
}
GUIDE = "# Tools\n\nCall the `verify` tool, then the `job_sumbit` tool.\n"


def project(root: Path, own_server: bool) -> Path:
    servers: dict[str, dict[str, str]] = {"lab": {"command": "lab-mcp"}}
    if own_server:
        servers["app"] = {"type": "http", "url": "http://localhost:3000/api/mcp"}
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    (root / ".guidelint" / "tools").mkdir(parents=True)
    (root / ".guidelint" / "tools" / "lab.json").write_text(json.dumps(LAB_TOOLS))
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text(GUIDE)
    return root


def reported_names(root: Path) -> list[str]:
    report = run_check(CheckOptions(paths=[root], select=["GL104"], use_cache=False))
    return [f.message.split("`")[1] for f in report.findings]


def test_a_name_like_no_known_tool_may_be_the_own_servers(tmp_path):
    assert reported_names(project(tmp_path, own_server=True)) == ["job_sumbit"]


def test_without_an_own_server_the_unknown_name_is_reported(tmp_path):
    assert reported_names(project(tmp_path, own_server=False)) == ["verify", "job_sumbit"]
