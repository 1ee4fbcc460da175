"""Which files the MCP hygiene rules (GL609, GL614, GL617, GL618) read as server files:
the project's `.mcp.json`, a plugin's, every harness's, but not a `.mcp.json` that no
harness loads (a test fixture, an example)."""

from __future__ import annotations

from pathlib import Path

from guidelint.check import CheckOptions, run_check
from tests.conftest import write_tree

SSE = {"remote": {"type": "sse", "url": "https://example.com/stream"}}
HOME = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem@1.0.0", "~"]}


def _found(root: Path) -> list[tuple[str, str]]:
    rules = ["GL609", "GL614", "GL617", "GL618"]
    report = run_check(CheckOptions(paths=[root], select=rules, use_cache=False))
    return sorted((f.path, f.code) for f in report.findings)


def test_a_plugin_s_server_file_is_read_and_a_fixture_is_not(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "plugins/remote/.claude-plugin/plugin.json": {"name": "remote"},
            "plugins/remote/.mcp.json": SSE,
            "tools/review/.claude-plugin/plugin.json": {"name": "review"},
            "tools/review/.mcp.json": {"mcpServers": {"files": HOME}},
            "tests/fixtures/mcp-file/.mcp.json": SSE,
        },
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.guidelint]\nextend-include = ["**/.mcp.json"]\n', encoding="utf-8"
    )
    assert _found(tmp_path) == [
        ("plugins/remote/.mcp.json", "GL618"),
        ("tools/review/.mcp.json", "GL617"),
    ]


def test_settings_and_harness_files_are_read(tmp_path: Path) -> None:
    unpinned = {"command": "uvx", "args": ["mcp-server-git"]}
    write_tree(
        tmp_path,
        {
            ".claude/settings.json": {"mcpServers": {"git": unpinned}},
            ".gemini/settings.json": {"mcpServers": {"tracker": {"url": "https://t.dev/sse"}}},
            ".vscode/mcp.json": {"servers": {"files": {**HOME, "args": [*HOME["args"][:2], "/"]}}},
        },
    )
    assert _found(tmp_path) == [
        (".claude/settings.json", "GL614"),
        (".gemini/settings.json", "GL618"),
        (".vscode/mcp.json", "GL617"),
    ]
