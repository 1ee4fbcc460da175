"""GL110 unlisted-server: a server of `.mcp.json` whose tool list is nowhere to be had."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.rulebase import ToolRule, server_key


class UnlistedServer(ToolRule):
    code = "GL110"
    name = "unlisted-server"
    severity = Severity.WARNING
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        return file.kind == FileKind.JSON and file.rel == project.config.tools.mcp_config

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.load import sources, unlisted_message

        state = sources(project)
        for name in sorted(state.mcp_servers):
            server = state.catalog.servers.get(name)
            if server is None or server.known or server.origin == "external":
                continue
            yield self.finding(file, server_key(file, name), unlisted_message(name))
