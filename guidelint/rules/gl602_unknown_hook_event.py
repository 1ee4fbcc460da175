"""GL602 unknown-hook-event: a `hooks` key that is no Claude Code hook event."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.catalog import close_names
from guidelint.tools.claude_code import did_you_mean, hooks_table, json_doc, names


class UnknownHookEvent(Rule):
    code = "GL602"
    name = "unknown-hook-event"
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
        events = names("hook_events")
        for event in hooks:
            if event in events or (not where and event == "description"):
                continue
            span = doc.key_span(file, (*where, event))
            hint = did_you_mean(event, events)
            # A misspelling is certainly wrong; a name we do not know may be newer than us.
            severity = Severity.ERROR if close_names(event, events, n=1) else Severity.WARNING
            yield self.finding(
                file,
                span,
                f"`{event}` is not a Claude Code hook event{hint}; its hooks never run",
                severity=severity,
            )
