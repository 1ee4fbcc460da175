"""GL614's reading of package runners: which word is the package, and when it is pinned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from guidelint.tools.mcp_launch import launches, split_spec, version_is_pinned


def _packages(command: str) -> list[tuple[str, str]]:
    return [(launch.runner, launch.spec) for launch in launches(command.split())]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("npx -y @playwright/mcp@latest --headless", [("npx", "@playwright/mcp@latest")]),
        ("npx --yes -- mcp-remote https://x.dev/mcp", [("npx", "mcp-remote")]),
        (
            "npx -p @scope/tools@1.0.0 -p helper tools-bin",
            [("npx", "@scope/tools@1.0.0"), ("npx", "helper")],
        ),
        ("pnpm dlx @playwright/mcp@latest", [("pnpm dlx", "@playwright/mcp@latest")]),
        ("bunx some-server", [("bunx", "some-server")]),
        ("uvx mcp-server-git --repository .", [("uvx", "mcp-server-git")]),
        ("uvx --python 3.12 mcp-server-time", [("uvx", "mcp-server-time")]),
        ("uvx --from mcp-server-fetch==1.0 mcp-server-fetch", [("uvx", "mcp-server-fetch==1.0")]),
        ("uv tool run --with httpx serena", [("uv tool run", "httpx"), ("uv tool run", "serena")]),
        ("pipx run --spec black==24.1.0 black", [("pipx run", "black==24.1.0")]),
        ("npx ./local/server.js", []),
        ("npx github:owner/repo", []),
        ("npx owner/repo", []),
        ("uvx --from git+https://github.com/o/r serena", []),
        ("node server.js", []),
    ],
)
def test_the_package_a_runner_fetches(command: str, expected: list[tuple[str, str]]) -> None:
    assert _packages(command) == expected


@pytest.mark.parametrize(
    ("spec", "ecosystem", "pinned"),
    [
        ("@playwright/mcp@0.0.41", "npm", True),
        ("pkg@1.2.3-beta.1", "npm", True),
        ("@playwright/mcp@latest", "npm", False),
        ("@playwright/mcp", "npm", False),
        ("pkg@^1.2.0", "npm", False),
        ("pkg@1.x", "npm", False),
        ("mcp-server-git==2025.7.1", "pypi", True),
        ("mcp-server-git@2025.7.1", "pypi", True),
        ("serena[extra]==0.1.4", "pypi", True),
        ("mcp-server-git@latest", "pypi", False),
        ("mcp-server-git>=1.0", "pypi", False),
        ("mcp-server-git==1.*", "pypi", False),
        ("mcp-server-git", "pypi", False),
    ],
)
def test_a_version_is_pinned_only_when_exact(spec: str, ecosystem: str, pinned: bool) -> None:
    _, version = split_spec(spec, ecosystem)
    assert version_is_pinned(version, ecosystem) is pinned


def test_npx_of_a_project_dependency_is_pinned_by_the_lock_file(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text(json.dumps({"devDependencies": {"tsx": "^4.0.0"}}))
    servers = {
        "dev": {"command": "npx", "args": ["tsx", "src/server.ts"]},
        "remote": {"command": "npx", "args": ["mcp-remote", "https://x.dev/mcp"]},
    }
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": servers}, indent=1))
    project = Project(tmp_path, Config())
    findings = Engine(project, build_selection(project.config)).check_file(".mcp.json")
    gl614 = [f for f in findings if f.code == "GL614"]
    assert [f.snippet for f in gl614] == ['"mcp-remote"']
