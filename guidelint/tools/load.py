"""Build the catalog once per run: snapshots, or live listings when asked for.

Live listings run only with `--live` or `live = true`: a plain check never starts a
program that the repository names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from guidelint.config import ConfigError
from guidelint.tools.builtins import builtins
from guidelint.tools.catalog import Catalog, ServerTools, Sources
from guidelint.tools.servers import ServerSpec, declared_servers
from guidelint.tools.snapshot import from_wire, read_snapshot

if TYPE_CHECKING:
    from guidelint.project import Project


def sources(project: Project) -> Sources:
    """The shared per-run view (memoized on the project, failures included)."""
    state = project.memo("tools.sources", lambda: _built_or_error(project))
    if isinstance(state, ConfigError):
        raise state
    return state


def _built_or_error(project: Project) -> Sources | ConfigError:
    try:
        return build_sources(project)
    except ConfigError as err:  # remembered, so no rule starts the servers again
        return err


def catalog(project: Project) -> Catalog:
    return sources(project).catalog


def build_sources(project: Project, live: bool | None = None) -> Sources:
    config = project.config.tools
    specs = declared_servers(project.root, config)
    live = project.live if live is None else live
    snapshots = {
        name: snap
        for name, spec in specs.items()
        if (snap := read_snapshot(project.root, spec.snapshot, name)) is not None
    }
    servers: dict[str, ServerTools] = {}
    if live:
        servers = _live_servers(project, specs, snapshots)
    for name, spec in specs.items():
        if name not in servers:
            servers[name] = snapshots.get(name) or ServerTools(name)
        servers[name].declared_in = spec.declared_in
    return Sources(
        catalog=Catalog(servers, builtins(config.extra_builtins)),
        live=live,
        snapshots=snapshots if live else {},
        declared_in={name: spec.declared_in for name, spec in specs.items()},
    )


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
            servers[name] = from_wire(data, name, origin="live", where=name)
            continue
        spec = specs[name]
        if spec.fallback_to_snapshot and name in snapshots:
            project.warn(f"{listing.error} (using the snapshot {spec.snapshot})")
            continue
        raise ConfigError(f"live tool listing failed: {listing.error}")
    return servers
