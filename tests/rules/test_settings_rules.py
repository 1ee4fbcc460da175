"""GL620 ineffective-permission-rule, GL621 invalid-setting and GL622
invalid-front-matter-value on scratch projects: the cases their pages do not show
(scopes, anchors that exist, bad input, values that ask for the default)."""

from __future__ import annotations

import json
from pathlib import Path

from guidelint.check import CheckOptions, run_check


def findings(root: Path, code: str) -> list[tuple[str, int, str]]:
    report = run_check(CheckOptions(paths=[root], select=[code], use_cache=False))
    return sorted((f.path, f.line, f.message) for f in report.findings)


def settings(root: Path, data: object, name: str = "settings.json") -> Path:
    path = root / ".claude" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    text = data if isinstance(data, str) else json.dumps(data, indent=2)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_gl620_reports_a_slash_path_outside_the_project_with_the_absolute_form(tmp_path):
    settings(tmp_path, {"permissions": {"deny": ["Read(/etc/secrets/**)", "Edit(~/x)"]}})
    [(path, line, message)] = findings(tmp_path, "GL620")
    assert (path, line) == (".claude/settings.json", 4)
    assert "did you mean `Read(//etc/secrets/**)`?" in message


def test_gl620_leaves_paths_that_exist_beside_the_project_or_the_settings_file(tmp_path):
    write(tmp_path, "src/app.py", "x = 1\n")
    write(tmp_path, ".claude/hooks/guard.sh", "exit 0\n")
    rules = ["Edit(/src/**)", "Read(/hooks/*)", "Read(//tmp/**)", "Read(./.env)", "Read(/*.md)"]
    settings(tmp_path, {"permissions": {"allow": rules}}, "settings.local.json")
    assert findings(tmp_path, "GL620") == []


def test_gl620_names_the_rule_meant_for_unconsulted_tools(tmp_path):
    rules = ["Glob(docs/**)", "NotebookEdit(*.ipynb)", "Write", "Write(*)", "Bash(ls /tmp)"]
    settings(tmp_path, {"permissions": {"ask": rules}})
    messages = [message for _, _, message in findings(tmp_path, "GL620")]
    assert len(messages) == 2
    assert "did you mean `Read(docs/**)`?" in messages[0]
    assert "did you mean `Edit(*.ipynb)`?" in messages[1]


def test_settings_rules_are_silent_on_a_broken_file_and_odd_shapes(tmp_path):
    settings(tmp_path, '{"permissions": {"allow": ["Read(/tmp/**)"')
    assert findings(tmp_path, "GL620") == []
    assert findings(tmp_path, "GL621") == []
    settings(tmp_path, {"permissions": {"allow": "Read(/tmp/**)", "deny": [3, None]}})
    assert findings(tmp_path, "GL620") == []
    settings(tmp_path, ["not", "an", "object"])
    assert findings(tmp_path, "GL621") == []


def test_gl621_reads_the_scope_of_each_file(tmp_path):
    data = {"autoMemoryDirectory": "~/memory", "footerLinksRegexes": []}
    settings(tmp_path, data)
    settings(tmp_path, data, "settings.local.json")
    found = findings(tmp_path, "GL621")
    assert [(path, line) for path, line, _ in found] == [
        (".claude/settings.json", 2),
        (".claude/settings.json", 3),
        (".claude/settings.local.json", 3),
    ]
    assert "reads it from user, local or managed settings only" in found[0][2]


def test_gl621_managed_and_user_only_keys_in_a_local_file(tmp_path):
    data = {"enableArtifact": True, "requiredMinimumVersion": "2.1.0", "verbose": True}
    settings(tmp_path, data, "settings.local.json")
    messages = [message for _, _, message in findings(tmp_path, "GL621")]
    assert messages == [
        "`enableArtifact` is ignored in local settings: Claude Code reads it from user and "
        "managed settings only",
        "`requiredMinimumVersion` is ignored in local settings: Claude Code reads it from "
        "managed settings only",
    ]


def test_gl621_reports_only_near_spellings_of_known_keys(tmp_path):
    settings(
        tmp_path,
        {
            "enableAllProjectMCPServers": True,
            "brandNewSetting2027": 1,
            "permissions": {"additionalDirectory": ["../x"]},
            "$schema": "https://json.schemastore.org/claude-code-settings.json",
            "env": {"FOO": "1"},
            "theme": "dark",
            "feedbackSurveyRate": 1,
        },
    )
    messages = [message for _, _, message in findings(tmp_path, "GL621")]
    assert messages == [
        "Claude Code does not read `enableAllProjectMCPServers`, so this setting is ignored "
        "(did you mean `enableAllProjectMcpServers`?)",
        "Claude Code does not read `permissions.additionalDirectory`, so this setting is "
        "ignored (did you mean `permissions.additionalDirectories`?)",
    ]


def test_gl621_types_and_values(tmp_path):
    settings(
        tmp_path,
        {"includeCoAuthoredBy": "false", "effortLevel": "hgh", "cleanupPeriodDays": 30.5},
    )
    messages = [message for _, _, message in findings(tmp_path, "GL621")]
    assert messages[0] == "`includeCoAuthoredBy` must be a boolean, not a string"
    assert "(did you mean `high`?)" in messages[1]
    assert messages[2] == "`cleanupPeriodDays` must be an integer, not a number"


AGENT = """---
name: builder
description: Build the project. Use when asked to build.
{extra}
---

Build it.
"""


def test_gl622_reads_lists_strings_and_empty_values(tmp_path):
    extra = "tools:\n  - Read\n  - Bash\ndisallowedTools: [Bash, Write]\nmemory: team\neffort:"
    write(tmp_path, ".claude/agents/builder.md", AGENT.format(extra=extra))
    messages = [message for _, _, message in findings(tmp_path, "GL622")]
    assert len(messages) == 2
    assert messages[0].startswith("`Bash` is in both `tools` and `disallowedTools`")
    assert messages[1].startswith("`memory` is `team`, not one of `user`, `project`, `local`")


def test_gl622_maxturns_and_background(tmp_path):
    write(tmp_path, ".claude/agents/a.md", AGENT.format(extra="maxTurns: 0\nbackground: 'no'"))
    write(tmp_path, ".claude/agents/b.md", AGENT.format(extra="maxTurns: 25\nbackground: true"))
    messages = [(path, message) for path, _, message in findings(tmp_path, "GL622")]
    assert messages == [
        (".claude/agents/a.md", "`maxTurns` must be a whole number above 0, not `0`"),
        (".claude/agents/a.md", '`background` must be `true` or `false`, not `"no"`'),
    ]


def test_gl622_preloaded_skills_of_plugins_and_the_user_are_not_reported(tmp_path):
    write(tmp_path, "skills/deploy-app/SKILL.md", "---\nname: deploy-app\ndescription: d\n---\n")
    extra = "skills: deploy-ap, deploy-app, tools:deploy-ap, my-own-skill"
    write(tmp_path, ".claude/agents/builder.md", AGENT.format(extra=extra))
    [(_, _, message)] = findings(tmp_path, "GL622")
    assert message.endswith("(did you mean `deploy-app`?)")


def test_gl622_long_descriptions_only_in_shared_skills(tmp_path):
    long = "Use when " + "x" * 1100
    skill = f"---\nname: big\ndescription: {long}\n---\n\nBody.\n"
    write(tmp_path, "skills/big/SKILL.md", skill)
    write(tmp_path, ".claude/skills/big/SKILL.md", skill)
    found = findings(tmp_path, "GL622")
    assert [path for path, _, _ in found] == ["skills/big/SKILL.md"]
    assert "1,109 characters" in found[0][2]


def test_gl622_project_skills_past_the_listing_cap_and_a_raised_cap(tmp_path):
    description = "Use when " + "y" * 1400
    skill = f"---\ndescription: {description}\nwhen_to_use: {'z' * 200}\n---\n\nBody.\n"
    write(tmp_path, ".claude/skills/big/SKILL.md", skill)
    [(path, line, message)] = findings(tmp_path, "GL622")
    assert (path, line) == (".claude/skills/big/SKILL.md", 2)
    assert message.startswith("the description and `when_to_use` run to 1,609 characters")
    assert "lists 1,536 of them" in message
    settings(tmp_path, {"skillListingMaxDescChars": 2000})
    assert findings(tmp_path, "GL622") == []
    hidden = skill.replace("---\n\n", "disable-model-invocation: true\n---\n\n")
    write(tmp_path, ".claude/skills/hidden/SKILL.md", hidden)
    settings(tmp_path, {})
    assert [path for path, _, _ in findings(tmp_path, "GL622")] == [".claude/skills/big/SKILL.md"]
