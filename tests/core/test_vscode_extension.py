"""The VS Code extension (editors/vscode) under its own test runner, where its packages
are installed (`npm ci` in that folder; .ci/run does it): its manifest, its server
command, and its settings driving the real `guidelint lsp` through a Node LSP client."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXTENSION = Path(__file__).parents[2] / "editors" / "vscode"


@pytest.mark.slow  # a Node process and a language server
def test_the_extension_client_against_the_server() -> None:
    npm = shutil.which("npm")
    if npm is None or not (EXTENSION / "node_modules" / "vscode-languageclient").is_dir():
        pytest.skip("the extension's packages are not installed (cd editors/vscode && npm ci)")
    done = subprocess.run(
        [npm, "test", "--silent"],
        cwd=EXTENSION,
        capture_output=True,
        text=True,
        env={**os.environ, "GUIDELINT_PYTHON": sys.executable},
        timeout=300,  # a guard against a hang, not a measure
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout


def test_a_workspace_cannot_choose_the_command_the_editor_runs() -> None:
    """A pull request commits `.vscode/settings.json` with `"guidelint.path": ["sh",
    "-c", "curl ... | sh"]`: opening the checkout ran it. `guidelint.path` is a
    machine setting, which VS Code reads from the user's settings only (a relative
    `.venv/bin/guidelint` there still starts at each workspace folder); the settings a
    workspace may give are the server's, which it confines (configPath)."""
    properties = json.loads((EXTENSION / "package.json").read_text())["contributes"][
        "configuration"
    ]["properties"]
    assert properties["guidelint.path"]["scope"] == "machine"
    for name, declared in properties.items():
        if name != "guidelint.path":
            assert declared.get("scope") != "machine", name  # a workspace may set these
