"""Values the agent-configuration rules check against sourced facts: marketplace names
that impersonate Anthropic's (GL616), output styles (GL611, GL622), `model` (GL622)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from guidelint.check import CheckOptions, run_check


def findings(root: Path, select: list[str]) -> list[tuple[str, int, str, str]]:
    report = run_check(CheckOptions(paths=[root], select=select, use_cache=False))
    return sorted((f.path, f.line, f.code, f.message) for f in report.findings)


LOOK_ALIKES = [
    "official-claude-plugins",
    "anthropic-plugins-v2",
    "claude_official",
    "Claude-Marketplace",
    "anthropic-official-tools",
    "cl\u0430ude-tools",  # a Cyrillic a
]
RESERVED = ["claude-plugins-community", "healthcare"]
# the corpora's own names, and the older page's example that the pattern does not block
OTHERS = ["claude-code-workflows", "compound-engineering-plugin", "anthropic-tools-v2"]


def test_marketplace_names(tmp_path):
    """One workspace, one marketplace per folder: look-alikes and reserved names are
    reported at their `name`, the others are silent."""
    names = LOOK_ALIKES + RESERVED + OTHERS
    by_name = {}
    for index, name in enumerate(names):
        folder = tmp_path / f"m{index}/.claude-plugin"
        folder.mkdir(parents=True)
        data = {"name": name, "owner": {"name": "Team"}, "plugins": []}
        (folder / "marketplace.json").write_text(json.dumps(data, indent=2), "utf-8")
        found = findings(tmp_path / f"m{index}", ["GL616"])
        assert [line for _, line, _, _ in found] in ([], [2])
        by_name[name] = found[0][3] if found else None
    assert all("impersonate" in (by_name[name] or "") for name in LOOK_ALIKES), by_name
    assert all("reserved" in (by_name[name] or "") for name in RESERVED), by_name
    assert [by_name[name] for name in OTHERS] == [None] * len(OTHERS)


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")


def test_output_styles(tmp_path):
    """A project style: a misspelt key (GL611), a flag Claude Code reads as unset, a
    plugin-only flag (GL622). A plugin's style may force itself; its clean twin is quiet."""
    write(
        tmp_path,
        ".claude/output-styles/terse.md",
        "---\nname: Terse\nkeep_coding_instructions: true\nforce-for-plugin: true\n"
        "---\n\nBe brief.\n",
    )
    write(
        tmp_path,
        ".claude/output-styles/diagram.md",
        "---\nname: Diagram\nkeep-coding-instructions: yes please\n---\n\nDraw.\n",
    )
    write(tmp_path, "plugins/p/.claude-plugin/plugin.json", '{"name": "p"}\n')
    write(
        tmp_path,
        "plugins/p/output-styles/house.md",
        "---\nname: House\nkeep-coding-instructions: 'true'\nforce-for-plugin: true\n"
        "---\n\nOurs.\n",
    )
    write(
        tmp_path,
        ".claude/output-styles/quiet.md",
        "---\nname: Quiet\nkeep_coding_instructions: false\nforce-for-plugin: false\n"
        "---\n\nHush.\n",
    )
    found = [(p, line, code) for p, line, code, _ in findings(tmp_path, ["GL611", "GL622"])]
    assert found == [
        (".claude/output-styles/diagram.md", 3, "GL622"),
        (".claude/output-styles/terse.md", 3, "GL611"),
        (".claude/output-styles/terse.md", 4, "GL622"),
    ]


def test_model_values(tmp_path):
    """A misspelt alias is reported with the alias meant, in an agent, a skill and a
    command; aliases in any case, ids, ARNs and names near no alias are silent."""
    agent = "---\nname: a{n}\ndescription: d\nmodel: {model}\n---\n\nWork.\n"
    models = {
        "sonet": "sonnet",
        "opus-plan": "opusplan",
        "Haikuu": "haiku",
        "inherit": None,
        "Sonnet": None,
        "fable": None,
        "opus[1m]": None,
        "best": None,
        "claude-fable-6": None,
        "claude-opus-4-8": None,
        "arn:aws:bedrock:us-east-1:1:inference-profile/x": None,
        "my-gateway-deployment": None,
    }
    for n, model in enumerate(models):
        write(tmp_path, f".claude/agents/a{n}.md", agent.format(n=n, model=model))
    write(tmp_path, ".claude/skills/s/SKILL.md", "---\ndescription: d\nmodel: opuss\n---\n\nX\n")
    write(tmp_path, ".claude/commands/c.md", "---\ndescription: d\nmodel: hiaku\n---\n\nX\n")
    found = {path: message for path, _, _, message in findings(tmp_path, ["GL622"])}
    expected = {f".claude/agents/a{n}.md": meant for n, meant in enumerate(models.values())}
    expected |= {".claude/skills/s/SKILL.md": "opus", ".claude/commands/c.md": "haiku"}
    for path, meant in expected.items():
        if meant is None:
            assert path not in found, found[path]
        else:
            assert f"did you mean `{meant}`?" in found[path]


def test_mcp_tool_hooks_resolve_against_the_servers(tmp_path):
    """GL623: a tool the server lacks and a misspelt server are reported with the name
    meant; a server like none declared, or named in `external`, is left alone."""
    snapshot = {"tools": [{"name": "job_status"}, {"name": "job_submit"}]}
    write(tmp_path, ".guidelint/tools/lab.json", json.dumps(snapshot))
    write(tmp_path, "pyproject.toml", '[tool.guidelint.tools]\nexternal = ["lba"]\n')
    hooks = [
        {"type": "mcp_tool", "server": "lab", "tool": "job_statsu"},
        {"type": "mcp_tool", "server": "labb", "tool": "job_status"},
        {"type": "mcp_tool", "server": "lba", "tool": "anything"},
        {"type": "mcp_tool", "server": "scanner", "tool": "scan_patch"},
        {"type": "mcp_tool", "server": "lab", "tool": "job_submit"},
    ]
    settings = {"hooks": {"Stop": [{"hooks": hooks}]}}
    write(tmp_path, "plugins/p/hooks/hooks.json", json.dumps(settings, indent=1))
    write(tmp_path, "plugins/p/.claude-plugin/plugin.json", '{"name": "p"}\n')
    found = [(p, line, m) for p, line, _, m in findings(tmp_path, ["GL623"])]
    assert [(p, line) for p, line, _ in found] == [
        ("plugins/p/hooks/hooks.json", 9),
        ("plugins/p/hooks/hooks.json", 13),
    ], found
    assert "has no tool `job_statsu` (did you mean `job_status`?)" in found[0][2]
    assert "(did you mean `lab`?)" in found[1][2]


def test_an_mcp_tool_hook_resolves_against_a_live_server_over_stdio(tmp_path):
    """GL623 with `--live`: the bundled lab server is started from `.mcp.json` and its
    real `tools/list` decides."""
    lab = Path(__file__).parents[2] / "examples/workspace/server/lab_server.py"
    server = {"command": sys.executable, "args": [str(lab)], "env": {"LAB_ROOT": str(tmp_path)}}
    write(tmp_path, ".mcp.json", json.dumps({"mcpServers": {"lab": server}}))
    hooks = {"Stop": [{"hooks": [{"type": "mcp_tool", "server": "lab", "tool": "job_statsu"}]}]}
    write(tmp_path, ".claude/settings.json", json.dumps({"hooks": hooks}))
    report = run_check(CheckOptions(paths=[tmp_path], select=["GL623"], live=True, use_cache=False))
    (finding,) = report.findings
    assert "has no tool `job_statsu` (did you mean `job_status`?)" in finding.message
