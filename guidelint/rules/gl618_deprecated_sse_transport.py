"""GL618 deprecated-sse-transport: an MCP server reached over the HTTP+SSE transport,
which the MCP specification replaced with Streamable HTTP (2025-03-26) and Claude Code
documents as deprecated."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.findings import Finding, Severity
from guidelint.sources import FileKind
from guidelint.tools.rulebase import ServerFileRule

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile


class DeprecatedSseTransport(ServerFileRule):
    code = "GL618"
    name = "deprecated-sse-transport"
    severity = Severity.WARNING
    file_kinds = frozenset({FileKind.JSON})

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.mcp_files import mcp_facts, server_file

        servers = server_file(file, project)
        if servers is None or servers.harness not in mcp_facts()["sse"]["transports"]:
            return
        for name, entry, path in servers.servers():
            if entry.get("type") == "sse":
                span, written = servers.doc.span(file, (*path, "type")), '`"type": "sse"`'
                fix = '`"type": "http"`'
            elif servers.harness == "gemini" and "url" in entry and "httpUrl" not in entry:
                if "type" in entry:
                    continue  # a `type` of its own says which transport `url` is
                span, written, fix = servers.doc.span(file, (*path, "url")), "`url`", "`httpUrl`"
            else:
                continue
            yield self.finding(
                file,
                span,
                f"server `{name}` uses the SSE transport ({written}), which the MCP "
                "specification replaced with Streamable HTTP in 2025-03-26 and Claude Code "
                f"documents as deprecated; if the server serves Streamable HTTP, use {fix} "
                "(often the same host at `/mcp` rather than `/sse`)",
            )
