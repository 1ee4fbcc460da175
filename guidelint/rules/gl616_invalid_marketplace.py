"""GL616 invalid-marketplace: a Claude Code `.claude-plugin/marketplace.json` without a
required field, under a name reserved for Anthropic or one that impersonates an official
marketplace (`official-claude-plugins`), or listing a plugin twice or from a
folder of the repository that does not exist or keeps its manifest in the wrong place.
A reserved name is Anthropic's own to use: a marketplace whose `owner` is Anthropic
(by name, email domain or URL) is not reported for it."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from guidelint.findings import Finding, Severity
from guidelint.rule import Rule
from guidelint.sources import FileKind

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile
    from guidelint.tools.claude_code import JsonDoc


class InvalidMarketplace(Rule):
    code = "GL616"
    name = "invalid-marketplace"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        from guidelint.tools.plugins import is_marketplace

        return is_marketplace(file.rel)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.claude_code import json_doc, point
        from guidelint.tools.plugins import plugin_facts

        doc = json_doc(file)
        if doc.problem is not None:
            offset, message = doc.problem
            yield self.finding(file, point(file, offset), f"{message}: no plugin is listed")
            return
        if not isinstance(doc.data, dict):
            yield self.finding(file, doc.span(file, ()), "a marketplace must be a JSON object")
            return
        facts = plugin_facts()["marketplace"]
        yield from self._required(file, doc, facts)
        plugins = doc.data.get("plugins")
        if isinstance(plugins, list):
            yield from self._entries(file, doc, project, plugins, facts)

    def _required(self, file: SourceFile, doc: JsonDoc, facts: dict[str, Any]) -> Iterator[Finding]:
        data = doc.data
        for key in facts["required"]:
            if key not in data:
                yield self.finding(
                    file,
                    doc.span(file, ()),
                    f"the marketplace has no `{key}`, which Claude Code requires: "
                    "`/plugin marketplace add` refuses it",
                )
        name = data.get("name")
        reserved = isinstance(name, str) and name.strip().lower() in facts["reserved_names"]
        if reserved and _reserving_owner(data.get("owner"), facts["reserving_owner"]):
            pass  # Anthropic's own marketplace under its own name (anthropics/claude-code)
        elif reserved:
            yield self.finding(
                file,
                doc.span(file, ("name",)),
                f"the marketplace name `{name}` is reserved for official Anthropic use: "
                "Claude Code does not load a third-party marketplace under it",
            )
        elif isinstance(name, str) and _impersonates(name, facts["impersonation"]):
            yield self.finding(
                file,
                doc.span(file, ("name",)),
                f"the marketplace name `{name}` reads as an official Anthropic marketplace: "
                "Claude Code blocks names that impersonate one, so it does not load this "
                "marketplace",
            )
        owner = data.get("owner")
        if "owner" in data and not (isinstance(owner, dict) and isinstance(owner.get("name"), str)):
            yield self.finding(
                file, doc.span(file, ("owner",)), "`owner` must be an object with a `name`"
            )
        if "plugins" in data and not isinstance(data["plugins"], list):
            yield self.finding(file, doc.span(file, ("plugins",)), "`plugins` must be a list")

    def _entries(
        self,
        file: SourceFile,
        doc: JsonDoc,
        project: Project,
        plugins: list[Any],
        facts: dict[str, Any],
    ) -> Iterator[Finding]:
        seen: dict[str, int] = {}
        for index, entry in enumerate(plugins):
            path = ("plugins", index)
            if not isinstance(entry, dict):
                yield self.finding(file, doc.span(file, path), "a plugin entry must be an object")
                continue
            missing = [key for key in facts["entry_required"] if key not in entry]
            if missing:
                label = f"`{entry['name']}`" if isinstance(entry.get("name"), str) else index
                yield self.finding(
                    file,
                    doc.span(file, path),
                    f"plugin entry {label} has no "
                    + " and no ".join(f"`{key}`" for key in missing)
                    + ", which every entry needs",
                )
            name = entry.get("name")
            if isinstance(name, str):
                if name in seen:
                    first = file.lines.position(doc.span(file, ("plugins", seen[name])).start).line
                    yield self.finding(
                        file,
                        doc.span(file, (*path, "name")),
                        f"plugin `{name}` is listed twice (also at line {first}): "
                        "`/plugin install` reaches only one of them",
                    )
                else:
                    seen[name] = index
            source = entry.get("source")
            if isinstance(source, str):
                yield from self._source(file, doc, project, (*path, "source"), source)

    def _source(
        self, file: SourceFile, doc: JsonDoc, project: Project, path: tuple, source: str
    ) -> Iterator[Finding]:
        from guidelint.tools.plugins import inside, owner_folder

        root = owner_folder(file.rel)
        plugin_root = doc.data.get("metadata", {}) if isinstance(doc.data, dict) else {}
        base = plugin_root.get("pluginRoot") if isinstance(plugin_root, dict) else None
        candidates = [source]
        if isinstance(base, str) and not source.startswith(("./", "../")):
            candidates.insert(0, posixpath.join(base, source))
        if not source.startswith(("./", "../")) and not isinstance(base, str):
            return  # a URL or `owner/repo` form: not a folder of this repository
        resolved = [inside(root, c) for c in candidates]
        folders = [r for r in resolved if r is not None]
        if not folders:
            return  # outside this repository's marketplace folder: not looked up
        existing = [f for f in folders if project.exists(f or ".")]
        span = doc.span(file, path)
        if not existing:
            yield self.finding(
                file,
                span,
                f"plugin source `{source}` does not exist: `/plugin install` of it fails",
            )
            return
        folder = existing[0]
        prefix = f"{folder}/" if folder else ""
        if project.exists(f"{prefix}plugin.json") and not project.exists(
            f"{prefix}.claude-plugin/plugin.json"
        ):
            yield self.finding(
                file,
                span,
                f"plugin source `{source}` keeps its manifest at `{prefix}plugin.json`: "
                f"Claude Code reads it only at `{prefix}.claude-plugin/plugin.json`",
            )


def _impersonates(name: str, facts: dict[str, Any]) -> bool:
    """A look-alike of an official name, as Claude Code judges one: a character outside
    printable ASCII (a homograph), or `official` beside `anthropic` or `claude`, or a
    name that starts `anthropic-plugins`, `claude-marketplace` and the like."""
    if re.search(r"[^\x20-\x7e]", name):
        return True
    return re.search(facts["pattern"], name, re.IGNORECASE) is not None


def _reserving_owner(owner: Any, facts: dict[str, Any]) -> bool:
    """Whether the marketplace's `owner` is the organisation the reserved names are
    kept for: Claude Code accepts them from Anthropic's GitHub organisation, and a
    checkout does not say where it was cloned from, so the owner's name, email
    domain (`@anthropic.com`) or URL (anthropic.com, github.com/anthropics) stands
    for it."""
    if not isinstance(owner, dict):
        return False
    name = owner.get("name")
    if isinstance(name, str) and name.strip().lower() in facts["names"]:
        return True
    email = owner.get("email")
    domain = facts["email_domain"]
    if isinstance(email, str) and email.strip().lower().endswith("@" + domain):
        return True
    url = owner.get("url")
    if not isinstance(url, str):
        return False
    parsed = urlsplit(url.strip().lower())
    host = parsed.hostname or ""
    if host == domain or host.endswith("." + domain):
        return True
    first = parsed.path.strip("/").split("/")[0]
    return host in ("github.com", "www.github.com") and first == facts["github_org"]
