"""GL108 stale-snapshot: in live mode, a committed snapshot differs from the server."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.rulebase import ToolRule, server_key


class StaleSnapshot(ToolRule):
    code = "GL108"
    name = "stale-snapshot"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        return file.kind == FileKind.JSON and file.rel == project.config.tools.mcp_config

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.diff import diff_servers
        from guidelint.tools.load import sources

        if not project.live:
            return
        state = sources(project)
        for name, snapshot in sorted(state.snapshots.items()):
            live = state.catalog.servers.get(name)
            if live is None or live.origin != "live":
                continue
            change = diff_servers(snapshot, live)
            if change.empty:
                continue
            yield self.finding(
                file,
                server_key(file, name),
                f"snapshot {snapshot.origin} of server `{name}` is stale ({change.summary()}); "
                f"run `guidelint tools snapshot --server {name}`",
            )
