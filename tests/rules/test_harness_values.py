"""Values the agent-configuration rules check against sourced facts: marketplace names
that impersonate Anthropic's (GL616), output styles (GL611, GL622), `model` (GL622)."""

from __future__ import annotations

import json
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
