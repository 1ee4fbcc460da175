"""GL603 unknown-hook-matcher: a hook `matcher` that is no valid regex, or names a tool
that does not exist (a retired built-in, an MCP tool its server lacks)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.claude_code import JsonDoc, facts, hooks_table, json_doc, names
from guidelint.tools.rulebase import ToolRule

if TYPE_CHECKING:
    from guidelint.tools.permissions import Problem

LITERAL = re.compile(r"^[A-Za-z0-9_\-]+$")  # a tool name, not a pattern
MATCH_ALL = ("", "*", ".*")


class UnknownHookMatcher(ToolRule):
    code = "GL603"
    name = "unknown-hook-matcher"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        from guidelint.tools.claude_code import is_hooks_file, is_loaded_hooks_file

        # a hooks file of a fixture or an example is loaded by no harness
        return not is_hooks_file(file.rel) or is_loaded_hooks_file(file.rel, project)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        doc = json_doc(file)
        table = hooks_table(file, doc)
        if table is None:
            return  # no hooks, or not a mapping: GL604 reports the shape
        where, hooks = table
        tool_events = names("tool_events")
        for event, groups in hooks.items():
            if not isinstance(groups, list):
                continue
            for index, group in enumerate(groups):
                if not isinstance(group, dict) or "matcher" not in group:
                    continue
                path = (*where, event, index, "matcher")
                yield from self._matcher(
                    file, project, doc, path, group["matcher"], event in tool_events
                )

    def _matcher(
        self,
        file: SourceFile,
        project: Project,
        doc: JsonDoc,
        path: tuple,
        matcher: Any,
        on_tools: bool,
    ) -> Iterator[Finding]:
        span = doc.span(file, path)
        if not isinstance(matcher, str):
            yield self.finding(
                file, span, f"`matcher` must be a string (a tool-name pattern), not `{matcher!r}`"
            )
            return
        if matcher in MATCH_ALL:
            return
        try:
            re.compile(matcher)
        except re.error as err:
            yield self.finding(file, span, f"`matcher` `{matcher}` is not a valid regex ({err})")
            return
        if not on_tools:
            return  # SessionStart's `startup|resume`, PreCompact's `manual|auto`: not tools
        from guidelint.tools.load import catalog

        tools = catalog(project)
        retired = facts()["retired_hook_matchers"]
        alternatives = [name.strip() for name in matcher.split("|")]
        check_tool_name = _checked_once(tools)
        kept_for_old_releases = _has_live_alternative(alternatives, retired, tools, check_tool_name)
        for name in alternatives:
            if not LITERAL.match(name):
                continue  # a pattern (`mcp__github__.*`, `Notebook.*`): any tool may match
            if kept_for_old_releases and _retired(name, retired, tools):
                continue  # see _has_live_alternative
            if name in retired:
                yield self.finding(file, span, f"matcher `{name}`: {retired[name]}")
                continue
            problem = check_tool_name(name)
            if problem is not None:
                yield self.finding(
                    file,
                    span,
                    f"matcher {problem.message}: the hook never fires for it",
                    severity=problem.severity,
                )


def _checked_once(tools: Any) -> Callable[[str], Problem | None]:
    """`check_tool_name` against `tools`, each name looked up once per matcher: both
    `_has_live_alternative` and the findings ask it (each a did-you-mean)."""
    from guidelint.tools.permissions import check_tool_name

    answers: dict[str, Problem | None] = {}

    def check(name: str) -> Problem | None:
        if name not in answers:
            answers[name] = check_tool_name(name, tools)
        return answers[name]

    return check


def _has_live_alternative(
    alternatives: list[str],
    retired: dict,
    tools: Any,
    check_tool_name: Callable[[str], Problem | None],
) -> bool:
    """Whether the matcher has an alternative that fires today (a tool of the catalog,
    or a pattern). Then a retired built-in beside it (`Edit|Write|MultiEdit`) is kept
    for older Claude Code releases, where that tool still runs: it matches nothing
    now and costs nothing, and the hook still fires for the live ones. A matcher of
    retired tools only never fires, and stays an error."""
    for name in alternatives:
        if not LITERAL.match(name):
            return True
        if not _retired(name, retired, tools) and check_tool_name(name) is None:
            return True
    return False


def _retired(name: str, retired: dict, tools: Any) -> bool:
    """A tool Claude Code had and no longer has (`MultiEdit`), or a hook name it no
    longer sends (`Task`)."""
    return name in retired or bool(tools.builtins.retired_hint(name))
