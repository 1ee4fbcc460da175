"""The bundled catalog of published MCP servers, and what a check makes of it.

The entries were taken from the real packages by scripts/catalog_servers.py; the
sqlite entry is compared with the published server itself over real stdio.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guidelint.check import CheckOptions, run_check
from guidelint.tools.published import entries, entry_file_name, started_package
from tests.conftest import write_tree

DATA = Path(__file__).resolve().parents[2] / "guidelint" / "tools" / "catalog_data"


def servers(**named: dict) -> dict:
    return {"mcpServers": named}


def check(root: Path, select: list[str] | None = None):
    report = run_check(CheckOptions(paths=[root], select=select or ["GL1"], use_cache=False))
    return [(f.path, f.line, f.code, f.message) for f in report.findings], report


def test_every_entry_names_its_package_version_and_tools_with_schemas():
    assert len(entries()) >= 10
    for path in sorted(DATA.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert path.name == entry_file_name(data["package"], data["version"])
        assert data["registry"] in ("npm", "pypi")
        assert data["tools"], path.name
        assert all(isinstance(t.get("inputSchema"), dict) for t in data["tools"]), path.name


@pytest.mark.parametrize(
    ("command", "args", "package", "pinned"),
    [
        (
            "npx",
            ["-y", "@modelcontextprotocol/server-memory"],
            "@modelcontextprotocol/server-memory",
            None,
        ),
        (
            "npx",
            ["@upstash/context7-mcp@1.0.0", "--api-key", "k"],
            "@upstash/context7-mcp",
            "1.0.0",
        ),
        ("npx", ["-y", "@playwright/mcp@latest"], "@playwright/mcp", None),
        ("uvx", ["mcp-server-git", "--repository", "."], "mcp-server-git", None),
        (
            "uvx",
            ["--from", "mcp-server-time==2025.1.1", "mcp-server-time"],
            "mcp-server-time",
            "2025.1.1",
        ),
        ("/usr/bin/python3", ["-m", "mcp_server_fetch"], "mcp-server-fetch", None),
        ("pnpm", ["dlx", "chrome-devtools-mcp"], "chrome-devtools-mcp", None),
        ("mcp-server-sqlite", ["--db-path", "x.db"], "mcp-server-sqlite", None),
    ],
)
def test_the_package_a_command_starts(command, args, package, pinned):
    started = started_package(command, args)
    assert started is not None and (started.package, started.pinned) == (package, pinned)


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("npx", ["-y", "some-unknown-server"]),
        ("node", ["server.js"]),
        ("python", ["-m", "lab"]),
        (None, []),
    ],
)
def test_commands_that_start_no_catalogued_package(command, args):
    assert started_package(command, args) is None


MEMORY = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}
GIT = {"command": "uvx", "args": ["mcp-server-git"]}


def test_references_resolve_against_the_catalog_with_a_note_naming_the_version(tmp_path):
    root = write_tree(
        tmp_path,
        {
            ".mcp.json": servers(memory=MEMORY, git=GIT),
            "CLAUDE.md": "# Memory\n\nCall `mcp__memory__create_entities`, then "
            "`mcp__memory__create_entitys`, and `mcp__memory__git_status`.\n",
        },
    )
    found, report = check(root)
    assert found == [
        (
            "CLAUDE.md",
            3,
            "GL101",
            "server `memory` has no tool `create_entitys` (did you mean `create_entities`?) "
            "[--unsafe-fixes: rewrite `mcp__memory__create_entitys` to the closest tool "
            "`mcp__memory__create_entities`]",
        ),
        (
            "CLAUDE.md",
            3,
            "GL103",
            "tool `git_status` is not on server `memory` but on `git` [--unsafe-fixes: rewrite "
            "`mcp__memory__git_status` to the server that has it, `mcp__git__git_status`]",
        ),
    ]
    version = entries()["@modelcontextprotocol/server-memory"].version
    assert (
        "server `memory` (.mcp.json:3) has no snapshot: its tools are those of "
        f"@modelcontextprotocol/server-memory@{version} in guidelint's catalog"
    ) in report.notices


def test_a_pinned_version_the_catalog_lacks_is_said_and_the_catalog_still_used(tmp_path):
    pinned = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory@0.0.1"]}
    root = write_tree(
        tmp_path,
        {".mcp.json": servers(memory=pinned), "CLAUDE.md": "Use `mcp__memory__read_graph`.\n"},
    )
    found, report = check(root)
    assert found == []
    assert any(
        "but it pins version 0.0.1, which the catalog does not have: run `guidelint tools "
        "snapshot --server memory` for that version's list" in w
        for w in report.notices
    )


def test_a_server_without_any_tool_list_is_a_warning_and_external_ones_are_not(tmp_path):
    tracker = {"type": "http", "url": "https://tracker.example.com/mcp"}
    root = write_tree(
        tmp_path,
        {
            ".mcp.json": servers(tracker=tracker, memory=MEMORY),
            "CLAUDE.md": "Use `mcp__tracker__open_ticket` and `mcp__askuser__ask`.\n",
        },
    )
    found, _ = check(root)
    assert [(f[0], f[1], f[2]) for f in found] == [
        (".mcp.json", 3, "GL110"),
        ("CLAUDE.md", 1, "GL102"),
    ]
    assert (
        found[0][3] == "no tool list for `tracker`: run `guidelint tools snapshot --server tracker`"
    )
    (root / "pyproject.toml").write_text(
        '[tool.guidelint.tools]\nexternal = ["tracker", "askuser"]\n'
    )
    assert check(root)[0] == []


def test_a_snapshot_of_another_servers_tools_is_a_gl109_finding(tmp_path):
    filesystem = entries()["@modelcontextprotocol/server-filesystem"].data
    root = write_tree(
        tmp_path,
        {
            ".mcp.json": servers(git=GIT),
            ".guidelint/tools/git.json": {"tools": filesystem["tools"]},
        },
    )
    found, _ = check(root, ["GL109"])
    git = entries()["mcp-server-git"].label
    filesystem_label = entries()["@modelcontextprotocol/server-filesystem"].label
    assert found == [  # the snapshot folder is not checked: reported on the server's entry
        (
            ".mcp.json",
            3,
            "GL109",
            "snapshot .guidelint/tools/git.json:1: snapshot of server `git` shares no tool with "
            f"{git}, which the server starts (its tools are those of {filesystem_label}): "
            "run `guidelint tools snapshot --server git`",
        )
    ]


@pytest.mark.slow
def test_the_sqlite_entry_is_what_the_published_server_lists(tmp_path):
    """The catalog entry against the real published server over real stdio."""
    from guidelint.tools.live import list_servers
    from guidelint.tools.servers import ServerSpec

    venv = Path(os.environ.get("GUIDELINT_SQLITE_VENV", ".venv-sqlite"))
    exe = venv / "bin" / "mcp-server-sqlite"
    if not exe.exists():
        if os.environ.get("GUIDELINT_REQUIRE_SQLITE") == "1":
            pytest.fail(f"mcp-server-sqlite not installed at {exe}")
        pytest.skip("mcp-server-sqlite is not installed")
    spec = ServerSpec("sqlite", "stdio", str(exe), ["--db-path", str(tmp_path / "db")], timeout=60)
    listing = list_servers([spec], tmp_path)["sqlite"]
    assert listing.error is None
    entry = entries()["mcp-server-sqlite"].data
    live = {t["name"]: t.get("inputSchema") for t in listing.tools}
    assert live == {t["name"]: t["inputSchema"] for t in entry["tools"]}


def big_project(root: Path, count: int) -> Path:
    tools = [{"name": f"tool_{i}_x", "inputSchema": {"type": "object"}} for i in range(count)]
    unknown = "".join(f"- `tol_{i}_y` does it.\n" for i in range(5))
    return write_tree(
        root,
        {
            "pyproject.toml": "[tool.guidelint]\nmax-file-size = 50000000\n",
            ".guidelint/tools/big.json": {"tools": tools},
            "CLAUDE.md": f"# Tools\n\n{unknown}\nCall `mcp__big__tool_3_y`, `mcp__bog__tool_7_x`.",
        },
    )


@pytest.mark.slow
def test_a_server_with_100_000_tools_is_checked_in_linear_time(tmp_path):
    import time

    def seconds(count: int) -> tuple[float, list]:
        root = big_project(tmp_path / str(count), count)
        best, found = float("inf"), []
        for _ in range(2):
            from guidelint.tools.catalog import _PairIndex

            _PairIndex._built.clear()  # each run builds its index, as a new check does
            started = time.perf_counter()
            found, _ = check(root)
            best = min(best, time.perf_counter() - started)
        return best, found

    small, _ = seconds(25_000)
    large, found = seconds(100_000)
    assert large / small < 9  # linear is 4, quadratic 16
    codes = [code for _, _, code, _ in found]
    assert codes == ["GL104"] * 5 + ["GL101", "GL102"]
    assert "did you mean `mcp__big__tool_7_x`?" in found[-1][3]


def plain_close_names(name: str, candidates, n: int = 3, cutoff: float = 0.6) -> list[str]:
    """close_names as it was before its character index: difflib over every name."""
    import difflib

    from guidelint.tools.catalog import _fold, _folded

    target, folded = _fold(name), _folded(frozenset(candidates))
    hits = difflib.get_close_matches(target, list(folded), n=n, cutoff=cutoff)
    score = {h: difflib.SequenceMatcher(None, target, h).ratio() for h in hits}
    best = max(score.values(), default=0.0)
    return [c for h in hits if score[h] >= best - 0.08 for c in folded[h]][:n]


NAMES = "abcdeRst_-12"


@given(
    name=st.text(NAMES, max_size=9),
    candidates=st.sets(st.text(NAMES, max_size=9), max_size=25),
    n=st.integers(1, 3),
    cutoff=st.sampled_from([0.0, 0.3, 0.6, 0.75, 0.9, 1.0]),
)
@settings(max_examples=400, deadline=None)
def test_the_character_index_gives_difflibs_own_matches(name, candidates, n, cutoff):
    """It only skips names whose characters in common (difflib's quick_ratio) miss
    the cutoff: the same did-you-mean for any name and candidate set."""
    from guidelint.tools.catalog import close_names

    assert close_names(name, candidates, n, cutoff) == plain_close_names(
        name, candidates, n, cutoff
    )


def test_a_hook_matcher_one_digit_longer_reaches_no_more_built_ins():
    """GL603's did-you-mean for `Tool12` and `Tool123`: the built-ins that cannot reach
    the cutoff are left out before difflib, whatever the name's length."""
    from guidelint.tools.builtins import bundled
    from guidelint.tools.catalog import _CharIndex, _fold

    builtins = bundled()
    pool = frozenset(builtins.current | set(builtins.aliases))
    index = _CharIndex.of(pool)
    assert index.reachable(_fold("Tool12"), 0.6) == index.reachable(_fold("Tool123"), 0.6) == {}
    assert "read" in index.reachable(_fold("Reed"), 0.6)
