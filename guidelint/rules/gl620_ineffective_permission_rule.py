"""GL620 ineffective-permission-rule: a permission rule in `.claude/settings.json` or
`settings.local.json` whose syntax keeps it from matching what its author meant: a
path under a single leading `/` (`Read(/tmp/**)`), which Claude Code anchors in the
project, not at the filesystem root, or a path rule on `Write`, `NotebookEdit` or
`Glob`, which Claude Code's file checks never consult."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.claude_code import facts, is_settings_file, json_doc

RULE = re.compile(r"^(?P<tool>[A-Za-z]+)\((?P<spec>.*)\)$", re.DOTALL)
LISTS = ("allow", "ask", "deny")
GLOB = re.compile(r"[*?\[{]")


class IneffectivePermissionRule(Rule):
    code = "GL620"
    name = "ineffective-permission-rule"
    severity = Severity.WARNING
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        return file.kind == FileKind.JSON and is_settings_file(file.rel)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        doc = json_doc(file)
        if doc.problem is not None or not isinstance(doc.data, dict):
            return  # GL106 reports a settings file that cannot be read
        permissions = doc.data.get("permissions")
        if not isinstance(permissions, dict):
            return
        for kind in LISTS:
            entries = permissions.get(kind)
            if not isinstance(entries, list):
                continue
            for index, entry in enumerate(entries):
                if not isinstance(entry, str):
                    continue
                message = _problem(entry, file.rel, project)
                if message:
                    span = doc.span(file, ("permissions", kind, index))
                    yield self.finding(file, span, message)


def _problem(entry: str, settings: str, project: Project) -> str | None:
    match = RULE.match(entry.strip())
    if match is None:
        return None
    tool, spec = match.group("tool"), match.group("spec").strip()
    paths = facts()["permission_paths"]
    unconsulted: dict[str, str] = paths["never_consulted"]  # tool -> the rule meant
    meant_tool = unconsulted.get(tool) if spec and spec != "*" else None
    path_tools = (*paths["consulted_by_file_checks"], *unconsulted)
    stray = _project_anchored(spec, settings, project) if tool in path_tools else None
    if meant_tool is None and stray is None:
        return None
    meant = f"{meant_tool or tool}(/{spec})" if stray else f"{meant_tool}({spec})"
    reasons = []
    if stray:
        reasons.append(
            f"a single leading `/` anchors the path in the project, not at the filesystem "
            f"root (`//` does), and the project has no `{stray}`, so it matches nothing"
        )
    if meant_tool:
        reasons.append(
            f"Claude Code's file checks never consult `{tool}(path)` rules (a startup "
            f"warning since 2.1.210); `{meant_tool}(path)` rules cover `{tool}`"
        )
    return f"`{entry}` has no effect: " + "; ".join(reasons) + f" (did you mean `{meant}`?)"


def _project_anchored(spec: str, settings: str, project: Project) -> str | None:
    """The first folder of a `/path` pattern when it is in neither place Claude Code may
    anchor it (the project holding `.claude/`, or the settings file's folder): the
    author meant the absolute path. None for `//abs`, `~/`, relative or found paths."""
    if not spec.startswith("/") or spec.startswith("//"):
        return None
    first = spec.lstrip("/").split("/", 1)[0]
    if not first or GLOB.search(first) or first in (".", ".."):
        return None
    folder = posixpath.dirname(settings)  # the `.claude` folder
    owner = posixpath.dirname(folder)
    for base in (owner, folder):
        if project.exists(posixpath.join(base, first) if base else first):
            return None
    return first
