"""What every GL1xx rule shares: the files its findings depend on, for the cache."""

from __future__ import annotations

from guidelint.rules.base import Rule


class ToolRule(Rule):
    """A rule whose findings depend on `.mcp.json` and the snapshots, not only the file."""

    def cache_inputs(self, project) -> list[str]:
        tools = project.config.tools
        inputs = [tools.mcp_config]
        folder = project.root / tools.snapshot_dir
        if folder.is_dir():
            inputs += [f"{tools.snapshot_dir}/{p.name}" for p in sorted(folder.glob("*.json"))]
        inputs += [s.snapshot for s in tools.servers.values() if s.snapshot]
        return inputs
