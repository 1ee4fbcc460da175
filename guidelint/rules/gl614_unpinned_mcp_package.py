"""GL614 unpinned-mcp-package: an MCP server started by a package runner (`npx`, `pnpm dlx`,
`yarn dlx`, `bunx`, `uvx`, `uv tool run`, `pipx run`) with a package whose version is not
pinned, in any harness's server file: each launch runs whatever the registry serves that
day. Not the repository's own package (the `name` of its root package.json, or of a
package.json of its workspace): its maintainers run the release they publish themselves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.findings import Finding, Severity
from guidelint.project import Memo
from guidelint.tools.rulebase import ServerFileRule

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile
    from guidelint.tools.mcp_launch import Launch


class UnpinnedMcpPackage(ServerFileRule):
    code = "GL614"
    name = "unpinned-mcp-package"
    severity = Severity.WARNING

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.mcp_files import server_file
        from guidelint.tools.mcp_launch import launch_words, launches, split_spec, version_is_pinned

        servers = server_file(file, project)
        if servers is None:
            return
        local = project.memo(LOCAL_PACKAGES)
        for name, entry, path in servers.servers():
            words, where = launch_words(entry, path)
            for launch in launches(words):
                package, version = split_spec(launch.spec, launch.ecosystem)
                if version_is_pinned(version, launch.ecosystem):
                    continue
                if launch.runner == "npx" and package in local:
                    continue  # npx runs the project's own copy, pinned by its lock file
                if launch.ecosystem == "npm" and package in project.memo(OWN_PACKAGES):
                    continue  # this repository's own release: its developers publish it
                span = servers.doc.span(file, where(launch.index))
                yield self.finding(file, span, _message(name, launch, package, version))


def _message(server: str, launch: Launch, package: str, version: str | None) -> str:
    written = f"`{launch.spec}`"
    why = (
        "no version"
        if version is None
        else "`@latest`"
        if version in ("latest", "@latest")
        else f"the range `{version}`"
    )
    pin = f"{package}@1.2.3" if launch.ecosystem == "npm" else f"{package}==1.2.3"
    return (
        f"server `{server}` runs {written} through `{launch.runner}` with {why}: each launch "
        "runs whatever version the registry serves that day, so a breaking or compromised "
        f"release reaches every session unreviewed; pin the version you tested (`{pin}`)"
    )


def _local_packages(project: Project) -> frozenset[str]:
    """The npm packages the project's root package.json depends on: `npx` runs those from
    node_modules, at the version the lock file pins."""
    file = project.read("package.json") if project.exists("package.json") else None
    if file is None:
        return frozenset()
    try:
        data = json.loads(file.text)
    except ValueError:
        return frozenset()
    names: set[str] = set()
    if isinstance(data, dict):
        for key in ("dependencies", "devDependencies", "optionalDependencies"):
            table = data.get(key)
            if isinstance(table, dict):
                names.update(str(n) for n in table)
    return frozenset(names)


def _own_packages(project: Project) -> frozenset[str]:
    """The npm names this repository publishes: the `name` of its root package.json and
    of each package.json its `workspaces` globs reach (`packages/*`)."""
    root = _package_json(project, "package.json")
    if root is None:
        return frozenset()
    names = {root.get("name")}
    workspaces = root.get("workspaces")
    if isinstance(workspaces, dict):  # Yarn's `{"packages": [...]}`
        workspaces = workspaces.get("packages")
    if isinstance(workspaces, list):
        folders = [str(glob).removeprefix("./").rstrip("/") for glob in workspaces]
        globs = project.globs([f"{folder}/package.json" for folder in folders])
        for rel in project.files():
            if rel.endswith("/package.json") and globs.matches(rel):
                data = _package_json(project, rel)
                names.add(data.get("name") if data else None)
    return frozenset(name for name in names if isinstance(name, str) and name)


def _package_json(project: Project, rel: str) -> dict[str, object] | None:
    file = project.read(rel) if project.exists(rel) else None
    if file is None:
        return None
    try:
        data = json.loads(file.text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


LOCAL_PACKAGES = Memo("GL614.local_packages", _local_packages)
OWN_PACKAGES = Memo("GL614.own_packages", _own_packages)
