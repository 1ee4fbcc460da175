"""A published MCP server from PyPI: mcp-server-sqlite, its README and its live list.

The package installed with guidelint's dev extra was written for the 1.x SDK and
does not start beside mcp 2.x: that is a real fault, and guidelint must report it
in one line. For its tool list the same published package runs from its own
environment with the SDK it was written for (built once, cached outside the
repository; set GUIDELINT_SQLITE_VENV to use another one).
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from guidelint.check import CheckOptions, run_check
from guidelint.commands.cli import main
from guidelint.config import ConfigError

VERSION = "2025.4.25"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "guidelint-tests"
# An empty GUIDELINT_SQLITE_VENV is unset: Path("") is the current folder, which
# `venv --clear` below would wipe (it once took a checkout's .git with it).
VENV = Path(os.environ.get("GUIDELINT_SQLITE_VENV") or CACHE / "mcp-server-sqlite").absolute()
INSTALLED = Path(sys.executable).parent / "mcp-server-sqlite"


def _build_venv() -> Path | None:
    """The published server in an environment with the SDK it needs (cached)."""
    exe = VENV / "bin" / "mcp-server-sqlite"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "sqlite.lock", "w") as lock:  # pytest-xdist workers build it once
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not exe.exists():
            if VENV.exists() and any(VENV.iterdir()) and not (VENV / "pyvenv.cfg").exists():
                return None  # a folder that is not an environment: never cleared
            steps = [
                [sys.executable, "-m", "venv", "--clear", str(VENV)],
                [
                    str(VENV / "bin/pip"),
                    "install",
                    "-q",
                    "--disable-pip-version-check",
                    "mcp<2",
                    f"mcp-server-sqlite=={VERSION}",
                ],
            ]
            for step in steps:
                if subprocess.run(step, capture_output=True, timeout=600).returncode != 0:
                    return None
    return exe if exe.exists() else None


@pytest.fixture(scope="module")
def sqlite_exe() -> Path:
    exe = _build_venv()
    if exe is None and os.environ.get("GUIDELINT_REQUIRE_SQLITE"):  # CI installed it
        pytest.fail(f"mcp-server-sqlite is not installed in {VENV}")
    if exe is None:
        pytest.skip("could not install mcp-server-sqlite with mcp<2 from PyPI")
    return exe


def readme_project(tmp_path: Path, exe: Path) -> Path:
    readme = metadata.metadata("mcp-server-sqlite").get_payload()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/README.md").write_text(readme, encoding="utf-8")
    (tmp_path / ".mcp.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "sqlite": {
                        "command": str(exe),
                        "args": ["--db-path", str(tmp_path / "test.db")],
                    }
                }
            }
        )
    )
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.tools]\ntimeout = 60\n")
    return tmp_path


def test_readme_precision_against_the_live_list(tmp_path, sqlite_exe):
    root = readme_project(tmp_path, sqlite_exe)
    report = run_check(CheckOptions(paths=[root], live=True, use_cache=False))
    got = [(f.path, f.code, f.message) for f in report.findings]
    # The one real drift: the README says `describe-table`, the server says describe_table.
    assert got == [
        (
            "docs/README.md",
            "GL104",
            "`describe-table` is not a tool of any known server (did you mean `describe_table` of "
            "server `sqlite`?) [--unsafe-fixes: rewrite `describe-table` to the closest tool "
            "`describe_table`]",
        )
    ]
    line = report.findings[0].line
    assert (root / "docs/README.md").read_text().splitlines()[line - 1] == "- `describe-table`"


def test_snapshot_of_the_published_server_is_mcp_wire_format(tmp_path, sqlite_exe):
    root = readme_project(tmp_path, sqlite_exe)
    result = CliRunner().invoke(main, ["tools", "snapshot", str(root)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data = json.loads((root / ".guidelint/tools/sqlite.json").read_text())
    assert [t["name"] for t in data["tools"]] == [
        "append_insight",
        "create_table",
        "describe_table",
        "list_tables",
        "read_query",
        "write_query",
    ]
    assert data["tools"][0]["inputSchema"]["required"] == ["insight"]
    assert [p["name"] for p in data["prompts"]] == ["mcp-demo"]
    assert [r["uri"] for r in data["resources"]] == ["memo://insights"]
    # Offline, from the snapshot alone: the same single finding.
    (root / ".mcp.json").unlink()
    report = run_check(CheckOptions(paths=[root], use_cache=False))
    assert [f.code for f in report.findings] == ["GL104"]


def test_installed_server_fails_in_one_line_naming_server_and_cause(tmp_path):
    root = readme_project(tmp_path, INSTALLED)
    with pytest.raises(ConfigError) as caught:
        run_check(CheckOptions(paths=[root], live=True, use_cache=False))
    message = str(caught.value)
    assert message.startswith(
        "live tool listing failed: sqlite: the server closed the connection during initialize"
    )
    assert message.endswith("AttributeError: 'Server' object has no attribute 'list_resources'")
