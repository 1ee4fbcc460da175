"""`guidelint mcp` is rooted at its workspace: no tool reads or writes outside it (#28).

An agent (or a prompt injected into one) names paths: `../x`, absolute paths,
`/etc/passwd`, a folder symlink that leads into another project. Each is one tool
error naming the path, before anything is read; nothing outside changes. Every test
drives the real server over stdio, as tests/core/test_mcp_server.py does.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import anyio
import pytest

from tests.conftest import run_cli
from tests.core.test_mcp_server import GOTCHAS, WORKSPACE, assert_tool_error, serve, text_of

SECRET = "TOPSECRET-7f3a"
OUTSIDE = r"outside the project"


@pytest.fixture
def arena(tmp_path) -> Path:
    """A workspace, another project beside it (its gotchas index drifted, so `fix`
    has something to rewrite), a secret file, and a folder symlink into the other."""
    for name in ("workspace", "other"):
        copy = tmp_path / name  # without a result cache an earlier run may have left
        shutil.copytree(
            WORKSPACE, copy, ignore=shutil.ignore_patterns("workspaces", ".guidelint_cache")
        )
    (tmp_path / "secret.md").write_text(f"# {SECRET}\n\nRun `scripts/{SECRET}.py`.\n")
    (tmp_path / "workspace/docs/elsewhere").symlink_to(tmp_path / "other", True)
    return tmp_path


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (links not followed), to show nothing changed."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def test_check_and_run_refuse_every_path_that_leads_outside(arena):
    other, before = arena / "other", snapshot(arena / "other")
    etc_cache = Path("/etc/.guidelint_cache")
    etc_cache_existed = etc_cache.exists()
    hostile = [
        "../other",
        str(other),
        "/etc/passwd",
        "../secret.md",
        "docs/../../secret.md",
        "docs/elsewhere",  # a folder symlink: it would re-root the run in `other`
        "docs/elsewhere/CLAUDE.md",
    ]
    replies: list[str] = []

    async def scenario(session):
        for path in hostile:
            for tool in ("check", "run_examples"):
                result = await session.call_tool(tool, {"paths": [path]})
                replies.append(assert_tool_error(result, rf"^{tool}: .*{OUTSIDE}"))
        inside = await session.call_tool("check", {"paths": ["docs"]})
        assert not inside.is_error, text_of(inside)

    serve(arena / "workspace", scenario)
    assert not any(SECRET in reply or "root:" in reply for reply in replies)
    assert snapshot(other) == before and not (other / ".guidelint_cache").exists()
    assert etc_cache.exists() == etc_cache_existed


def test_fix_leaves_another_projects_gotchas_file_alone(arena):
    other, before = arena / "other", snapshot(arena / "other")

    async def scenario(session):
        for path in (
            f"../other/{GOTCHAS}",
            str(other / GOTCHAS),
            f"docs/elsewhere/{GOTCHAS}",
            "docs/elsewhere",
        ):
            for dry_run in (True, False):
                result = await session.call_tool("fix", {"paths": [path], "dry_run": dry_run})
                assert_tool_error(result, rf"^fix: .*{OUTSIDE}")

    serve(arena / "workspace", scenario)
    assert snapshot(other) == before


@pytest.mark.parametrize("link", ["file", "folder"])
def test_gotcha_tools_neither_read_nor_write_through_a_symlink_out(arena, link):
    """The configured gotchas file (or its folder) is a committed symlink into a
    folder outside: find, add and the gotchas resource each refuse it."""
    workspace = arena / "workspace"
    fixed = run_cli("check", "--fix", "--select", "GL2", cwd=workspace)  # addable now
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    gotchas, outside = workspace / GOTCHAS, arena / "outside"
    if link == "file":
        outside.mkdir()
        shutil.move(gotchas, outside / "gotchas.md")
        gotchas.symlink_to(outside / "gotchas.md")
    else:
        shutil.move(gotchas.parent, outside)
        gotchas.parent.symlink_to(outside, True)
    with (outside / "gotchas.md").open("a") as handle:
        handle.write(f"\n## {SECRET}\n")
    before = snapshot(outside)
    entry = {"headline": "Seeds are fixed per run", "body": "B.", "provenance": ["#7"]}

    async def scenario(session):
        for dry_run in (True, False):
            added = await session.call_tool("gotcha_add", {**entry, "dry_run": dry_run})
            assert_tool_error(added, rf"^gotcha not added: .*{OUTSIDE}")
        # The link is not in the project's file list: nothing read, nothing found.
        found = await session.call_tool("gotcha_find", {"pattern": "."})
        assert SECRET not in text_of(found) and found.structured_content["count"] == 0
        listed = await session.read_resource("guidelint://gotchas")
        assert listed.contents[0].text == "[]"
        named = await session.call_tool("gotcha_find", {"pattern": ".", "file": GOTCHAS})
        assert SECRET not in assert_tool_error(named, rf"^gotcha_find: .*{OUTSIDE}")

    serve(workspace, scenario)
    assert snapshot(outside) == before
    assert sorted(os.listdir(outside)) == sorted(before)  # no temporary left either


def test_gotcha_find_reads_no_file_outside(arena):
    replies: list[str] = []

    async def scenario(session):
        for file in (f"../other/{GOTCHAS}", str(arena / "other" / GOTCHAS), "../secret.md"):
            found = await session.call_tool("gotcha_find", {"pattern": ".", "file": file})
            replies.append(assert_tool_error(found, rf"^gotcha_find: .*{OUTSIDE}"))
        inside = await session.call_tool("gotcha_find", {"pattern": "realized", "file": GOTCHAS})
        assert not inside.is_error and inside.structured_content["count"] == 2

    serve(arena / "workspace", scenario)
    assert not any(SECRET in reply for reply in replies)


def test_smoke_tools_refuse_arithmetic_too_large_to_enumerate(arena):
    """An agent asks for a trillion steps saved at every step, or a dial over a billion
    rows: the plan built a list of a trillion saves (MemoryError) and the dial ran for
    ever, holding the server. Each is now one tool error, and the server answers on."""

    async def scenario(session):
        with anyio.fail_after(90):
            plan = await session.call_tool(
                "smoke_plan",
                {"rows": 10**12, "batch": 1, "max_steps": 10**12, "save_steps": 1},
            )
            assert_tool_error(plan, r"^smoke_plan: more than .* to simulate")
            dial = await session.call_tool("smoke_dial", {"floor": 1, "cap": 10**9, "batch": 1})
            assert_tool_error(dial, r"^smoke_dial: more than .* to simulate")
        fine = await session.call_tool("smoke_plan", {"rows": 100, "batch": 4, "max_steps": 10})
        assert not fine.is_error, text_of(fine)

    serve(arena / "workspace", scenario)


def test_a_nul_character_in_a_path_or_revision_is_one_clear_error(arena):
    """A NUL in `check`'s `since`, `surface`'s `base` or `gotcha_find`'s `file`
    reached `subprocess` or `os.stat`: the caller got "internal error: ValueError:
    embedded null byte" (a bug's answer). Now each names the argument and why."""

    async def scenario(session):
        since = await session.call_tool("check", {"since": "HEAD\x00--output=x"})
        assert_tool_error(since, r"^check: --since .*: not a revision \(a NUL character\)$")
        base = await session.call_tool("surface", {"base": "HEAD\x00"})
        assert_tool_error(base, r"^surface: base .*: not a revision \(a NUL character\)$")
        found = await session.call_tool("gotcha_find", {"pattern": ".", "file": f"{GOTCHAS}\x00"})
        assert_tool_error(found, r"^gotcha_find: '.*\\x00': not a path \(a NUL character\)$")

    serve(arena / "workspace", scenario)


def test_an_error_quotes_a_huge_argument_cut_short(arena):
    """A 100 KB path came back whole in the one-line error (#28: reports print a bounded
    excerpt): the client's context paid for every character. Now its head and tail,
    with the count of what was cut."""
    huge = "../" + "a" * 100_000

    async def scenario(session):
        result = await session.call_tool("check", {"paths": [huge]})
        reply = assert_tool_error(
            result, r"^check: \.\./a+ \[\.\.\. [\d,]+ characters \.\.\.\] .*workspace\)$"
        )
        assert len(reply) < 600, len(reply)
        assert "\n" not in reply

    serve(arena / "workspace", scenario)
