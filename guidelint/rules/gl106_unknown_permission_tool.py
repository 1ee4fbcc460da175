"""GL106 unknown-permission-tool: allow/ask/deny entries of .claude/settings*.json."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from typing import Any

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import FileKind, SourceFile
from guidelint.spans import Span
from guidelint.tools.rulebase import ToolRule

SETTINGS_FILES = ("settings.json", "settings.local.json")
LISTS = ("allow", "ask", "deny")


class UnknownPermissionTool(ToolRule):
    code = "GL106"
    name = "unknown-permission-tool"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        folder, name = posixpath.split(file.rel)
        return file.kind == FileKind.JSON and name in SETTINGS_FILES and folder.endswith(".claude")

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.jsonpos import JSON_SPANS, JsonProblem, parse
        from guidelint.tools.load import catalog
        from guidelint.tools.permissions import check_tool_name

        try:
            data = parse(file.text)  # bounded: a deeply nested file is one finding
        except JsonProblem as err:  # Claude Code would ignore every permission in it
            yield self.finding(
                file,
                Span(err.offset, err.offset),
                f"{err.message}: no permission here takes effect",
            )
            return
        permissions = _permissions(data)
        if permissions is None:
            return  # no permissions: nothing of ours to check
        spans = file.derived(JSON_SPANS)
        if not spans:
            return
        tools = catalog(project)
        seen: dict[str, str] = {}
        for kind in LISTS:
            entries = permissions.get(kind)
            if not isinstance(entries, list):
                continue
            for index, entry in enumerate(entries):
                span = spans.get(("permissions", kind, index))
                if span is None:
                    continue
                if not isinstance(entry, str):
                    yield self.finding(
                        file, span, f"{kind}: `{entry!r}` is not a permission rule (a string)"
                    )
                    continue
                problem = check_tool_name(entry, tools, permission=True)
                if problem is not None:
                    yield self.finding(
                        file, span, f"{kind}: {problem.message}", severity=problem.severity
                    )
                if entry in seen:
                    where = "twice in" if seen[entry] == kind else f"in `{seen[entry]}` and in"
                    yield self.finding(
                        file,
                        span,
                        f"`{entry}` is listed {where} `{kind}`: keep one",
                        severity=Severity.WARNING,
                    )
                seen.setdefault(entry, kind)


def _permissions(data: Any) -> dict[str, Any] | None:
    permissions = data.get("permissions") if isinstance(data, dict) else None
    return permissions if isinstance(permissions, dict) else None
