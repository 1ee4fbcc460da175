"""GL104 unknown-bare-tool: a bare name that its context marks as a tool, unknown.

Strong contexts (call/invoke/tool next to it, a table column headed Tool, the
lead of a list item in a section headed Tools) report any unknown identifier;
weaker ones (use/run/via, other text in a Tools section) only a near miss of a
known tool; plain prose only a close near miss of an MCP tool written in
snake_case or kebab-case. Retired built-ins (MultiEdit, KillShell, ...) are
reported in any tool context with what replaced them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import SourceFile
from guidelint.tools.rulebase import ToolRule

if TYPE_CHECKING:
    from guidelint.markdown import CodeSpan
    from guidelint.tools.catalog import Catalog
    from guidelint.tools.references import Reference

WEAK_CUTOFF = 0.8
PROSE_CUTOFF = 0.85


class UnknownBareTool(ToolRule):
    code = "GL104"
    name = "unknown-bare-tool"
    summary = "A bare name used as a tool (call `x`, a Tools list or table) is no known tool."
    severity = Severity.ERROR
    fixable = True
    file_kinds = frozenset({"markdown"})

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.load import catalog
        from guidelint.tools.references import never_a_tool
        from guidelint.tools.resolve import markdown_references

        tools = catalog(project)
        if not tools.has_servers:
            return
        known = tools.all_tool_names()
        ignored = tools.non_tool_names()
        references = markdown_references(file, tools)
        tool_document = any(ref.name in known for _, ref in references)
        for span, ref in references:
            if ref.kind == "qualified" or ref.name in known or tools.builtins.known(ref.name):
                continue
            if never_a_tool(ref.name, ignored):
                continue
            finding = self._judge(file, span, ref, tools, tool_document)
            if finding is not None:
                yield finding

    def _judge(
        self,
        file: SourceFile,
        span: CodeSpan,
        ref: Reference,
        tools: Catalog,
        tool_document: bool,
    ) -> Finding | None:
        from guidelint.tools.catalog import close_names
        from guidelint.tools.references import Context, context_strength
        from guidelint.tools.resolve import did_you_mean, fix_note, rewrite_fix

        context = context_strength(span, file.text, tool_document)
        if ref.kind == "call" and ref.args is not None and ref.args.positional:
            # Positional arguments: a function call in prose (tools take a JSON object).
            context = min(context, Context.WEAK)
        retired = tools.builtins.retired_hint(ref.name)
        if retired and context is Context.STRONG:
            message = f"`{ref.name}` is a retired built-in tool ({retired})"
            return self.finding(file, span.span, message, severity=Severity.WARNING)
        known = tools.all_tool_names()
        # Built-ins are PascalCase: `read()` or `record` is not a misspelt `Read`.
        candidates = known | tools.builtins.current if ref.name[:1].isupper() else known
        if context is Context.STRONG:
            near = close_names(ref.name, candidates, 3, 0.6)
        elif context is Context.WEAK or ref.kind == "call":
            near = close_names(ref.name, candidates, 3, WEAK_CUTOFF)
            if not near:
                return None
        elif "_" in ref.name or "-" in ref.name:
            near = close_names(ref.name, known, 3, PROSE_CUTOFF)
            if not near:
                return None
        else:
            return None
        fix = rewrite_fix(file, span, ref, near[0], "the closest tool") if len(near) == 1 else None
        servers = {t.server for n in near for t in tools.tools_named(n)}
        on = f" on `{next(iter(servers))}`" if len(servers) == 1 else ""
        return self.finding(
            file,
            span.span,
            f"`{ref.name}` is not a tool of any known server"
            f"{did_you_mean(near)}{on}{fix_note(fix)}",
            fix=fix,
        )
