"""GL104 unknown-bare-tool: a bare name that its context marks as a tool, unknown.

Strong contexts (call/invoke/tool next to it, a table column headed Tool, the
lead of a list item in a section headed Tools) report any unknown identifier;
weaker ones (use/run/via, other text in a Tools section) only a near miss of a
known tool; plain prose only a close near miss of an MCP tool written in
snake_case or kebab-case. Retired built-ins (MultiEdit, KillShell, ...) are
reported in any tool context with what replaced them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.rules.gl110_unlisted_server import own_unlisted_server
from guidelint.sources import Derived, FileKind, SourceFile
from guidelint.tools.rulebase import ToolRule, no_server_declared

if TYPE_CHECKING:
    from guidelint.markdown import CodeSpan
    from guidelint.tools.catalog import Catalog
    from guidelint.tools.context import SpanPlaces
    from guidelint.tools.references import Context, Reference

WEAK_CUTOFF = 0.8
PROSE_CUTOFF = 0.85


class UnknownBareTool(ToolRule):
    code = "GL104"
    name = "unknown-bare-tool"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    needs = "code-spans"

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        if no_server_declared(project):
            return  # the catalog would hold no server: nothing to be near
        from guidelint.tools.load import catalog

        tools = catalog(project)
        if not tools.has_servers:
            return
        from guidelint.tools.context import about_another_agent, in_prohibition
        from guidelint.tools.references import Context, never_a_tool
        from guidelint.tools.resolve import markdown_references

        known = tools.all_tool_names()
        ignored = tools.non_tool_names()
        references = markdown_references(file, tools)
        tool_document = any(ref.name in known for _, ref in references)
        own_server = own_unlisted_server(project)
        places = file.derived(PLACES)
        headings = file.markdown.headings
        title = headings[0].text if headings and headings[0].level == 1 else ""
        for span, ref in references:
            if ref.kind == "qualified" or ref.name in known or tools.builtins.known(ref.name):
                continue
            if never_a_tool(ref.name, ignored):
                continue
            context = self._context(span, ref, file, places, tools, tool_document)
            if in_prohibition(span, file.text) or about_another_agent(span, file, title):
                # Kept away from, or another agent's tool: only a close near miss of a
                # tool of this project is a defect there.
                context = min(context, Context.NONE)
            finding = self._judge(file, span, ref, tools, context, own_server)
            if finding is not None:
                yield finding

    def _context(
        self,
        span: CodeSpan,
        ref: Reference,
        file: SourceFile,
        places: SpanPlaces,
        tools: Catalog,
        tool_document: bool,
    ) -> Context:
        """How strongly the span's place marks a tool (rules/GL104.md, Context)."""
        from guidelint.tools.context import mostly_known
        from guidelint.tools.references import Context, context_strength

        def is_tool(name: str) -> bool:
            return is_known_tool(name, tools)

        if retired_name(span, file.text):
            return Context.NONE  # "`old_tool` - replaced by `new_tool`": history, no defect
        run = places.run_of(span)
        if run and mostly_known([s for s in run if s is not span], is_tool):
            return Context.STRONG  # an invented sibling among known tools
        group = places.list_of(span)
        others = [s for s in group if s is not span]
        if len(group) > 2 and mostly_known(others, is_tool):
            return Context.STRONG  # the lead of an item in a list of known tools
        if len(group) > 2 and mostly_known(others, tools.non_tool_names().__contains__):
            return Context.NONE  # a list of arguments: `systemPrompt` is one, not a tool
        if places.in_description(span):
            return Context.NONE  # an argument, field or value of the item's tool
        context = context_strength(span, file.text, tool_document)
        if ref.kind == "call" and ref.args is not None and ref.args.positional:
            # Positional arguments: a function call in prose (tools take a JSON object).
            context = min(context, Context.WEAK)
        return context

    def _judge(
        self,
        file: SourceFile,
        span: CodeSpan,
        ref: Reference,
        tools: Catalog,
        context: Context,
        own_server: str | None = None,
    ) -> Finding | None:
        from guidelint.tools.catalog import close_names
        from guidelint.tools.references import Context
        from guidelint.tools.resolve import fix_note, rewrite_fix, with_servers

        retired = tools.builtins.retired_hint(ref.name)
        if retired and context is Context.STRONG:
            message = f"`{ref.name}` is a retired built-in tool ({retired})"
            return self.finding(file, span.span, message, severity=Severity.WARNING)
        known = tools.all_tool_names()
        # Built-ins are PascalCase: `read()` or `record` is not a misspelt `Read`.
        candidates = known | tools.builtins.current if ref.name[:1].isupper() else known
        if ref.kind == "dotted":
            # A dotted name is a tool only as a near miss of a dotted tool.
            dotted = {name for name in known if "." in name}
            near = close_names(ref.name, dotted, 3, WEAK_CUTOFF) if context else []
            if not near:
                return None
        elif context is Context.STRONG:
            near = close_names(ref.name, candidates, 3, 0.6)
            if not near and own_server:
                # The project's own server lists its tools only when it runs: a name
                # like none of the known tools may well be one of its own.
                return None
        elif ref.name[:1].isupper() and (context is Context.WEAK or ref.kind == "call"):
            # `PodMonitor` is no misspelt `Monitor`: a built-in's near miss is the same length.
            near = [
                n
                for n in close_names(ref.name, candidates, 3, WEAK_CUTOFF)
                if n in known or abs(len(n) - len(ref.name)) <= 2
            ]
            if not near:
                return None
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
        return self.finding(
            file,
            span.span,
            f"`{ref.name}` is not a tool of any known server{with_servers(near, tools)}"
            f"{fix_note(fix)}",
            fix=fix,
        )


RETIRED = re.compile(
    r"\b(replaced by|renamed to|removed|deprecated|superseded|formerly|no longer)\b",
    re.IGNORECASE,
)
OLD_COLUMN = re.compile(r"\b(old|removed|deprecated|former|previous|before)\b", re.IGNORECASE)


def retired_name(span: CodeSpan, text: str) -> bool:
    """A name the doc itself says is gone: `x` - replaced by `y`, an "Old tool" column."""
    header = span.block.table_header
    if header is not None and OLD_COLUMN.search(header):
        return True
    line_end = text.find("\n", span.span.end)
    after = text[span.span.end : line_end if line_end >= 0 else len(text)][:40]
    return bool(RETIRED.search(after))


def is_known_tool(name: str, tools: Catalog) -> bool:
    """A tool of a known server or a built-in; `mcp__srv__tool` when it resolves."""
    if name.startswith("mcp__"):
        server, _, tool = name[len("mcp__") :].partition("__")
        home = tools.server(server)
        return home is not None and bool(home.tools) and tool in (home.tools or {})
    return name in tools.all_tool_names() or tools.builtins.known(name)


def _places(file: SourceFile) -> SpanPlaces:
    from guidelint.tools.context import span_places

    return span_places(file.markdown.code_spans, file.text)


PLACES = Derived("tools.places", _places)
