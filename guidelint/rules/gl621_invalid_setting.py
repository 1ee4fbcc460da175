"""GL621 invalid-setting: a key of `.claude/settings.json` or `settings.local.json` that
Claude Code cannot use as written: a value of the wrong type or outside its documented
values, a misspelt key (with the key meant), or a key that Claude Code ignores in the
scope it is written in (managed-only keys in a project's settings)."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from typing import Any

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.catalog import close_names
from guidelint.tools.claude_code import JsonDoc, did_you_mean, is_settings_file, json_doc
from guidelint.tools.claude_settings import json_type, settings_facts, type_fits

MISSPELT = 0.85


class InvalidSetting(Rule):
    code = "GL621"
    name = "invalid-setting"
    severity = Severity.WARNING
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        return file.kind == FileKind.JSON and is_settings_file(file.rel)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        doc = json_doc(file)
        if doc.problem is not None or not isinstance(doc.data, dict):
            return  # GL106 reports a settings file that cannot be read
        facts = settings_facts()
        scope = "local" if posixpath.basename(file.rel) == "settings.local.json" else "project"
        yield from self._keys(file, doc, (), doc.data, facts["keys"], scope)
        permissions = doc.data.get("permissions")
        if isinstance(permissions, dict):
            yield from self._keys(
                file, doc, ("permissions",), permissions, facts["permissions"], None
            )

    def _keys(
        self,
        file: SourceFile,
        doc: JsonDoc,
        where: tuple,
        data: dict[str, Any],
        known: dict[str, dict[str, Any]],
        scope: str | None,
    ) -> Iterator[Finding]:
        ignored = settings_facts()["ignored_in_scope"]
        label = ".".join((*where, ""))
        for key, value in data.items():
            path = (*where, key)
            spec = known.get(key)
            if spec is None:
                # Keys are added every few weeks: only a near spelling of a known key is
                # a slip; anything else may be newer than the schema.
                close = close_names(key, known, n=1, cutoff=MISSPELT)
                if close:
                    yield self.finding(
                        file,
                        doc.key_span(file, path),
                        f"Claude Code does not read `{label}{key}`, so this setting is "
                        f"ignored (did you mean `{label}{close[0]}`?)",
                    )
                continue
            if scope is not None and scope in ignored.get(key, {}).get("scopes", ()):
                yield self.finding(
                    file,
                    doc.key_span(file, path),
                    f"`{key}` is ignored in {scope} settings: Claude Code reads it from "
                    f"{ignored[key]['read_from']} only",
                )
                continue
            problem = _value_problem(value, spec)
            if problem:
                yield self.finding(file, doc.span(file, path), f"`{label}{key}` {problem}")


def _value_problem(value: Any, spec: dict[str, Any]) -> str | None:
    types: list[str] = spec["type"]
    if not type_fits(value, types):
        wanted = " or ".join(_article(t) for t in types)
        return f"must be {wanted}, not {_article(json_type(value))}"
    values = spec.get("enum")
    if values and value not in values:
        shown = ", ".join(f"`{v}`" for v in values)
        hint = did_you_mean(value, values) if isinstance(value, str) else ""
        return f"is `{value}`, not one of {shown}{hint}"
    return None


def _article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"
