"""GL107 unknown-agent-tool: an agent's front matter `tools:` names an unknown tool."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.rulebase import ToolRule


class UnknownAgentTool(ToolRule):
    code = "GL107"
    name = "unknown-agent-tool"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    scope = "front-matter"

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        from guidelint.catalogue import steers_copilot
        from guidelint.tools.claude_code import names_claude_code_tools

        if file.kind != FileKind.MARKDOWN or not file.text.startswith("---"):
            return False
        if _copilot_agent(file.rel):
            return True  # `<server>/<tool>` names resolve against the same servers
        # Claude Code's agents, commands and skills; not a skill of a Copilot collection,
        # whose `allowed-tools` name Copilot's tools (`ask_user`, `Azure MCP/x`).
        return names_claude_code_tools(file.rel, project) and not steers_copilot(file.rel, project)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.frontmatter import may_name_tools, tool_entries

        if not may_name_tools(file):
            return  # Hugo's title and weight: no YAML composed for them
        from guidelint.tools.load import catalog
        from guidelint.tools.permissions import check_copilot_tool, check_tool_name

        # A Copilot custom agent names tools its own way (`read`, `<server>/<tool>`):
        # its bare names are judged only when the configuration asks for it.
        copilot = _copilot_agent(file.rel)
        aliases = project.config.tools.copilot_tool_aliases
        entries = list(tool_entries(file))
        if not entries:
            return
        tools = catalog(project)
        for key, name, span in entries:
            if copilot:
                problem = check_copilot_tool(name, tools, aliases)
            else:
                problem = check_tool_name(name, tools)
            if problem is not None:
                yield self.finding(
                    file, span, f"{key}: {problem.message}", severity=problem.severity
                )


def _copilot_agent(rel: str) -> bool:
    return rel.endswith(".agent.md") and "/.github/agents/" in f"/{rel}"
