"""GL106 unknown-permission-tool: allow/ask/deny entries of .claude/settings*.json."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from typing import Any

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.sources import SourceFile
from guidelint.spans import Span
from guidelint.tools.rulebase import ToolRule

SETTINGS_FILES = ("settings.json", "settings.local.json")
LISTS = ("allow", "ask", "deny")


class UnknownPermissionTool(ToolRule):
    code = "GL106"
    name = "unknown-permission-tool"
    summary = "A permission entry (allow / ask / deny) names a tool or server that does not exist."
    severity = Severity.ERROR
    file_kinds = frozenset({"json"})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        folder, name = posixpath.split(file.rel)
        return file.kind == "json" and name in SETTINGS_FILES and folder.endswith(".claude")

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.jsonpos import value_spans
        from guidelint.tools.load import catalog
        from guidelint.tools.permissions import check_tool_name

        try:
            _ = file.json  # parse once (cached), to report a syntax error first
        except ValueError as err:  # Claude Code would ignore every permission in it
            pos = getattr(err, "pos", 0)
            reason = getattr(err, "msg", str(err))
            yield self.finding(
                file, Span(pos, pos), f"not valid JSON ({reason}): no permission here takes effect"
            )
            return
        spans = value_spans(file.text)
        permissions = _permissions(file)
        if not spans or permissions is None:
            return  # no permissions: nothing of ours to check
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
                problem = check_tool_name(entry, tools)
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


def _permissions(file: SourceFile) -> dict[str, Any] | None:
    try:
        data = file.json
    except ValueError:
        return None
    permissions = data.get("permissions") if isinstance(data, dict) else None
    return permissions if isinstance(permissions, dict) else None
