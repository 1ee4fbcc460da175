"""Other coding agents' files: their MCP server files are tool sources like `.mcp.json`,
and references in their instruction files resolve against the same catalog.

Each harness is tried over a real published server, mcp-server-sqlite (its real
`tools/list` answer, bundled in the catalog and compared with the live server in
tests/test_tools_catalog.py), declared the way that harness declares servers.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from guidelint.check import CheckOptions, run_check
from guidelint.commands.cli import main
from guidelint.errors import ConfigError
from guidelint.rules.index import rule_codes
from guidelint.tools.harnesses import codes_for, gemini_tool, harnesses, unknown_harness
from guidelint.tools.jsonpos import blank_jsonc
from tests.conftest import write_tree

SQLITE_STDIO = {"command": "uvx", "args": ["mcp-server-sqlite", "--db-path", "test.db"]}

# harness -> (its server file, that file's text, an instruction file, a typo'd reference)
HARNESS_FILES = {
    "codex": (
        ".codex/config.toml",
        '# Codex\n[mcp_servers.sqlite]\ncommand = "uvx"\n'
        'args = ["mcp-server-sqlite", "--db-path", "test.db"]\n',
        "AGENTS.md",
        "`mcp__sqlite__read_querry`",
    ),
    "cursor": (
        ".cursor/mcp.json",
        json.dumps({"mcpServers": {"sqlite": SQLITE_STDIO}}, indent=2),
        ".cursor/rules/db.mdc",
        "`mcp__sqlite__read_querry`",
    ),
    "copilot": (
        ".vscode/mcp.json",
        '{\n  // VS Code reads comments and trailing commas here\n  "servers": {\n'
        '    "sqlite": {"type": "stdio", "command": "uvx",\n'
        '               "args": ["mcp-server-sqlite", "--db-path", "test.db"],},\n  },\n}\n',
        ".github/copilot-instructions.md",
        "`mcp__sqlite__read_querry`",
    ),
    "gemini": (
        ".gemini/settings.json",
        json.dumps({"mcpServers": {"sqlite": SQLITE_STDIO}}, indent=2),
        "GEMINI.md",
        "`mcp_sqlite_read_querry`",
    ),
}


def findings(root: Path, select: list[str] | None = None) -> list[tuple[str, int, str, str]]:
    report = run_check(CheckOptions(paths=[root], select=select or ["GL1"], use_cache=False))
    return [(f.path, f.line, f.code, f.message) for f in report.findings]


@pytest.mark.parametrize("harness", sorted(HARNESS_FILES))
def test_a_typo_in_a_harness_file_is_found_against_its_server_file(tmp_path, harness):
    config, text, doc, typo = HARNESS_FILES[harness]
    body = f"# Database\n\nQuery with {typo}.\n\nList tables with the `list_tables` tool.\n"
    if doc.endswith(".mdc"):
        body = "---\ndescription: database work\nalwaysApply: false\n---\n" + body
    root = write_tree(tmp_path, {config: text, doc: body})
    found = findings(root)
    line = body.splitlines().index(f"Query with {typo}.") + 1
    assert [(f[0], f[1], f[2]) for f in found] == [(doc, line, "GL101")], found
    assert "server `sqlite` has no tool `read_querry` (did you mean `read_query`?)" in found[0][3]


@pytest.mark.parametrize("harness", sorted(HARNESS_FILES))
def test_real_tool_names_resolve_silently(tmp_path, harness):
    config, text, doc, typo = HARNESS_FILES[harness]
    right = typo.replace("read_querry", "read_query")
    body = f"# Database\n\nQuery with {right}, then call `describe_table`.\n"
    root = write_tree(tmp_path, {config: text, doc: body})
    assert findings(root) == []


def test_gemini_fix_rewrites_in_gemini_form(tmp_path):
    config, text, doc, typo = HARNESS_FILES["gemini"]
    root = write_tree(tmp_path, {config: text, doc: f"Use {typo}.\n"})
    report = run_check(CheckOptions(paths=[root], select=["GL101"], use_cache=False))
    (finding,) = report.findings
    assert finding.fix is not None
    assert finding.fix.edits[0].content == "mcp_sqlite_read_query"


def test_a_gemini_name_of_an_undeclared_server_is_no_reference(tmp_path):
    config, text, _, _ = HARNESS_FILES["gemini"]
    root = write_tree(tmp_path, {config: text, "GEMINI.md": "Call `mcp_other_read_querry`.\n"})
    assert [f[2] for f in findings(root, ["GL101", "GL102", "GL103"])] == []


def test_gemini_http_and_sse_keys_declare_remote_servers(tmp_path):
    settings = {
        "mcpServers": {"a": {"httpUrl": "https://a.example/mcp"}, "b": {"url": "https://b"}}
    }
    root = write_tree(tmp_path, {".gemini/settings.json": json.dumps(settings)})
    result = CliRunner().invoke(main, ["tools", "list", str(root)])
    assert "a  (declared in .gemini/settings.json:1" in result.output
    assert "b  (declared in .gemini/settings.json:1" in result.output


def test_the_same_server_in_three_files_is_declared_once_by_the_first(tmp_path):
    files = {cfg: text for cfg, text, _, _ in HARNESS_FILES.values()}
    root = write_tree(tmp_path, files)
    result = CliRunner().invoke(main, ["tools", "list", str(root)], catch_exceptions=False)
    assert result.output.count("sqlite  (6 tools") == 1
    assert "sqlite` (.codex/config.toml:2)" in result.output


def test_a_broken_server_file_is_one_gl109_line(tmp_path):
    root = write_tree(
        tmp_path, {".cursor/mcp.json": '{"mcpServers": {"x": {"args": "not a list"}}}'}
    )
    found = findings(root, ["GL109"])
    assert [(f[0], f[2]) for f in found] == [(".cursor/mcp.json", "GL109")]
    assert "`args` must be a list" in found[0][3]


def test_broken_toml_is_gl109_at_its_line_not_a_traceback(tmp_path):
    text = "# Codex\n[mcp_servers.x]\ncommand = uvx\n"
    root = write_tree(tmp_path, {".codex/config.toml": text, "AGENTS.md": "`mcp__x__y`\n"})
    result = CliRunner().invoke(main, ["check", str(root), "--select", "GL1"])
    assert "Traceback" not in result.output
    assert ".codex/config.toml:3:1: GL109 not valid TOML" in result.output, result.output


def test_harness_selection_leaves_other_harnesses_files_unread(tmp_path):
    config, text, doc, typo = HARNESS_FILES["cursor"]
    root = write_tree(
        tmp_path,
        {
            config: text,
            doc: f"Use {typo}.\n",
            "pyproject.toml": '[tool.guidelint]\nharnesses = ["claude-code"]\n',
        },
    )
    assert findings(root) == []  # .cursor/mcp.json is Cursor's, not Claude Code's


def test_unknown_harness_in_configuration_is_a_config_error_with_did_you_mean(tmp_path):
    root = write_tree(tmp_path, {"pyproject.toml": '[tool.guidelint]\nharnesses = ["codx"]\n'})
    with pytest.raises(ConfigError, match="unknown harness `codx` \\(did you mean `codex`\\?\\)"):
        run_check(CheckOptions(paths=[root], use_cache=False))


def test_rules_command_lists_a_harness_s_rules():
    result = CliRunner().invoke(main, ["rules", "--harness", "codex"])
    assert result.exit_code == 0, result.output
    codes = [line.split()[0] for line in result.output.splitlines()[1:]]
    assert "GL101" in codes and "GL610" in codes and "GL608" in codes
    assert "GL602" not in codes  # Claude Code's hook events are not Codex's
    bad = CliRunner().invoke(main, ["rules", "--harness", "cursr"])
    assert bad.exit_code == 2 and "did you mean `cursor`" in bad.output


def test_every_harness_states_version_and_sources_and_rules_exist():
    from guidelint.rules.index import rule_codes

    codes = rule_codes()
    for key, harness in harnesses().items():
        assert harness.version, key
        assert harness.sources or harness.uncertain, key
        assert all(any(c.startswith(p) for c in codes) for p in harness.rules), key
        if harness.tool_names.form and not harness.tool_names.certain:
            assert harness.tool_names.note, key  # an uncertain fact says why
    assert codes_for(["codex"], ["GL602", "GL101"]) == ["GL101"]
    assert unknown_harness("codex") is None


def test_gemini_names_split_at_the_longest_declared_server():
    assert gemini_tool("mcp_git_hub_list", {"git", "git_hub"}) == ("git_hub", "list")
    assert gemini_tool("mcp_my-srv_x", {"my-srv"}) == ("my-srv", "x")
    assert gemini_tool("mcp_my_srv_x", {"my-srv"}) == ("my-srv", "x")
    assert gemini_tool("mcp__git__x", {"git"}) is None
    assert gemini_tool("mcp_git_", {"git"}) is None


def test_jsonc_is_blanked_in_place():
    text = '{"a": "x // not a comment", /* c */ "b": [1, 2,], // end\n}'
    blanked = blank_jsonc(text)
    assert len(blanked) == len(text)
    assert json.loads(blanked) == {"a": "x // not a comment", "b": [1, 2]}


REAL = Path(__file__).resolve().parents[1] / "fixtures" / "harnesses"


@pytest.mark.parametrize("repo", ["sentry-mcp", "trigger.dev"])
def test_real_harness_server_files_are_read_and_clean(tmp_path, repo):
    import shutil

    root = tmp_path / repo
    shutil.copytree(REAL / repo, root)
    result = CliRunner().invoke(main, ["tools", "list", str(root)], catch_exceptions=False)
    expected = {  # Codex's file is read before Cursor's: the first declares the server
        "sentry-mcp": "sentry  (declared in .codex/config.toml:1",
        "trigger.dev": "trigger.dev  (declared in .cursor/mcp.json:3",
    }
    assert expected[repo] in result.output
    assert findings(root, ["GL109", "GL609"]) == []


def test_harnesses_command_prints_every_harness_with_its_sources():
    result = CliRunner().invoke(main, ["harnesses"])
    assert result.exit_code == 0, result.output
    for key in harnesses():
        assert f"\n{key}: " in f"\n{result.output}"
    assert "mcp_<server>_<tool>" in result.output
    assert "<server>/<tool>" in result.output
    assert "<server>/<tool> (uncertain" not in result.output
    as_json = CliRunner().invoke(main, ["harnesses", "--format", "json"])
    assert {h["key"] for h in json.loads(as_json.output)} == set(harnesses())


def test_the_harness_page_names_every_harness_and_rule():
    page = (Path(__file__).resolve().parents[2] / "docs" / "HARNESSES.md").read_text()
    for key in harnesses():
        assert f"`{key}`" in page, key
    for code in rule_codes():
        if "GL608" <= code <= "GL699":  # the agent-configuration rules of issue #30
            assert code in page, code


@pytest.mark.parametrize("harness", sorted(HARNESS_FILES))
def test_a_bare_tool_name_in_a_harness_file_resolves_too(tmp_path, harness):
    config, text, doc, _ = HARNESS_FILES[harness]
    body = "# Database\n\nCall the `read_querry` tool, then `list_tables`.\n"
    root = write_tree(tmp_path, {config: text, doc: body})
    found = findings(root)
    assert [(f[0], f[1], f[2]) for f in found] == [(doc, 3, "GL104")], found
    assert "did you mean `read_query` of server `sqlite`?" in found[0][3]


def test_a_server_declared_twice_in_one_file_is_gl109_at_the_later_entry(tmp_path):
    text = (
        '{\n  "servers": {\n    "sqlite": {"command": "uvx", "args": ["mcp-server-sqlite"]},\n'
        "    // a second copy, pasted later\n"
        '    "sqlite": {"command": "uvx", "args": ["mcp-server-time"]},\n  }\n}\n'
    )
    root = write_tree(tmp_path, {".vscode/mcp.json": text})
    found = findings(root, ["GL109"])
    assert [(f[0], f[1]) for f in found] == [(".vscode/mcp.json", 5)]
    assert "declared twice in this file (also at line 3)" in found[0][3]


def test_a_copilot_agent_names_mcp_tools_as_server_slash_tool(tmp_path):
    """Copilot's own tool names (`read`, `search`) are not Claude Code's and are left
    alone; `<server>/<tool>` resolves against the server, `<server>/*` is the whole of it."""
    config, text, _, _ = HARNESS_FILES["copilot"]
    agent = (
        "---\nname: triage\ndescription: Triage database issues.\n"
        'tools: ["read", "search", "sqlite/read_querry", "sqlite/list_tables", "sqlite/*",'
        ' "github/get_issue"]\n---\n\nTriage.\n'
    )
    root = write_tree(tmp_path, {config: text, ".github/agents/triage.agent.md": agent})
    found = findings(root, ["GL107"])
    assert [(f[0], f[1]) for f in found] == [(".github/agents/triage.agent.md", 4)], found
    assert (
        "server `sqlite` has no tool `read_querry` (did you mean `sqlite/read_query`?)"
        in (found[0][3])
    )


def test_an_empty_server_in_a_harness_file_is_gl109_at_its_line(tmp_path):
    text = '{\n  "servers": {\n    "sqlite": {"command": "uvx"},\n    "blank": {}\n  }\n}\n'
    root = write_tree(tmp_path, {".vscode/mcp.json": text})
    found = findings(root, ["GL109"])
    assert [(f[0], f[1]) for f in found] == [(".vscode/mcp.json", 4)], found
    assert "server `blank` has neither a `command` nor `url`: it starts nothing" in found[0][3]


LAB_SERVER = Path(__file__).parents[2] / "examples/workspace/server/lab_server.py"


def _declared(harness: str, root: Path) -> tuple[str, str]:
    """That harness's own server file declaring `lab`, the bundled MCP server, started by
    this interpreter over stdio."""
    command, args = sys.executable, [str(LAB_SERVER)]
    env = {"LAB_ROOT": str(root / "workspaces")}
    if harness == "codex":
        return ".codex/config.toml", (
            f"[mcp_servers.lab]\ncommand = {json.dumps(command)}\nargs = {json.dumps(args)}\n"
            f"env = {{ LAB_ROOT = {json.dumps(env['LAB_ROOT'])} }}\n"
        )
    server = {"command": command, "args": args, "env": env}
    key = "servers" if harness == "copilot" else "mcpServers"
    return HARNESS_FILES[harness][0], json.dumps({key: {"lab": server}}, indent=2)


@pytest.mark.parametrize("harness", sorted(HARNESS_FILES))
def test_live_a_real_server_over_stdio_resolves_each_harness_s_references(tmp_path, harness):
    """The bundled lab server, declared in that harness's own server file, is started
    and listed over real stdio (live mode, no snapshot): a typo in that harness's
    instruction file is GL101 with the real name, and a real name is silent."""
    config, text = _declared(harness, tmp_path)
    doc = HARNESS_FILES[harness][2]
    form = "mcp_lab_{}" if harness == "gemini" else "mcp__lab__{}"
    typo, right = form.format("job_statsu"), form.format("job_status")
    body = f"# Jobs\n\nPoll `{typo}`.\n\nThen `{right}`.\n"
    if doc.endswith(".mdc"):
        body = "---\ndescription: lab jobs\nalwaysApply: false\n---\n" + body
    root = write_tree(tmp_path, {config: text, doc: body})
    report = run_check(CheckOptions(paths=[root], select=["GL1"], live=True, use_cache=False))
    found = [(f.path, f.line, f.code, f.message) for f in report.findings]
    line = body.splitlines().index(f"Poll `{typo}`.") + 1
    assert [(f[0], f[1], f[2]) for f in found] == [(doc, line, "GL101")], found
    assert "(did you mean `" in found[0][3] and "job_status" in found[0][3]


def test_copilot_tool_aliases_are_checked_only_when_asked(tmp_path):
    """GitHub's aliases are case-insensitive and complete, VS Code's own names are not
    listed anywhere complete: bare names are judged only with `copilot-tool-aliases`."""
    config, text, _, _ = HARNESS_FILES["copilot"]
    agent = (
        "---\nname: triage\ndescription: Triage database issues.\n"
        'tools: ["raed", "Read", "EXECUTE", "shell", "todo", "codebase",'
        ' "sqlite/list_tables", "*"]\n'
        "---\n\nTriage.\n"
    )
    root = write_tree(tmp_path, {config: text, ".github/agents/triage.agent.md": agent})
    assert findings(root, ["GL107"]) == []
    (root / "pyproject.toml").write_text("[tool.guidelint.tools]\ncopilot-tool-aliases = true\n")
    found = findings(root, ["GL107"])
    assert [(f[1], f[3].split(":")[1].strip()) for f in found] == [
        (4, "`raed` is none of GitHub's tool aliases"),
        (4, "`codebase` is none of GitHub's tool aliases"),
    ], found
    assert found[0][3].endswith("(did you mean `read`?)")
