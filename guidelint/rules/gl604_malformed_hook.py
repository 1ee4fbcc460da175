"""GL604 malformed-hook: a hook entry Claude Code cannot run as written: the wrong
shape, an unknown `type`, a missing `command`/`url`/`prompt`, a script that is not in
the repository, a timeout that is no positive number of seconds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile
from guidelint.spans import Span
from guidelint.tools.claude_code import (
    JsonDoc,
    did_you_mean,
    facts,
    hooks_path,
    is_loaded_hooks_file,
    is_plugin_manifest,
    is_settings_file,
    json_doc,
    plugin_root,
    point,
    script_paths,
)

# Longer than an hour is almost always milliseconds written for seconds.
PLAUSIBLE_TIMEOUT = 3600


class MalformedHook(Rule):
    code = "GL604"
    name = "malformed-hook"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        rel = file.rel
        return file.kind == FileKind.JSON and (
            is_settings_file(rel) or is_plugin_manifest(rel) or is_loaded_hooks_file(rel, project)
        )

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        doc = json_doc(file)
        if doc.problem is not None:
            if not is_settings_file(file.rel):  # GL106 reports a broken settings file
                offset, message = doc.problem
                yield self.finding(file, point(file, offset), f"{message}: no hook here runs")
            return
        where = hooks_path(file, doc)
        if where is None:
            return
        hooks = doc.data.get("hooks") if where else doc.data
        if is_plugin_manifest(file.rel) and isinstance(hooks, (str, list)):
            for index, target in enumerate([hooks] if isinstance(hooks, str) else hooks):
                span = doc.span(file, ("hooks",) if isinstance(hooks, str) else ("hooks", index))
                yield from self._hooks_file(file, project, span, target)
            return
        if not isinstance(hooks, dict):
            yield self.finding(
                file, doc.span(file, where), "`hooks` must be an object of events; no hook runs"
            )
            return
        plugin = None if is_settings_file(file.rel) else plugin_root(file.rel)
        for event, groups in hooks.items():
            if not where and event == "description":
                continue
            path = (*where, event)
            if not isinstance(groups, list):
                yield self.finding(
                    file, doc.span(file, path), f"`{event}` must be a list of matcher groups"
                )
                continue
            for index, group in enumerate(groups):
                yield from self._group(file, project, doc, (*path, index), group, plugin)

    def _hooks_file(
        self, file: SourceFile, project: Project, span: Span, target: Any
    ) -> Iterator[Finding]:
        """plugin.json's `hooks` may name hooks files instead of holding the hooks."""
        if not isinstance(target, str):
            yield self.finding(file, span, "`hooks` must be an object, a path or a list of paths")
            return
        rel = _plugin_path(plugin_root(file.rel), target)
        if rel is not None and not project.exists(rel):
            yield self.finding(file, span, f"`hooks` names `{target}`, which does not exist")

    def _group(
        self,
        file: SourceFile,
        project: Project,
        doc: JsonDoc,
        path: tuple,
        group: Any,
        plugin: str | None,
    ) -> Iterator[Finding]:
        if not isinstance(group, dict):
            yield self.finding(
                file, doc.span(file, path), "a matcher group must be an object with `hooks`"
            )
            return
        entries = group.get("hooks")
        if not isinstance(entries, list):
            what = "has no `hooks` list" if entries is None else "`hooks` must be a list"
            yield self.finding(file, doc.span(file, path), f"this matcher group {what}")
            return
        for index, entry in enumerate(entries):
            yield from self._entry(file, project, doc, (*path, "hooks", index), entry, plugin)

    def _entry(
        self,
        file: SourceFile,
        project: Project,
        doc: JsonDoc,
        path: tuple,
        entry: Any,
        plugin: str | None,
    ) -> Iterator[Finding]:
        if not isinstance(entry, dict):
            yield self.finding(file, doc.span(file, path), "a hook must be an object with `type`")
            return
        types = facts()["hook_types"]
        kind = entry.get("type")
        if kind not in types["names"]:
            shown = "no `type`" if kind is None else f"`type` `{kind}`"
            hint = did_you_mean(kind, types["names"]) if isinstance(kind, str) else ""
            known = ", ".join(types["names"])
            yield self.finding(
                file,
                doc.span(file, (*path, "type")),
                f"hook has {shown}{hint}; Claude Code knows {known}",
            )
        for required in types["required"].get(kind, ()):
            if not isinstance(entry.get(required), str):
                yield self.finding(
                    file, doc.span(file, (*path, required)), f"a `{kind}` hook needs `{required}`"
                )
        if kind == "command" and isinstance(entry.get("command"), str):
            yield from self._scripts(file, project, doc, (*path, "command"), entry, plugin)
        if "timeout" in entry:
            yield from self._timeout(file, doc, (*path, "timeout"), entry["timeout"])

    def _scripts(
        self,
        file: SourceFile,
        project: Project,
        doc: JsonDoc,
        path: tuple,
        entry: dict,
        plugin: str | None,
    ) -> Iterator[Finding]:
        span = doc.span(file, path)
        for script, _ in script_paths(entry["command"], plugin):
            if script.startswith("../") or project.exists(script):
                continue
            yield self.finding(
                file, span, f"the command runs `{script}`, which is not in this repository"
            )

    def _timeout(
        self, file: SourceFile, doc: JsonDoc, path: tuple, value: Any
    ) -> Iterator[Finding]:
        span: Span = doc.span(file, path)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            yield self.finding(
                file, span, f"`timeout` must be a positive number of seconds: `{value!r}`"
            )
        elif value > PLAUSIBLE_TIMEOUT:
            yield self.finding(
                file,
                span,
                f"`timeout` is in seconds: {value:g} s is {value / 3600:.1f} hours "
                "(milliseconds written for seconds?)",
                severity=Severity.WARNING,
            )


def _plugin_path(root: str, target: str) -> str | None:
    """A plugin.json path (`./hooks/x.json`) relative to the repository root."""
    import posixpath

    if "://" in target or target.startswith(("/", "~", "$")):
        return None
    joined = posixpath.normpath(posixpath.join(root, target))
    return None if joined.startswith("../") else joined
