"""Tool sources without processes: .mcp.json, configuration, snapshots, built-ins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guidelint.config import ConfigError, load_config
from guidelint.project import Project
from guidelint.tools.builtins import bundled
from guidelint.tools.frontmatter import tool_entries
from guidelint.tools.jsonpos import value_spans
from guidelint.tools.load import build_sources
from guidelint.tools.servers import declared_servers, expand
from guidelint.tools.snapshot import read_snapshot, to_wire

SNAPSHOT = {"tools": [{"name": "job_submit", "inputSchema": {"type": "object"}}]}


def write(root: Path, rel: str, content) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    text = content if isinstance(content, str) else json.dumps(content, indent=2)
    path.write_text(text, encoding="utf-8")
    return path


def project(root: Path) -> Project:
    loaded = load_config(root)
    return Project(loaded.root, loaded.config, loaded.source)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("${HOME_DIR}/bin", "/home/me/bin"),
        ("${MISSING:-fallback}", "fallback"),
        ("${MISSING:-}", ""),
        ("${HOME_DIR:-unused}", "/home/me"),
        ("${MISSING}", "${MISSING}"),  # unset stays literal, as in Claude Code
        ("$HOME_DIR", "$HOME_DIR"),  # bare $VAR never expands
    ],
)
def test_expand_follows_claude_code(value, expected):
    assert expand(value, {"HOME_DIR": "/home/me"}) == expected


def test_mcp_json_stdio_and_http_servers_are_expanded(tmp_path):
    write(
        tmp_path,
        ".mcp.json",
        {
            "mcpServers": {
                "lab": {
                    "command": "${PY:-python}",
                    "args": ["srv.py", "--root=${ROOT}"],
                    "env": {"TOKEN": "${TOKEN:-none}"},
                },
                "remote": {
                    "type": "http",
                    "url": "https://${HOST}/mcp",
                    "headers": {"Authorization": "Bearer ${TOKEN}"},
                },
            }
        },
    )
    specs = declared_servers(
        project(tmp_path), {"ROOT": "/r", "HOST": "h.example", "TOKEN": "t"}
    ).specs
    assert (specs["lab"].type, specs["lab"].command, specs["lab"].args) == (
        "stdio",
        "python",
        ["srv.py", "--root=/r"],
    )
    assert specs["lab"].env == {"TOKEN": "t"}
    assert (specs["remote"].type, specs["remote"].url) == ("http", "https://h.example/mcp")
    assert specs["remote"].headers == {"Authorization": "Bearer t"}
    assert specs["lab"].snapshot == ".guidelint/tools/lab.json"
    lines = (tmp_path / ".mcp.json").read_text().splitlines()
    remote_line = next(i for i, line in enumerate(lines, 1) if '"remote"' in line)
    assert specs["remote"].declared_in == f".mcp.json:{remote_line}"


def test_broken_mcp_json_is_one_problem_with_its_line_number(tmp_path):
    write(tmp_path, ".mcp.json", '{\n  "mcpServers": {\n    "lab": {"command": }\n  }\n}\n')
    declared = declared_servers(project(tmp_path), {})
    assert declared.specs == {}
    assert [str(p) for p in declared.problems] == [".mcp.json:3: not valid JSON (Expecting value)"]


def test_config_servers_override_and_snapshot_only_servers(tmp_path):
    write(tmp_path, ".mcp.json", {"mcpServers": {"lab": {"command": "python"}}})
    write(
        tmp_path,
        "pyproject.toml",
        """
[tool.guidelint.tools]
timeout = 5
fallback-to-snapshot = true
[tool.guidelint.tools.servers.lab]
timeout = 2.5
[tool.guidelint.tools.servers.vendor]
snapshot = "vendor/tools.json"
""",
    )
    write(tmp_path, "vendor/tools.json", SNAPSHOT)
    write(tmp_path, ".guidelint/tools/lonely.json", SNAPSHOT)
    specs = declared_servers(project(tmp_path), {}).specs
    assert (specs["lab"].command, specs["lab"].timeout, specs["lab"].fallback_to_snapshot) == (
        "python",
        2.5,
        True,
    )
    assert not specs["vendor"].startable and specs["vendor"].snapshot == "vendor/tools.json"
    assert specs["lonely"].snapshot == ".guidelint/tools/lonely.json"
    catalog = build_sources(project(tmp_path), live=False).catalog
    assert set(catalog.servers["vendor"].tools) == {"job_submit"}
    assert catalog.servers["lab"].tools is None  # declared, no snapshot: unknown list


def test_unknown_tools_config_key_is_a_config_error(tmp_path):
    write(tmp_path, "pyproject.toml", "[tool.guidelint.tools]\nfallback_to_snaphot = true\n")
    with pytest.raises(ConfigError, match="unknown key 'tools.fallback_to_snaphot'"):
        load_config(tmp_path)


@pytest.mark.parametrize(
    "data",
    [
        SNAPSHOT,
        {"jsonrpc": "2.0", "id": 1, "result": SNAPSHOT},  # a whole response
        SNAPSHOT["tools"],  # a bare list, as some clients export
    ],
)
def test_snapshot_formats(tmp_path, data):
    write(tmp_path, "s.json", data)
    server, problems = read_snapshot(project(tmp_path), "s.json", "lab")
    assert list(server.tools) == ["job_submit"] and server.origin == "s.json"
    assert problems == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "s.json:1: not valid JSON (Expecting property name enclosed in double quotes)"),
        ('{"tools": {}}', "s.json:1: snapshot needs a `tools` list (MCP tools/list result)"),
        ("[" * 300 + "]" * 300, "s.json:1: nested more than 200 levels deep"),
    ],
)
def test_a_broken_snapshot_is_one_problem_and_no_tools(tmp_path, text, message):
    write(tmp_path, "s.json", text)
    server, problems = read_snapshot(project(tmp_path), "s.json", "lab")
    assert server is None
    assert [str(p) for p in problems] == [message]


def test_a_tool_without_a_name_is_left_out_at_its_line(tmp_path):
    write(tmp_path, "s.json", '{"tools": [\n  {"title": "x"},\n  {"name": "job_submit"}\n]}\n')
    server, problems = read_snapshot(project(tmp_path), "s.json", "lab")
    assert list(server.tools) == ["job_submit"]
    assert [str(p) for p in problems] == ["s.json:2: tools[0] has no string `name`; it is ignored"]


def test_snapshot_wire_keeps_known_fields_sorted():
    data = to_wire([{"name": "b", "inputSchema": {}, "ttlMs": 0}, {"name": "a"}], [], [])
    assert data == {"tools": [{"name": "a"}, {"name": "b", "inputSchema": {}}]}


def test_builtins_know_current_aliases_and_retired_names():
    builtins = bundled()
    assert builtins.known("Read") and builtins.known("Task") and not builtins.known("MultiEdit")
    assert "Edit" in builtins.retired_hint("MultiEdit")


def test_json_value_spans_point_at_entries():
    text = '{"permissions": {"ask": ["Read", "mcp__lab__x"]}}'
    spans = value_spans(text)
    span = spans[("permissions", "ask", 1)]
    assert text[span.start : span.end] == '"mcp__lab__x"'
    assert value_spans("{bad") == {}


def test_front_matter_tools_split_outside_parentheses(tmp_path):
    from guidelint.sources import load

    text = "---\nname: a\ntools: Read, Agent(a, b), 'mcp__lab__x'\nallowed-tools:\n  - Grep\n---\n"
    path = write(tmp_path, "a.md", text)
    entries = [(k, n, text[s.start : s.end]) for k, n, s in tool_entries(load(path, "a.md", 10**6))]
    assert entries == [
        ("tools", "Read", "Read"),
        ("tools", "Agent(a, b)", "Agent(a, b)"),
        ("tools", "mcp__lab__x", "mcp__lab__x"),
        ("allowed-tools", "Grep", "Grep"),
    ]


def test_skill_allowed_tools_may_be_space_separated(tmp_path):
    from guidelint.sources import load

    text = "---\nname: s\nallowed-tools: Bash(git diff:*) Read  Grep\n---\n"
    path = write(tmp_path, "SKILL.md", text)
    entries = [
        (n, text[s.start : s.end]) for _, n, s in tool_entries(load(path, "SKILL.md", 10**6))
    ]
    assert entries == [("Bash(git diff:*)", "Bash(git diff:*)"), ("Read", "Read"), ("Grep", "Grep")]


def test_front_matter_tools_skip_comments_and_span_lines(tmp_path):
    from guidelint.sources import load

    text = (
        "---\nname: a\ntools: Bash  # never shell\n"
        "disallowedTools: [\n  Read,\n  mcp__lab__job_kill\n]\n---\n"
    )
    path = write(tmp_path, "a.md", text)
    entries = [(k, n, text[s.start : s.end]) for k, n, s in tool_entries(load(path, "a.md", 10**6))]
    assert entries == [
        ("tools", "Bash", "Bash"),
        ("disallowedTools", "Read", "Read"),
        ("disallowedTools", "mcp__lab__job_kill", "mcp__lab__job_kill"),
    ]
