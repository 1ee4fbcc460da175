"""GL623 unknown-hook-tool: an `mcp_tool` hook names a tool its server does not have, or
a server that is a misspelling of one the repository declares: the hook fails each time
its event fires."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.rulebase import ToolRule


class UnknownHookTool(ToolRule):
    code = "GL623"
    name = "unknown-hook-tool"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        from guidelint.tools.claude_code import (
            is_loaded_hooks_file,
            is_plugin_manifest,
            is_settings_file,
        )

        rel = file.rel
        return (
            file.kind == FileKind.JSON
            and '"mcp_tool"' in file.text  # no catalog is built for a file without one
            and (
                is_settings_file(rel)
                or is_plugin_manifest(rel)
                or is_loaded_hooks_file(rel, project)
            )
        )

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.claude_code import hooks_table, json_doc
        from guidelint.tools.load import catalog

        doc = json_doc(file)
        if doc.problem is not None:
            return  # GL604 (or GL106 for settings) reports a file that cannot be read
        table = hooks_table(file, doc)
        if table is None:
            return
        where, hooks = table
        tools = catalog(project)
        external = set(project.config.tools.external)
        for path, entry in _mcp_tool_hooks(where, hooks):
            server, tool = entry.get("server"), entry.get("tool")
            if not isinstance(server, str) or not isinstance(tool, str):
                continue  # GL604: a hook without them
            if server in external:
                continue  # registered outside the repository: its tools are not known
            problem = _problem(server, tool, tools)
            if problem is not None:
                key, message = problem
                yield self.finding(file, doc.span(file, (*path, key)), message)


def _mcp_tool_hooks(where: tuple, hooks: dict[str, Any]) -> Iterator[tuple[tuple, dict]]:
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for index, group in enumerate(groups):
            entries = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(entries, list):
                continue
            for number, entry in enumerate(entries):
                if isinstance(entry, dict) and entry.get("type") == "mcp_tool":
                    yield (*where, event, index, "hooks", number), entry


def _problem(server: str, tool: str, tools: Any) -> tuple[str, str] | None:
    """(the key to point at, the message) for a hook whose server or tool is wrong."""
    from guidelint.tools.catalog import close_names
    from guidelint.tools.references import Reference
    from guidelint.tools.resolve import ResolutionKind, did_you_mean, resolve_qualified

    if tools.server(server) is None:
        # A server declared nowhere here may be the user's own (`claude mcp add`): only a
        # near spelling of a declared one is reported.
        near = close_names(server, tools.servers, 1)
        if not near:
            return None
        return "server", (
            f"`mcp_tool` hook names server `{server}`, which is not declared here "
            f"(did you mean `{near[0]}`?): the hook fails when its event fires"
        )
    resolution = resolve_qualified(Reference("qualified", tool, server, None, tool), tools, False)
    if resolution.kind is ResolutionKind.UNKNOWN_TOOL:
        hint = did_you_mean(s.rsplit("__", 1)[-1] for s in resolution.suggestions)
        return "tool", (
            f"server `{server}` has no tool `{tool}`{hint}: the hook fails when its event fires"
        )
    if resolution.kind is ResolutionKind.WRONG_SERVER:
        homes = " or ".join(f"`{t.server}`" for t in resolution.others)
        return "server", f"`{tool}` is not on server `{server}` but on {homes}"
    return None
