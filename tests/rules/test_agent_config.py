"""The agent-configuration rules (GL502, GL6xx) on the example workspace with the eight
planted defects of issue #11, its clean twin, and bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check
from guidelint.frontmatter import front_matter, string_items
from guidelint.sources import SourceFile

WORKSPACE = Path(__file__).parents[2] / "examples/workspace"
SELECT = ["GL502", "GL6"]


def check(root: Path) -> list[tuple[str, int, str, str]]:
    report = run_check(CheckOptions(paths=[root], select=SELECT, use_cache=False))
    return sorted((f.path, f.line, f.code, f.message) for f in report.findings)


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


@pytest.fixture
def planted(tmp_path) -> Path:
    root = tmp_path / "workspace"
    shutil.copytree(WORKSPACE, root)
    hook = {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'}
    noop = {"type": "command", "command": "true"}
    edit_json(
        root / ".claude/settings.json",
        lambda d: d.update(
            hooks={
                "PostToolUze": [{"matcher": "Edit", "hooks": [noop]}],
                "PreToolUse": [
                    {"matcher": "Bash", "hooks": [hook]},
                    {
                        "matcher": "MultiEdit|mcp__lab__drop_tables",
                        "hooks": [noop],
                    },
                ],
            }
        ),
    )
    edit_json(
        root / ".mcp.json",
        lambda d: d["mcpServers"].update(
            {
                "db": {"args": ["serve"]},
                "web": {"type": "stdioo", "command": "web-server"},
                "docs": {"type": "http", "url": "docs.example.com/mcp"},
            }
        ),
    )
    claude = root / "CLAUDE.md"
    claude.write_text(
        claude.read_text(encoding="utf-8")
        + "- @docs/setup.md holds the set-up steps.\n"
        + "- Read [the guide](docs/old-guide.md) first.\n",
        encoding="utf-8",
    )
    (root / ".claude/commands").mkdir()
    (root / ".claude/commands/review.md").write_text(
        "---\ndescription: Review the diff\n---\n\n"
        'Call the Agent tool with subagent_type: "code-reviewr" and the diff.\n',
        encoding="utf-8",
    )
    (root / ".claude/skills/slice").mkdir(parents=True)
    (root / ".claude/skills/slice/SKILL.md").write_text(
        "# Slice\n\nPrepare a data slice.\n", encoding="utf-8"
    )
    return root


def test_the_clean_workspace_is_quiet():
    assert check(WORKSPACE) == []


def test_each_planted_defect_is_found_at_its_line(planted):
    found = check(planted)
    settings, mcp = planted / ".claude/settings.json", planted / ".mcp.json"
    expected = [
        (".claude/settings.json", line_of(settings, "PostToolUze"), "GL602", "PostToolUze"),
        (".claude/settings.json", line_of(settings, "guard.sh"), "GL604", "guard.sh"),
        (".claude/settings.json", line_of(settings, "MultiEdit|"), "GL603", "`MultiEdit`"),
        (".claude/settings.json", line_of(settings, "MultiEdit|"), "GL603", "drop_tables"),
        (".mcp.json", line_of(mcp, '"db"'), "GL605", "without `command`"),
        (".mcp.json", line_of(mcp, "stdioo"), "GL605", "did you mean `stdio`"),
        (".mcp.json", line_of(mcp, "docs.example.com"), "GL605", "not an http(s) URL"),
        ("CLAUDE.md", line_of(planted / "CLAUDE.md", "@docs/setup.md"), "GL502", "setup.md"),
        ("CLAUDE.md", line_of(planted / "CLAUDE.md", "old-guide"), "GL502", "old-guide.md"),
        (".claude/commands/review.md", 5, "GL606", "code-reviewr"),
        (".claude/skills/slice/SKILL.md", 1, "GL607", "no front matter"),
    ]
    for path, line, code, part in expected:
        hits = [f for f in found if f[:3] == (path, line, code) and part in f[3]]
        assert hits, f"{code} {part!r} not at {path}:{line}; found {found}"
    assert len(found) == len(expected), found


def test_bad_input_is_one_finding_at_its_line_and_the_rest_is_checked(tmp_path):
    root = tmp_path / "repo"
    (root / "plugins/p/hooks").mkdir(parents=True)
    (root / "plugins/p/.claude-plugin").mkdir(parents=True)
    (root / ".claude/agents").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.guidelint]\n", encoding="utf-8")
    (root / "plugins/p/hooks/hooks.json").write_text('{"hooks": {\n  "Stop": [\n}', "utf-8")
    (root / "plugins/p/.claude-plugin/plugin.json").write_text(
        '{\n  "name": "p",\n  "hooks": "x"\n}\n', "utf-8"
    )
    (root / "plugins/p/.mcp.json").write_text('{"s": {"type": "http"', "utf-8")
    (root / ".claude/settings.json").write_text(
        '{\n  "hooks": {\n    "PreToolUse": [\n      {"matcher": 7, "hooks": []}\n    ]\n  }\n}\n',
        "utf-8",
    )
    (root / ".claude/agents/broken.md").write_text(
        "---\nname: broken\ntools: [Read,\ndescription: x\n---\nBody\n", "utf-8"
    )
    (root / ".claude/agents/fine.md").write_text(
        "---\nname: fine\ndescription: Use when: the user asks\n---\nBody\n", "utf-8"
    )
    found = [(p, line, code) for p, line, code, _ in check(root)]
    assert sorted(found) == [
        (".claude/agents/broken.md", 3, "GL601"),
        (".claude/settings.json", 4, "GL603"),
        ("plugins/p/.claude-plugin/plugin.json", 3, "GL604"),
        ("plugins/p/.mcp.json", 1, "GL605"),
        ("plugins/p/hooks/hooks.json", 3, "GL604"),
    ]


def test_symlinked_hooks_file_leading_outside_is_not_read(tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text('{"hooks": {"PostToolUze": []}}', "utf-8")
    root = tmp_path / "repo"
    (root / "hooks").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.guidelint]\n", encoding="utf-8")
    (root / "hooks/hooks.json").symlink_to(outside)
    assert all(code != "GL602" for _, _, code, _ in check(root))


def _file(text: str) -> SourceFile:
    return SourceFile(Path("/x/agent.md"), "agent.md", text)


def test_front_matter_comments_are_not_values():
    file = _file("---\nname: a\ntools: Bash  # never shell\n---\n")
    entry = front_matter(file).entries["tools"]
    assert [name for name, _ in string_items(entry)] == ["Bash"]


def test_multi_line_flow_list_is_read_with_positions():
    file = _file("---\ntools: [\n Read,\n mcp__x__y\n]\n---\n")
    items = list(string_items(front_matter(file).entries["tools"]))
    assert [(n, file.lines.position(s.start).line) for n, s in items] == [
        ("Read", 3),
        ("mcp__x__y", 4),
    ]
    assert all(file.text[s.start : s.end] == n for n, s in items)


def test_hand_edited_lines_are_read_as_meant():
    file = _file("---\ndescription: Use when: asked\nargument-hint: [id] [reason]\n---\n")
    data = front_matter(file)
    assert data.problems == []
    assert data.get("description") == "Use when: asked"
    assert data.get("argument-hint") == "[id] [reason]"


def test_aliases_are_not_expanded():
    laughs = "---\na: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(20)
    )
    data = front_matter(_file(laughs + "---\n"))
    assert data.problems == [] and "a" in data.entries
