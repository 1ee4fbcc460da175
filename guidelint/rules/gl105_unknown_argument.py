"""GL105 unknown-argument: a call form's argument names checked against inputSchema."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.rulebase import ToolRule, no_server_declared

if TYPE_CHECKING:
    from guidelint.markdown import CodeSpan
    from guidelint.tools.catalog import Catalog, Tool
    from guidelint.tools.references import CallArgs, Reference


class UnknownArgument(ToolRule):
    code = "GL105"
    name = "unknown-argument"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    needs = "code-spans"

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        if no_server_declared(project):
            return  # a schema is a server's tool's: none here (no catalog built)
        from guidelint.tools.load import catalog
        from guidelint.tools.resolve import markdown_references

        tools = catalog(project)
        for span, ref in markdown_references(file, tools):
            if ref.args is None:
                continue
            tool = _tool_for(ref, tools)
            if tool is None or not tool.input_schema:
                continue
            yield from self._arguments(file, span, ref.args, tool)

    def _arguments(
        self, file: SourceFile, span: CodeSpan, args: CallArgs, tool: Tool
    ) -> Iterator[Finding]:
        from guidelint.tools.catalog import close_names
        from guidelint.tools.resolve import did_you_mean

        properties = tool.properties
        if not tool.open_schema:
            for name in args.keywords:
                if name not in properties:
                    hint = did_you_mean(close_names(name, properties, 1))
                    listed = ", ".join(f"`{p}`" for p in properties) or "none"
                    yield self.finding(
                        file,
                        span.span,
                        f"`{tool.name}` on `{tool.server}` has no argument `{name}`"
                        f"{hint or f' (it takes: {listed})'}",
                    )
        if args.open or args.positional or not args.keywords:
            return  # `f()`, `...`, *args, **kwargs, positional values: not a complete call
        missing = [r for r in tool.required if r not in args.keywords]
        if missing:
            names = ", ".join(f"`{m}`" for m in missing)
            yield self.finding(
                file,
                span.span,
                f"`{tool.name}` on `{tool.server}` requires {names}, missing from this call",
                severity=Severity.WARNING,
            )


def _tool_for(ref: Reference, tools: Catalog) -> Tool | None:
    """The one tool a call form names, or None when unknown or ambiguous."""
    from guidelint.tools.resolve import ResolutionKind, resolve_qualified

    if ref.kind == "qualified":
        resolution = resolve_qualified(ref, tools)
        return resolution.tool if resolution.kind is ResolutionKind.RESOLVED else None
    matches = tools.tools_named(ref.name)
    return matches[0] if len(matches) == 1 else None
