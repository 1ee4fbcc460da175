"""Hostile tool sources: a broken `.mcp.json` or snapshot is a finding, never exit 2.

Before (issue #14): one malformed server made `check` exit 2 and check nothing else;
a snapshot nested 100k deep gave `tools list` a RecursionError traceback (and every
GL1xx rule a GL000); a 4.8 MB `.mcp.json` of 54,000 servers took 125 s (a line count
from the start of the file per server), a 48 MB one was read whole; tool names
printed raw ANSI escapes and newlines; `tools snapshot` wrote `../../x.json` for a
server named `../../x`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from guidelint.commands.cli import main
from guidelint.config import load_config
from guidelint.project import Project
from guidelint.tools.jsonfile import FileProblem, read_json
from guidelint.tools.jsonpos import KEY, MAX_DEPTH, value_spans
from tests.conftest import run_cli, write_tree

FAULT = str(Path(__file__).parents[1] / "fixtures/tools/fault_server.py")
GUIDE = "# Jobs\n\nPoll with `mcp__lab__job_status`, not `mcp__lab__job_gone`.\n"
SNAPSHOT = {"tools": [{"name": "job_status", "inputSchema": {"type": "object"}}]}
DEEP = "[" * 100_000 + "]" * 100_000


def check(root: Path, *args: str):
    result = run_cli("check", "--no-cache", "--format", "json", *args, cwd=root)
    assert result.returncode in (0, 1), (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    found = json.loads(result.stdout)["findings"]
    return {(f["path"], f["line"], f["code"], f["message"]) for f in found}, result.stderr


def tools(*args: str):
    return CliRunner().invoke(main, ["tools", *args], catch_exceptions=False)


def mcp_json(servers: dict) -> str:
    return json.dumps({"mcpServers": servers}, indent=2)


def line_of(root: Path, rel: str, needle: str) -> int:
    lines = (root / rel).read_text().splitlines()
    return next(number for number, line in enumerate(lines, 1) if needle in line)


Y_KEY = '"y"'
LAB = {"command": "python3", "args": ["server.py"]}


def test_one_malformed_server_is_a_finding_and_the_others_are_used(tmp_path):
    # The reproduction: `"y": "z"` made check exit 2 with one line.
    root = write_tree(
        tmp_path,
        {
            ".mcp.json": mcp_json({"lab": LAB, "y": "z", "env_list": {"command": "a", "env": [1]}}),
            ".guidelint/tools/lab.json": SNAPSHOT,
            "docs/guide.md": GUIDE,
        },
    )
    found, _ = check(root)
    assert {f for f in found if f[2] == "GL109"} == {
        (
            ".mcp.json",
            line_of(root, ".mcp.json", Y_KEY),
            "GL109",
            "server `y` must be an object; it is ignored",
        ),
        (
            ".mcp.json",
            line_of(root, ".mcp.json", '"env"'),
            "GL109",
            "server `env_list`: `env` must be an object; the server is ignored",
        ),
    }
    # lab's snapshot is still used: the guide is checked against it.
    assert [f[:3] for f in found if f[2] != "GL109"] == [("docs/guide.md", 3, "GL101")]


def test_tools_list_says_one_line_per_malformed_server_and_goes_on(tmp_path):
    root = write_tree(
        tmp_path,
        {".mcp.json": mcp_json({"lab": LAB, "y": "z"}), ".guidelint/tools/lab.json": SNAPSHOT},
    )
    result = tools("list", str(root))
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        f"guidelint: warning: .mcp.json:{line_of(root, '.mcp.json', Y_KEY)}: "
        "server `y` must be an object; it is ignored"
    ]
    assert "lab  (1 tools, from .guidelint/tools/lab.json)" in result.stdout


def test_a_malformed_snapshot_is_reported_at_its_server_and_its_tools_are_unknown(tmp_path):
    snapshot = '{"tools": [\n  {"title": "no name"},\n  {"name": "job_status"}\n]}\n'
    root = write_tree(
        tmp_path,
        {
            ".mcp.json": mcp_json({"lab": LAB}),
            ".guidelint/tools/lab.json": snapshot,
            "docs/guide.md": GUIDE,
        },
    )
    found, _ = check(root)
    assert (
        ".mcp.json",
        3,
        "GL109",
        "snapshot .guidelint/tools/lab.json:2: tools[0] has no string `name`; it is ignored",
    ) in found
    assert any(f[2] == "GL101" for f in found)  # the well-formed entry is still used
    # Checked itself (extend-include), the snapshot gets the finding at its own line.
    write_tree(root, {"pyproject.toml": '[tool.guidelint]\nextend-include = [".guidelint/**"]\n'})
    found, _ = check(root)
    assert {f[:3] for f in found if f[2] == "GL109"} == {(".guidelint/tools/lab.json", 2, "GL109")}


def test_a_lone_broken_snapshot_is_a_note_when_no_checked_file_can_hold_it(tmp_path):
    root = write_tree(tmp_path, {".guidelint/tools/vendor.json": "{", "docs/guide.md": GUIDE})
    found, stderr = check(root)
    assert stderr.splitlines() == [
        "guidelint: warning: .guidelint/tools/vendor.json:1: not valid JSON "
        "(Expecting property name enclosed in double quotes) (GL109)"
    ]
    assert found  # the guide was still checked


def test_json_nested_100k_deep_is_one_finding_or_line_never_a_traceback(tmp_path):
    deep_server = '{"mcpServers": {"lab": {"command": "python3", "args": ' + DEEP + "}}}"
    root = write_tree(
        tmp_path,
        {
            ".mcp.json": deep_server,
            ".guidelint/tools/other.json": '{"tools": [{"name": "x", "inputSchema": '
            + DEEP
            + "}]}",
            ".claude/settings.json": '{"permissions": {"allow": ' + DEEP + "}}",
            "docs/guide.md": GUIDE,
        },
    )
    found, stderr = check(root)
    deep = f"nested more than {MAX_DEPTH} levels deep"
    assert {f for f in found if f[2] != "GL102"} == {
        (".mcp.json", 1, "GL109", deep),
        (".claude/settings.json", 1, "GL106", f"{deep}: no permission here takes effect"),
    }
    assert stderr.splitlines() == [
        f"guidelint: warning: .guidelint/tools/other.json:1: {deep} (GL109)"
    ]
    listed = tools("list", str(root))  # was a RecursionError traceback
    assert listed.exit_code == 0
    assert listed.stderr.splitlines() == [
        f"guidelint: warning: .mcp.json:1: {deep}",
        f"guidelint: warning: .guidelint/tools/other.json:1: {deep}",
    ]


def test_an_oversized_mcp_json_is_refused_by_size(tmp_path):
    servers = {f"s{i}": {"command": "python3", "args": ["x" * 50]} for i in range(100)}
    root = write_tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.guidelint]\nmax-file-size = 2000\n",
            ".mcp.json": mcp_json(servers),
        },
    )
    size = (root / ".mcp.json").stat().st_size
    loaded = load_config(root)
    read = read_json(Project(loaded.root, loaded.config, loaded.source), ".mcp.json")
    assert isinstance(read, FileProblem)
    assert read.message == f"file is too large to check ({size:,} bytes > max-file-size 2,000)"
    found, _ = check(root)
    assert {f[2] for f in found} == {"GL001"}  # the engine's one finding, not two
    assert tools("list", str(root)).stderr.splitlines() == [f"guidelint: warning: {read}"]


def test_a_tool_name_with_control_characters_is_left_out_in_one_escaped_line(tmp_path):
    evil = {"tools": [{"name": "ok\x1b[31mRED\nmcp__fake__line", "inputSchema": {}}]}
    root = write_tree(tmp_path, {".guidelint/tools/evil.json": evil})
    result = tools("list", str(root))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "evil  (0 tools, from .guidelint/tools/evil.json)"
    assert result.stderr.splitlines() == [
        "guidelint: warning: .guidelint/tools/evil.json:4: tools[0] name "
        "`ok\\x1b[31mRED\\nmcp__fake__line` is blank or holds a control character; it is ignored"
    ]
    assert "\x1b" not in result.output


def test_snapshot_refuses_a_server_name_that_leaves_the_folder(tmp_path):
    root = tmp_path / "deep" / "project"
    server = {"command": sys.executable, "args": [FAULT, "normal"]}
    write_tree(root, {".mcp.json": mcp_json({"../../x": server, "lab": server})})
    refusal = (
        ".mcp.json:3: server name `../../x` cannot name a snapshot file "
        "(it holds a path separator); the server is ignored"
    )
    result = tools("snapshot", str(root))
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [f"guidelint: warning: {refusal}"]
    assert result.stdout.startswith("wrote .guidelint/tools/lab.json: 2 tools")
    asked = tools("snapshot", "--server", "../../x", str(root))
    assert asked.exit_code == 2
    assert asked.stderr.splitlines() == [f"guidelint: error: {refusal}"]
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.json"))
    assert written == ["deep/project/.guidelint/tools/lab.json", "deep/project/.mcp.json"]


def test_configured_tool_paths_and_names_stay_inside_the_project(tmp_path):
    for table in (
        '[tool.guidelint.tools]\nsnapshot-dir = "../elsewhere"\n',
        '[tool.guidelint.tools]\nmcp-config = "/etc/mcp.json"\n',
        '[tool.guidelint.tools.servers.vendor]\nsnapshot = "../../vendor.json"\n',
        '[tool.guidelint.tools.servers."../../x"]\ncommand = "python3"\n',
    ):
        write_tree(tmp_path, {"pyproject.toml": table})
        result = run_cli("check", cwd=tmp_path)
        assert result.returncode == 2, table
        assert len(result.stderr.splitlines()) == 1, result.stderr
        assert (
            "must be a path inside the project" in result.stderr
            or "cannot name a snapshot file" in result.stderr
        ), result.stderr


def test_value_spans_walks_100k_deep_json_without_recursing():
    assert value_spans(DEEP) == {}  # deeper than MAX_DEPTH: refused, not a RecursionError
    at_limit = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert len(value_spans(at_limit)) == MAX_DEPTH
    assert len(value_spans("[NaN, -Infinity]")) == 3  # what json.loads accepts too


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=20,
)


@given(JSON_VALUES, st.sampled_from([None, 1, 2]))
def test_value_spans_finds_every_value_and_key(value, indent):
    text = json.dumps(value, indent=indent)
    spans = value_spans(text)

    def walk(node, path):
        assert json.loads(text[spans[path].start : spans[path].end]) == node
        if isinstance(node, dict):
            for key, child in node.items():
                assert json.loads(text[slice(*_bounds(spans[(*path, key, KEY)]))]) == key
                yield from walk(child, (*path, key))
        elif isinstance(node, list):
            for index, child in enumerate(node):
                yield from walk(child, (*path, index))
        yield path

    paths = set(walk(value, ()))
    keys = {p for p in spans if p and p[-1] == KEY}
    assert set(spans) - keys == paths


def _bounds(span):
    return span.start, span.end


def test_call_forms_nested_past_cpythons_limits_are_no_call_forms(tmp_path):
    # `ast.parse` of the arguments raised MemoryError: GL000 from GL101-GL105.
    spans = [
        "mcp__lab__job_status(" + "-" * 100_000 + "a)",
        "job_status(" + "not " * 5_000 + "a)",
        "job_status(" + "(" * 300 + ")" * 300 + ")",
    ]
    guide = "# G\n\n" + " and ".join(f"`{span}`" for span in spans) + ".\n"
    root = write_tree(tmp_path, {".guidelint/tools/lab.json": SNAPSHOT, "docs/guide.md": guide})
    found, _ = check(root)
    assert found == set()


def test_a_key_spelt_like_the_key_mark_keeps_its_own_value_span():
    # Hypothesis found `{"#key": null}`: with a string mark, the value under a key named
    # "#key" and the span of the key "a" shared one path, ("a", "#key").
    text = '{"a": {"#key": 1}}'
    spans = value_spans(text)
    assert text[_bounds(spans[("a", KEY)])[0] : _bounds(spans[("a", KEY)])[1]] == '"a"'
    assert text[slice(*_bounds(spans[("a", "#key")]))] == "1"
