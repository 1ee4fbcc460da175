"""The tool-reference rules (GL1xx) on the eight real agent repositories, with the
bundled catalog on (../shared/corpus/agent-repos; docs/TOOLS.md records precision).

Every finding in the snapshot was reviewed by hand. The second test declares, in a
copy, the published servers that two repositories' docs name (Context7, Chrome
DevTools) the way their users register them, so their references resolve against
the catalog.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from guidelint.config import Config
from guidelint.discovery import discover
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from guidelint.tools.config import ToolsConfig
from tests.rules.test_agent_repos import CORPUS, lay_out

SNAPSHOT = Path(__file__).parents[1] / "fixtures" / "corpus" / "agent-repos-tools-findings.json"
UPDATE = os.environ.get("GUIDELINT_UPDATE_CORPUS") == "1"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.corpus("agent-repos"),
]


def tool_findings(root: Path, external: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    config = Config(
        include=["**/*.md", "**/*.json"],
        respect_gitignore=False,
        select=["GL1"],
        tools=ToolsConfig(external=list(external)),
    )
    project = Project(root, config)
    found = Engine(project, build_selection(config)).check_files(discover(root, config))
    return [f"{f.path}:{f.line}: {f.code} {f.message}" for f in found], project.warnings


def test_tool_findings_match_the_reviewed_snapshot(tmp_path):
    repos = sorted(p for p in CORPUS.iterdir() if p.is_dir())
    actual = {repo.name: tool_findings(lay_out(repo, tmp_path))[0] for repo in repos}
    if UPDATE:
        SNAPSHOT.write_text(json.dumps(actual, indent=2, ensure_ascii=False) + "\n")
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    for name in sorted(set(expected) | set(actual)):
        added = sorted(set(actual.get(name, [])) - set(expected.get(name, [])))
        removed = sorted(set(expected.get(name, [])) - set(actual.get(name, [])))
        assert not (added or removed), f"{name}: + {added} - {removed}"


DECLARED = {
    "EveryInc__compound-engineering-plugin": {
        "context7": {"command": "npx", "args": ["-y", "@upstash/context7-mcp"]}
    },
    "triggerdotdev__trigger.dev": {
        "chrome-devtools": {"command": "npx", "args": ["chrome-devtools-mcp@latest"]}
    },
}


@pytest.mark.parametrize("repo", sorted(DECLARED))
def test_references_to_catalogued_servers_resolve_and_a_wrong_prefix_is_found(repo, tmp_path):
    root = lay_out(CORPUS / repo, tmp_path)
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": DECLARED[repo]}))
    # Registered outside the repository: trigger.dev's server by its CLI, and
    # github_inline_comment by Anthropic's code-review GitHub Action.
    external = ("trigger", "github_inline_comment")
    found, notes = tool_findings(root, external)
    assert found == []  # every mcp__context7__ / mcp__chrome-devtools__ reference is real
    assert any("in guidelint's catalog" in note for note in notes)
    server = next(iter(DECLARED[repo]))
    tool = {"context7": "resolve-library-id", "chrome-devtools": "new_page"}[server]
    (root / "DRIFT.md").write_text(f"# Docs\n\nCall `mcp__docs__{tool}` first.\n")
    found, _ = tool_findings(root, external)
    assert found == [
        f"DRIFT.md:3: GL102 no MCP server `docs` is declared (did you mean "
        f"`mcp__{server}__{tool}`?) [--unsafe-fixes: rewrite `mcp__docs__{tool}` to "
        f"`mcp__{server}__{tool}`]"
    ]
