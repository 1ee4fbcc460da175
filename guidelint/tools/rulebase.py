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

    def qualified_with(self, outcome_name: str, file, project):
        """(tools, span, reference, resolution) for each `mcp__server__tool` reference of
        the file whose resolution has the named outcome (GL101-GL103 differ only there)."""
        from guidelint.tools.load import catalog
        from guidelint.tools.resolve import Outcome, markdown_references, resolve_qualified

        tools = catalog(project)
        wanted = Outcome[outcome_name]
        for span, ref in markdown_references(file, tools, project):
            if ref.kind != "qualified":
                continue
            resolution = resolve_qualified(ref, tools)
            if resolution.outcome is wanted:
                yield tools, span, ref, resolution
