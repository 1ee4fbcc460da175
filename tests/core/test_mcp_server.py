"""`guidelint mcp` over real stdio, driven by the mcp SDK's own client.

Every test starts `python -m guidelint mcp` in a copy of the example workspace and
talks to it as an agent would: list the tools, call them, read structured results.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema.validators import validator_for

from tests.conftest import REPO, run_cli

WORKSPACE = REPO / "examples/workspace"
TOOLS = {
    "check",
    "fix",
    "explain_rule",
    "gotcha_find",
    "gotcha_add",
    "surface",
    "smoke_plan",
    "smoke_dial",
    "run_examples",
}
GOTCHAS = ".claude/rules/gotchas.md"
INCIDENT = {"batch": 4, "accum": 4, "save_steps": 1}  # #1489: effective batch 16


@pytest.fixture
def workspace(tmp_path) -> Path:
    copy = tmp_path / "workspace"
    shutil.copytree(WORKSPACE, copy, ignore=shutil.ignore_patterns("workspaces"))
    return copy


def server_env() -> dict[str, str]:
    """This checkout first on the path, as an installed guidelint would be."""
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)
    return {"PYTHONPATH": path}


def serve(root: Path, scenario: Callable[[Any], Awaitable[None]]) -> None:
    """Start `python -m guidelint mcp` in root and run the scenario on a session."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import get_default_environment, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "guidelint", "mcp"],
        cwd=str(root),
        env={**get_default_environment(), **server_env()},
    )

    async def main() -> None:
        with anyio.fail_after(120):
            # errlog given now: the SDK's default is the sys.stderr of its import, which
            # is a closed CliRunner stream when an in-process CLI test imported it first.
            async with stdio_client(params, errlog=sys.stderr) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    await scenario(session)

    anyio.run(main)


def text_of(result: Any) -> str:
    return "".join(block.text for block in result.content if block.type == "text")


def assert_tool_error(result: Any, pattern: str) -> str:
    assert result.is_error, result
    reason = text_of(result)
    assert "\n" not in reason and re.search(pattern, reason), reason
    return reason


def test_tools_are_listed_with_valid_input_and_output_schemas(workspace):
    def check_schema(schema: dict) -> None:
        validator_for(schema).check_schema(schema)

    async def scenario(session):
        tools = (await session.list_tools()).tools
        assert {tool.name for tool in tools} == TOOLS
        for tool in tools:
            assert tool.description, tool.name
            check_schema(tool.input_schema)
            assert tool.output_schema is not None, tool.name
            check_schema(tool.output_schema)
        by_name = {tool.name: tool for tool in tools}
        assert by_name["gotcha_add"].input_schema["required"] == ["headline", "body", "provenance"]
        assert by_name["check"].annotations.read_only_hint is True
        assert by_name["gotcha_add"].annotations.read_only_hint is False

    serve(workspace, scenario)


def test_check_gives_the_json_reports_findings_with_fixes(workspace):
    cli = run_cli("check", "--format", "json", "--no-cache", cwd=workspace)
    expected = json.loads(cli.stdout)
    got: dict = {}

    async def scenario(session):
        got["all"] = (await session.call_tool("check", {})).structured_content
        got["stale"] = (
            await session.call_tool("check", {"paths": ["docs"], "select": ["GL501"]})
        ).structured_content
        got["ignored"] = (
            await session.call_tool("check", {"ignore": ["GL5", "GL3", "GL4"]})
        ).structured_content

    serve(workspace, scenario)
    # The CLI's JSON report exactly, plus what the CLI says elsewhere (cwd, stderr).
    assert {key: got["all"][key] for key in expected} == expected
    assert set(got["all"]) - set(expected) == {"root", "notices"}
    [stale] = got["stale"]["findings"]
    assert (stale["code"], stale["path"], stale["line"]) == ("GL501", "docs/WORKSPACES.md", 17)
    assert "feedback_smoke_gate_realized_slice_arithmetic.md` does not exist" in stale["message"]
    fixes = [f["fix"] for f in got["all"]["findings"] if f["fix"]]
    assert fixes and all(fix["edits"] for fix in fixes)
    assert {f["code"][:3] for f in got["ignored"]["findings"]} == {"GL1", "GL2"}


@pytest.mark.slow  # a server process per test: the fast loop keeps listing, check, add, errors
def test_fix_dry_run_gives_the_diff_and_a_real_run_writes_it(workspace):
    gotchas = workspace / GOTCHAS
    before = gotchas.read_text()
    got: dict = {}

    async def scenario(session):
        got["dry"] = (
            await session.call_tool("fix", {"codes": ["GL2"], "dry_run": True})
        ).structured_content
        assert gotchas.read_text() == before
        got["real"] = (await session.call_tool("fix", {"codes": ["GL2"]})).structured_content
        got["again"] = (await session.call_tool("fix", {"codes": ["GL2"]})).structured_content

    serve(workspace, scenario)
    dry, real = got["dry"], got["real"]
    assert dry["written"] is False and real["written"] is True
    # One rewritten row removes both findings (GL203, GL202): two fixed, as check said.
    assert dry["diff"] == real["diff"] and dry["fixed"] == real["fixed"] == {GOTCHAS: 2}
    assert f"--- a/{GOTCHAS}" in dry["diff"]
    assert "-- [Checkpoints are written only at save steps]" in dry["diff"]
    assert "+- [One workspace per experiment](#one-workspace-per-experiment)" in dry["diff"]
    assert real["findings"] == [] and got["again"]["diff"] == ""
    assert gotchas.read_text() != before


@pytest.mark.slow  # a server process per test: the fast loop keeps listing, check, add, errors
def test_explain_rule_by_code_and_by_name(workspace):
    async def scenario(session):
        by_code = (await session.call_tool("explain_rule", {"rule": "gl501"})).structured_content
        by_name = (
            await session.call_tool("explain_rule", {"rule": "stale-path"})
        ).structured_content
        assert by_code == by_name
        assert by_code["code"] == "GL501" and by_code["page"].startswith("# GL501 stale-path")
        result = await session.call_tool("explain_rule", {"rule": "GL999"})
        assert_tool_error(result, r"^explain_rule: unknown rule 'GL999'")

    serve(workspace, scenario)


@pytest.mark.slow  # a server process per test: the fast loop keeps listing, check, add, errors
def test_gotcha_find_cites_file_and_line(workspace):
    async def scenario(session):
        found = (await session.call_tool("gotcha_find", {"pattern": "realized"})).structured_content
        assert found["count"] == len(found["entries"]) == 2
        assert found["evidence"][0].startswith(f"{GOTCHAS}:18: Smoke-gate floors")
        assert found["entries"][0]["issues"] == ["#1489"]
        absent = (
            await session.call_tool("gotcha_find", {"pattern": "disk (space|quota)"})
        ).structured_content
        assert (absent["count"], absent["entries"], absent["evidence"]) == (0, [], [])

    serve(workspace, scenario)


def test_gotcha_add_writes_valid_entries_concurrently_and_refuses_over_the_cap(workspace):
    gotchas = workspace / GOTCHAS
    refused: dict = {}

    async def scenario(session):
        # The example file's index has drifted: adding is refused until it is fixed.
        stale = await session.call_tool(
            "gotcha_add", {"headline": "A lesson", "body": "Body.", "provenance": ["#1"]}
        )
        reason = assert_tool_error(stale, r"^gotcha not added: .*GL203")
        assert stale.structured_content == {"refused": True, "reason": reason}
        fixed = run_cli("check", "--fix", "--select", "GL2", cwd=workspace)
        assert fixed.returncode == 0, fixed.stdout + fixed.stderr

        before = gotchas.read_text()
        entry = {"headline": "Dry runs write nothing", "body": "B.", "provenance": ["#2"]}
        dry = await session.call_tool("gotcha_add", {**entry, "dry_run": True})
        assert not dry.is_error and dry.structured_content["written"] is False
        diff = dry.structured_content["diff"]
        assert "+- [Dry runs write nothing](#dry-runs-write-nothing)" in diff
        assert gotchas.read_text() == before

        results: dict[str, Any] = {}

        async def add(headline: str, issue: str) -> None:
            results[headline] = await session.call_tool(
                "gotcha_add",
                {"headline": headline, "body": "What to do instead.", "provenance": [issue]},
            )

        async with anyio.create_task_group() as group:  # two calls in flight at once
            group.start_soon(add, "Seeds are fixed per run", "#7")
            group.start_soon(add, "Quotas are checked before a job starts", "#8")
        for result in results.values():
            assert not result.is_error, text_of(result)
            assert result.structured_content["written"] is True
            assert result.structured_content["file"] == GOTCHAS
        assert sorted(r.structured_content["entries"] for r in results.values()) == [6, 7]

        # The eighth place, raced for by the server and the CLI in another process:
        # the file lock lets exactly one land; the other plans on its result.
        race: dict[str, Any] = {}

        async def by_server() -> None:
            race["server"] = await session.call_tool(
                "gotcha_add",
                {"headline": "Logs go to the run folder", "body": "B.", "provenance": ["#9"]},
            )

        async def by_cli() -> None:
            race["cli"] = await anyio.run_process(
                [
                    sys.executable,
                    "-m",
                    "guidelint",
                    "gotcha",
                    "add",
                    "--headline",
                    "Caches are per user",
                    "--body",
                    "B.",
                    "--provenance",
                    "#11",
                ],
                cwd=workspace,
                env={**os.environ, **server_env()},
                check=False,
            )

        async with anyio.create_task_group() as group:
            group.start_soon(by_server)
            group.start_soon(by_cli)
        landed = [not race["server"].is_error, race["cli"].returncode == 0]
        assert sorted(landed) == [False, True], (text_of(race["server"]), race["cli"].stderr)
        loser = text_of(race["server"]) if race["server"].is_error else race["cli"].stderr.decode()
        assert "row cap is 8" in loser, loser
        ninth = await session.call_tool(
            "gotcha_add",
            {"headline": "One too many lessons", "body": "B.", "provenance": ["#10"]},
        )
        refused["reason"] = assert_tool_error(ninth, r"^gotcha not added: .*\b8\b")
        assert ninth.structured_content["refused"] is True
        # The server lives on after a refusal.
        found = await session.call_tool("gotcha_find", {"pattern": "seeds|quotas"})
        assert found.structured_content["count"] == 2

    serve(workspace, scenario)
    text = gotchas.read_text()
    assert "One too many lessons" not in text
    assert text.count('<a id="') == 8
    for headline in ("Seeds are fixed per run", "Quotas are checked before a job starts"):
        assert text.count(headline) == 2  # the entry and its index row
    clean = run_cli("check", "--select", "GL2", "--no-cache", cwd=workspace)
    assert clean.returncode == 0, clean.stdout


@pytest.mark.slow  # a server process per test: the fast loop keeps listing, check, add, errors
def test_smoke_dial_and_plan_for_the_incident_geometry(workspace):
    async def scenario(session):
        dial = await session.call_tool("smoke_dial", {"floor": 2, "cap": 30, **INCIDENT})
        data = dial.structured_content
        assert (data["feasible"], data["epochs"], data["max_steps"]) == (True, 2, 2)
        assert data["worst_rows"] == 1 and "epochs: 2 (worst case n=1)" in data["arithmetic"]
        plan = await session.call_tool(
            "smoke_plan", {"rows": 2, "epochs": 1, "floor": 2, "cap": 30, **INCIDENT}
        )
        data = plan.structured_content
        assert (data["steps"], data["checkpoints_on_disk"]) == (1, ["checkpoint-1"])
        assert data["floor_holds"] is False and len(data["rows"]) == 30
        assert "16 rows per optimizer step" in data["arithmetic"]
        floor = data["floor"]
        assert floor["holds"] is False and 2 in floor["failing_n"]
        assert floor["failures"][0]["first"] == 1 and "< floor 2" in floor["failures"][0]["why"]
        assert "epochs=2" in floor["suggestion"]
        never = await session.call_tool(
            "smoke_dial", {"floor": 2, "cap": 30, "batch": 4, "save_strategy": "no"}
        )
        assert never.structured_content["feasible"] is False
        assert never.structured_content["reason"]

    serve(workspace, scenario)


PENDING_GUIDE = """# Guide

<!-- guidelint: pending -->
```python
print(1 + 1)
```

```output
2
```

<!-- guidelint: pending -->
```python
print("no")
```

```output
yes
```
"""


@pytest.mark.slow  # a server process per test: the fast loop keeps listing, check, add, errors
def test_run_examples_promotes_the_pending_example_that_passed_with_progress(tmp_path):
    root = tmp_path / "guides"
    (root / "docs").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.guidelint]\ninclude = ["docs/*.md"]\n')
    guide = root / "docs/GUIDE.md"
    guide.write_text(PENDING_GUIDE)
    got: dict = {"progress": []}

    async def scenario(session):
        async def progress(done, total, message):
            got["progress"].append((done, total, message))

        result = await session.call_tool(
            "run_examples",
            {"pending_only": True, "promote": True},
            progress_callback=progress,
        )
        assert not result.is_error, text_of(result)
        got["run"] = result.structured_content
        one = await session.call_tool("run_examples", {"ids": ["docs/GUIDE.md:13"]})
        got["one"] = one.structured_content
        unknown = await session.call_tool("run_examples", {"ids": ["docs/GUIDE.md:99"]})
        got["unknown"] = assert_tool_error(unknown, r"^run_examples: no example has the id")

    serve(root, scenario)
    run = got["run"]
    assert [(e["id"], e["status"]) for e in run["examples"]] == [
        ("docs/GUIDE.md:4", "pending-passed"),
        ("docs/GUIDE.md:13", "pending-failed"),
    ]
    assert run["promoted"] == ["docs/GUIDE.md:4"]
    assert "stdout differs" in run["examples"][1]["message"]
    assert run["summary"]["ok"] is True and run["summary"]["pending-passed"] == 1
    # Examples finish in either order, and the client hands progress notifications to
    # its callback in a task of its own, so the last may still be on its way when the
    # result is in: each that arrived must be right, and at least one must have.
    messages = {"docs/GUIDE.md:4 pending-passed", "docs/GUIDE.md:13 pending-failed"}
    assert got["progress"]
    assert {message for _, _, message in got["progress"]} <= messages
    assert sorted((done, total) for done, total, _ in got["progress"]) == [
        (n, 2) for n in range(1, len(got["progress"]) + 1)
    ]
    text = guide.read_text()
    assert text.count("<!-- guidelint: verified=") == 1 and text.count("pending -->") == 1
    assert [e["id"] for e in got["one"]["examples"]] == ["docs/GUIDE.md:13"]
    assert "no example has the id docs/GUIDE.md:99" in got["unknown"]


@pytest.mark.slow  # a server process per test: the fast loop keeps listing, check, add, errors
def test_surface_lists_changed_files_outside_the_workflow_surface(workspace):
    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=workspace,
            check=True,
            capture_output=True,
        )

    git("init", "-q", "-b", "main")
    git("add", ".")
    git("commit", "-q", "-m", "base")
    (workspace / "server/lab_server.py").write_text("# changed\n")
    (workspace / "CLAUDE.md").write_text("# Rules, changed\n")

    async def scenario(session):
        data = (await session.call_tool("surface", {"base": "HEAD"})).structured_content
        assert data["changed"] == ["CLAUDE.md", "server/lab_server.py"]
        assert data["outside"] == ["server/lab_server.py"] and data["on_surface"] is False
        bad = await session.call_tool("surface", {"base": "no-such-rev"})
        assert_tool_error(bad, r"^surface: base no-such-rev")

    serve(workspace, scenario)


def test_bad_arguments_are_one_line_tool_errors_and_the_server_lives_on(workspace):
    async def scenario(session):
        cases = [
            ("check", {"paths": 3}, r"^check: bad argument `paths`"),
            ("smoke_dial", {"floor": "two", "cap": 30, "batch": 4}, r"^smoke_dial: bad argument"),
            ("smoke_dial", {"cap": 30, "batch": 4}, r"^smoke_dial: bad argument `floor`: Field"),
            ("smoke_plan", {"rows": 2, "batch": 4}, r"exactly one of epochs and max_steps"),
            ("smoke_plan", {"rows": 2, "batch": 0, "epochs": 1}, r"bad argument `batch`"),
            ("smoke_dial", {"floor": 2, "cap": 3, "min_rows": 9, "batch": 4}, r"above the cap"),
            ("gotcha_find", {"pattern": "("}, r"not a valid regular expression"),
            ("gotcha_find", {"pattern": "x", "file": "nope.md"}, r"nope.md: no such file"),
            ("gotcha_add", {"headline": "", "body": "b", "provenance": ["#1"]}, r"headline"),
            ("check", {"paths": ["no/such/dir"]}, r"^check: "),
            ("check", {"since": "HEAD"}, r"^check: --since HEAD: not a git repository"),
            ("no_such_tool", {}, r"no_such_tool"),
        ]
        for name, arguments, pattern in cases:
            assert_tool_error(await session.call_tool(name, arguments), pattern)
        alive = await session.call_tool("explain_rule", {"rule": "GL101"})
        assert not alive.is_error and alive.structured_content["code"] == "GL101"

    serve(workspace, scenario)


@pytest.mark.slow  # three processes: the CLI, the launcher, the server
def test_a_claude_code_mcp_json_entry_starts_it(workspace, tmp_path):
    # `guidelint` on PATH, importing this checkout, as `pip install guidelint` gives.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "guidelint"
    pythonpath = server_env()["PYTHONPATH"]
    launcher.write_text(
        f'#!/bin/sh\nPYTHONPATH={pythonpath} exec {sys.executable} -m guidelint "$@"\n'
    )
    launcher.chmod(launcher.stat().st_mode | stat.S_IEXEC)
    entry = {"mcpServers": {"guidelint": {"command": "guidelint", "args": ["mcp"]}}}
    (workspace / ".mcp.json").write_text(json.dumps(entry))

    path = os.pathsep.join([str(bin_dir), os.environ.get("PATH", "")])
    result = run_cli(
        "tools", "snapshot", "--server", "guidelint", cwd=workspace, env={"PATH": path}
    )
    assert result.returncode == 0, result.stderr
    snapshot = json.loads((workspace / ".guidelint/tools/guidelint.json").read_text())
    assert {tool["name"] for tool in snapshot["tools"]} == TOOLS


@pytest.mark.slow  # a server process per test: the fast loop keeps listing, check, add, errors
def test_the_committed_snapshot_is_the_servers_own_listing(workspace):
    """The repository's `.guidelint/tools/guidelint.json` (docs/MCP.md's references
    resolve against it) matches what the server lists today."""
    committed = json.loads((REPO / ".guidelint/tools/guidelint.json").read_text())
    listed: dict = {}

    async def scenario(session):
        listed["tools"] = [
            tool.model_dump(by_alias=True, mode="json", exclude_none=True)
            for tool in (await session.list_tools()).tools
        ]

    serve(workspace, scenario)
    assert {t["name"]: t for t in committed["tools"]} == {t["name"]: t for t in listed["tools"]}


def test_smoke_tools_give_the_cli_json_plus_the_arithmetic():
    """The smoke tools return `smoke plan|dial --format json`'s object (the same face),
    plus the text in `arithmetic` (and `floor_holds` for a plan)."""
    from click.testing import CliRunner

    from guidelint.commands.cli import main
    from guidelint.commands.mcp_server import smoke_dial, smoke_plan

    def cli_json(*args: str) -> dict:
        result = CliRunner().invoke(main, ["smoke", *args, "--format", "json"])
        return json.loads(result.stdout)

    geometry = ["--batch", "4", "--accum", "4", "--save-steps", "1"]
    plan_cli = cli_json(
        "plan", "--rows", "2", "--epochs", "1", "--floor", "2", "--cap", "30", *geometry
    )
    plan_tool = smoke_plan(rows=2, epochs=1, floor=2, cap=30, **INCIDENT)
    plan = plan_tool.model_dump(mode="json", exclude_unset=True)
    assert {key: plan[key] for key in plan_cli} == plan_cli
    assert set(plan) - set(plan_cli) == {"floor_holds", "arithmetic"}
    dial_cli = cli_json("dial", "--floor", "2", "--cap", "30", *geometry)
    dial = smoke_dial(floor=2, cap=30, **INCIDENT).model_dump(mode="json", exclude_unset=True)
    assert {key: dial[key] for key in dial_cli} == dial_cli
    assert set(dial) - set(dial_cli) == {"arithmetic"}
    assert dial["arithmetic"].startswith("floor 2 checkpoints for every realized n in [1, 30]")


def test_no_function_of_the_server_is_over_60_lines():
    """A tool is a few lines over a pillar's face; the server is no one long builder."""
    source = REPO / "guidelint/commands/mcp_server.py"
    functions = [
        node
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    assert len(functions) > 10
    long = {f.name: f.end_lineno - f.lineno + 1 for f in functions}
    assert {name: size for name, size in long.items() if size > 60} == {}


def test_severity_status_and_outcome_are_enums_in_the_output_schemas():
    committed = json.loads((REPO / ".guidelint/tools/guidelint.json").read_text())
    schemas = {tool["name"]: tool["outputSchema"] for tool in committed["tools"]}
    defs = {name: schema.get("$defs", {}) for name, schema in schemas.items()}
    assert defs["check"]["Severity"]["enum"] == ["error", "warning"]
    assert "pending-passed" in defs["run_examples"]["Outcome"]["enum"]
    from guidelint.smoke.model import PlanOutcome

    assert defs["smoke_plan"]["PlanOutcome"]["enum"] == [o.value for o in PlanOutcome]
    assert schemas["explain_rule"]["properties"]["severity"] == {"$ref": "#/$defs/Severity"}


def test_docs_mcp_documents_every_tool_and_argument():
    page = (REPO / "docs/MCP.md").read_text()
    committed = json.loads((REPO / ".guidelint/tools/guidelint.json").read_text())
    sections = dict(re.findall(r"^### (\w+)\n(.*?)(?=^#|\Z)", page, re.M | re.S))
    for tool in committed["tools"]:
        assert f"`mcp__guidelint__{tool['name']}`" in page, tool["name"]
        section = sections[tool["name"]]
        for argument in tool["inputSchema"]["properties"]:
            assert f"`{argument}`" in section, (tool["name"], argument)
        for field in tool["outputSchema"]["properties"]:
            assert f"`{field}`" in section, (tool["name"], field)


def test_resources_give_the_rule_list_a_rule_page_and_the_gotchas_entries(workspace):
    cli_rules = json.loads(run_cli("rules", "--format", "json", cwd=workspace).stdout)
    cli_gotchas = json.loads(run_cli("gotcha", "list", "--format", "json", cwd=workspace).stdout)
    got: dict = {}

    async def scenario(session):
        listed = (await session.list_resources()).resources
        got["uris"] = sorted(str(r.uri) for r in listed)
        templates = (await session.list_resource_templates()).resource_templates
        got["templates"] = [t.uri_template for t in templates]
        for key, uri in [
            ("rules", "guidelint://rules"),
            ("page", "guidelint://rules/GL201"),
            ("gotchas", "guidelint://gotchas"),
        ]:
            got[key] = (await session.read_resource(uri)).contents[0].text
        with pytest.raises(Exception, match="unknown rule 'GL999'"):
            await session.read_resource("guidelint://rules/GL999")
        alive = await session.call_tool("explain_rule", {"rule": "GL101"})
        assert not alive.is_error

    serve(workspace, scenario)
    assert got["uris"] == ["guidelint://gotchas", "guidelint://rules"]
    assert got["templates"] == ["guidelint://rules/{code}"]
    assert json.loads(got["rules"]) == cli_rules
    assert got["page"] == (REPO / "rules/GL201.md").read_text(encoding="utf-8")
    entries = json.loads(got["gotchas"])
    assert entries and [e["headline"] for e in entries] == [e["headline"] for e in cli_gotchas]
    assert all(e["file"] == GOTCHAS and e["line"] > 0 for e in entries)
