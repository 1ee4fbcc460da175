"""GL615 invalid-plugin-manifest: a Claude Code plugin's `.claude-plugin/plugin.json`
without its `name`, with a `version` that is not semver, with component paths
(`commands`, `agents`, `skills`, `hooks`, `mcpServers`, `outputStyles`, `lspServers`)
that do not exist, leave the plugin or lack the `./` prefix, or with component
folders put inside `.claude-plugin/`, where Claude Code never looks."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from guidelint.findings import Finding, Severity
from guidelint.project import Memo
from guidelint.rule import Rule
from guidelint.sources import FileKind

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile
    from guidelint.tools.claude_code import JsonDoc


class InvalidPluginManifest(Rule):
    code = "GL615"
    name = "invalid-plugin-manifest"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        from guidelint.tools.claude_code import is_plugin_manifest

        return is_plugin_manifest(file.rel)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.claude_code import json_doc
        from guidelint.tools.plugins import owner_folder, plugin_facts

        doc = json_doc(file)
        if not isinstance(doc.data, dict):
            return  # not JSON, or not an object: GL604 says so
        facts = plugin_facts()["manifest"]
        root = owner_folder(file.rel)
        yield from self._name(file, doc, facts)
        yield from self._version(file, doc, facts)
        for key in facts["component_paths"]:
            if key in doc.data:
                yield from self._paths(file, doc, project, root, key, facts)
        yield from self._misplaced(file, doc, project, root, facts)

    def _name(self, file: SourceFile, doc: JsonDoc, facts: dict[str, Any]) -> Iterator[Finding]:
        name = doc.data.get("name")
        if name is None:
            yield self.finding(
                file,
                doc.span(file, ()),
                "the manifest has no `name`, the one field Claude Code requires of it: "
                "the plugin's commands, agents and skills are namespaced by it",
            )
        elif not isinstance(name, str) or not name.strip():
            yield self.finding(file, doc.span(file, ("name",)), "`name` must be a non-empty string")
        elif not re.match(facts["name_pattern"], name):
            suggestion = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
            yield self.finding(
                file,
                doc.span(file, ("name",)),
                f"`name` `{name}` is not kebab-case (lowercase letters, digits, single "
                f"hyphens), which `claude plugin validate` warns about (did you mean "
                f"`{suggestion}`?)",
                severity=Severity.WARNING,
            )

    def _version(self, file: SourceFile, doc: JsonDoc, facts: dict[str, Any]) -> Iterator[Finding]:
        if "version" not in doc.data:
            return
        version = doc.data["version"]
        span = doc.span(file, ("version",))
        if not isinstance(version, str):
            yield self.finding(file, span, '`version` must be a string (`"1.2.3"`)')
        elif not re.match(facts["version_pattern"], version.strip()):
            yield self.finding(
                file,
                span,
                f"`version` `{version}` is not a semantic version (MAJOR.MINOR.PATCH, "
                "such as `1.2.0` or `1.0.0-beta.1`): Claude Code compares versions to "
                "offer updates",
                severity=Severity.WARNING,
            )

    def _paths(
        self,
        file: SourceFile,
        doc: JsonDoc,
        project: Project,
        root: str,
        key: str,
        facts: dict[str, Any],
    ) -> Iterator[Finding]:
        from guidelint.tools.plugins import inside

        value = doc.data[key]
        if isinstance(value, dict) and key in facts["inline_allowed"]:
            return  # an inline definition: GL604 / GL605 read it
        written: list[tuple[tuple, Any]]
        if isinstance(value, list):
            written = [((key, i), v) for i, v in enumerate(value)]
        else:
            written = [((key,), value)]
        for path, item in written:
            span = doc.span(file, path)
            if not isinstance(item, str):
                kinds = "a path or a list of paths"
                if key in facts["inline_allowed"]:
                    kinds += ", or an inline object"
                yield self.finding(file, span, f"`{key}` must be {kinds}")
                continue
            target = inside(root, item)
            if target is None:
                yield self.finding(
                    file,
                    span,
                    f"`{key}` path `{item}` leaves the plugin: Claude Code copies only the "
                    "plugin's folder when it installs it, so the path resolves to nothing",
                )
            elif not item.startswith(("./", "${CLAUDE_PLUGIN_ROOT}", "$CLAUDE_PLUGIN_ROOT")):
                yield self.finding(
                    file,
                    span,
                    f"`{key}` path `{item}` must start with `./` (relative to the plugin "
                    f"root, as Claude Code requires; did you mean `./{item.lstrip('./')}`?)",
                )
            elif not project.exists(target or "."):
                yield self.finding(
                    file,
                    span,
                    f"`{key}` path `{item}` does not exist in the plugin"
                    + _close(project, target, root),
                )

    def _misplaced(
        self,
        file: SourceFile,
        doc: JsonDoc,
        project: Project,
        root: str,
        facts: dict[str, Any],
    ) -> Iterator[Finding]:
        folder = f"{root}/.claude-plugin" if root else ".claude-plugin"
        for component in facts["component_folders"]:
            if project.exists(f"{folder}/{component}"):
                yield self.finding(
                    file,
                    doc.span(file, ()),
                    f"`{folder}/{component}/` is inside `.claude-plugin/`, where Claude Code "
                    f"reads only the manifest: its {component} are never loaded (move the "
                    f"folder to the plugin root, `{root + '/' if root else ''}{component}/`)",
                )


def _close(project: Project, target: str, root: str) -> str:
    """A did-you-mean among the files and folders beside the missing path."""
    from guidelint.tools.catalog import close_names

    parent, name = posixpath.split(target.rstrip("/"))
    siblings = project.memo(CHILDREN).get(parent, set())
    close = close_names(name, sorted(siblings), n=1)
    if not close:
        return ""
    return (
        f" (did you mean `./{posixpath.relpath(posixpath.join(parent, close[0]), root or '.')}`?)"
    )


def _children(project: Project) -> dict[str, set[str]]:
    """Folder -> the names of the files and folders in it, once per run."""
    children: dict[str, set[str]] = {}
    for rel in project.files():
        parts = rel.split("/")
        for depth in range(len(parts)):
            children.setdefault("/".join(parts[:depth]), set()).add(parts[depth])
    return children


CHILDREN = Memo("GL615.children", _children)
