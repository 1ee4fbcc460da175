"""Build the catalog once per run: snapshots, or live listings when asked for.

Live listings run only with `--live` or `live = true`: a plain check never starts a
program that the repository names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from guidelint.errors import ConfigError
from guidelint.project import Memo
from guidelint.tools.builtins import builtins
from guidelint.tools.catalog import Catalog, ServerTools, Sources
from guidelint.tools.jsonfile import FileProblem
from guidelint.tools.servers import ServerSpec, declared_servers
from guidelint.tools.snapshot import from_wire, read_snapshot

if TYPE_CHECKING:
    from guidelint.project import Project


def sources(project: Project) -> Sources:
    """The shared per-run view (memoized on the project, failures included)."""
    state = project.memo(SOURCES)
    if isinstance(state, ConfigError):
        raise state
    return state


def _built_or_error(project: Project) -> Sources | ConfigError:
    try:
        built = build_sources(project)
    except ConfigError as err:  # remembered, so no rule starts the servers again
        return err
    built.placed = _place(project, built)
    return built


SOURCES = Memo("tools.sources", _built_or_error)


def catalog(project: Project) -> Catalog:
    return sources(project).catalog


def problems_reported_in(project: Project, rel: str) -> list[FileProblem]:
    """The problems GL109 reports in this file: its own, and on `.mcp.json` those of
    the snapshots of its servers that the run does not check itself."""
    state = sources(project)
    _note_places(project, state)
    own = [p for p in state.problems if p.rel == rel]
    return own + [p for p in state.placed.get(rel, []) if p.rel != rel]


def _place(project: Project, built: Sources) -> dict[str, list[FileProblem]]:
    """Which checked file reports each problem: its own file when a plain check
    checks it; else, for a snapshot of a server of `.mcp.json`, that server's entry.
    A problem with no such file is a note (Project.warn), so none goes unsaid.

    The catalog feeds every file with a code span, but only GL109's findings rest on
    where its problems go: the checked files are listed here without noting it, and
    `problems_reported_in` notes, for the files GL109 checks, the few places asked.
    """
    if not built.problems:  # nothing to place: the checked files are not listed
        return {}
    from guidelint.discovery import Listing, discover

    listing = project.files()
    quiet = listing.quietly() if isinstance(listing, Listing) else listing
    checked = set(discover(project.root, project.config, [], listing=quiet))
    mcp_config = project.config.tools.mcp_config
    placed: dict[str, list[FileProblem]] = {}
    for problem in built.problems:
        if problem.rel in checked:
            placed.setdefault(problem.rel, []).append(problem)
        elif problem.server in built.mcp_servers and mcp_config in checked:
            placed.setdefault(mcp_config, []).append(problem)
        else:
            project.warn(f"{problem} (GL109)")
    return placed


def _note_places(project: Project, state: Sources) -> None:
    """Tell a recording project (the result cache, `--since`) that GL109's findings in
    this file rest on whether a plain check checks each problem's file and
    `.mcp.json`: one lookup per file (`checked:REL`), not the whole checked set, so
    renaming an unrelated page reaches no GL109 result."""
    from guidelint.discovery import CheckedLookup, Listing

    listing = project.files() if state.problems else None
    if not isinstance(listing, Listing):
        return
    for rel in sorted({p.rel for p in state.problems} | {project.config.tools.mcp_config}):
        listing.on_use(CheckedLookup(rel))


def build_sources(project: Project, live: bool | None = None) -> Sources:
    config = project.config.tools
    declared = declared_servers(project)
    specs = declared.specs
    live = project.live if live is None else live
    problems = list(declared.problems)
    snapshots: dict[str, ServerTools] = {}
    for name, spec in specs.items():
        snapshot, found = read_snapshot(project, spec.snapshot, name)
        problems += found
        if snapshot is not None:
            snapshots[name] = snapshot
            problems += _foreign_snapshot(spec, snapshot)
    servers: dict[str, ServerTools] = {}
    if live:
        servers = _live_servers(project, specs, snapshots)
    for name, spec in specs.items():
        if name not in servers:
            servers[name] = snapshots.get(name) or _from_catalog(project, spec) or ServerTools(name)
        servers[name].declared_in = spec.declared_in
    for name in config.external:  # registered outside the repository: known, unlisted
        if name not in servers or not servers[name].known:
            servers[name] = ServerTools(name, origin="external", declared_in="external")
    troubled = {p.server for p in problems}  # GL109 already says what is wrong there
    for name, server in servers.items():
        if server.known or server.origin == "external" or name in troubled:
            continue
        if name not in declared.mcp_servers:
            project.warn(unlisted_message(name))  # GL110 reports those of .mcp.json
    return Sources(
        catalog=Catalog(servers, builtins(config.extra_builtins)),
        live=live,
        snapshots=snapshots if live else {},
        declared_in={name: spec.declared_in for name, spec in specs.items()},
        problems=problems,
        mcp_servers=declared.mcp_servers,
    )


def unlisted_message(server: str) -> str:
    return f"no tool list for `{server}`: run `guidelint tools snapshot --server {server}`"


def _foreign_snapshot(spec: ServerSpec, snapshot: ServerTools) -> list[FileProblem]:
    """A snapshot that shares no tool with the catalogued package its server starts
    holds another server's tools (a copied or misnamed file): GL109 says which."""
    from guidelint.tools.published import entries, started_package

    started = started_package(spec.command, spec.args)
    if started is None or not snapshot.tools:
        return []
    entry = entries()[started.package]
    expected = {t.get("name") for t in entry.data.get("tools", [])}
    if not expected or expected & set(snapshot.tools):
        return []
    owner = next(
        (
            e.label
            for e in entries().values()
            if len({t.get("name") for t in e.data.get("tools", [])} & set(snapshot.tools)) * 2
            >= len(snapshot.tools)
        ),
        None,
    )
    whose = f" (its tools are those of {owner})" if owner else ""
    message = (
        f"snapshot of server `{spec.name}` shares no tool with {entry.label}, which the server "
        f"starts{whose}: run `guidelint tools snapshot --server {spec.name}`"
    )
    return [FileProblem(spec.snapshot, 0, 1, message, spec.name)]


def _from_catalog(project: Project, spec: ServerSpec) -> ServerTools | None:
    """The bundled catalog's list of the published package the server starts, if any;
    a note names the package and version (and a pinned version it does not have)."""
    from guidelint.tools.published import entries, started_package

    started = started_package(spec.command, spec.args)
    if started is None:
        return None
    entry = entries()[started.package]
    note = (
        f"server `{spec.name}` ({spec.declared_in}) has no snapshot: its tools are those of "
        f"{entry.label} in guidelint's catalog"
    )
    if started.pinned and started.pinned != entry.version:
        note += (
            f", but it pins version {started.pinned}, which the catalog does not have: "
            f"run `guidelint tools snapshot --server {spec.name}` for that version's list"
        )
    project.warn(note)
    tools = from_wire(entry.data, spec.name, origin=f"catalog {entry.label}", problems=[])
    return tools


def _live_servers(
    project: Project, specs: dict[str, ServerSpec], snapshots: dict[str, ServerTools]
) -> dict[str, ServerTools]:
    from guidelint.tools.live import list_servers

    startable = [spec for spec in specs.values() if spec.startable]
    servers: dict[str, ServerTools] = {}
    for name, listing in list_servers(startable, project.root).items():
        if listing.error is None:
            data = {"tools": listing.tools, "prompts": listing.prompts}
            data["resources"] = listing.resources
            servers[name] = from_wire(data, name, origin="live", problems=[])
            continue
        spec = specs[name]
        if spec.fallback_to_snapshot and name in snapshots:
            project.warn(f"{listing.error} (using the snapshot {spec.snapshot})")
            continue
        raise ConfigError(f"live tool listing failed: {listing.error}")
    return servers
