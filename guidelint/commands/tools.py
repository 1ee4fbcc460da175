"""`guidelint tools`: snapshot, list and diff the tool lists of MCP servers.

A malformed server entry or snapshot is one warning line, and the other servers go
on. Every name that comes from a file or a server is printed through printable():
a tool named with an ANSI escape or a newline cannot repaint or forge a line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from guidelint.commands.cli_base import config_option, fail, warn_all
from guidelint.config import ConfigError
from guidelint.printable import printable


def _project(path: Path | None, config_file: Path | None):
    from guidelint.project import Project

    try:
        return Project.load([path] if path else [], config_file)
    except ConfigError as err:
        fail(str(err))


def _specs(project, server: str | None):
    from guidelint.tools.servers import declared_servers

    declared = declared_servers(project)
    specs = declared.specs
    if server is not None:
        if server not in specs:
            problem = declared.problem_of(server)
            if problem is not None:
                fail(str(problem))
            known = ", ".join(printable(name) for name in sorted(specs)) or "none"
            fail(f"no server `{printable(server)}` is declared (known: {known})")
        return {server: specs[server]}
    warn_all([str(problem) for problem in declared.problems])
    return specs


def _live(project, specs) -> dict:
    from guidelint.tools.live import list_servers

    startable = [s for s in specs.values() if s.startable]
    try:
        return list_servers(startable, project.root)
    except ConfigError as err:
        fail(str(err))


path_argument = click.argument(
    "path", required=False, type=click.Path(exists=True, file_okay=False, path_type=Path)
)
server_option = click.option("--server", help="Only this server.")


@click.group("tools")
def tools() -> None:
    """Snapshot, list and diff the tool lists of MCP servers."""


@tools.command()
@path_argument
@config_option
@server_option
def snapshot(path, config_file, server) -> None:
    """Save each server's live tools/list answer under .guidelint/tools/."""
    from guidelint.tools.snapshot import to_wire, write_snapshot

    project = _project(path, config_file)
    specs = _specs(project, server)
    if not any(s.startable for s in specs.values()):
        fail("no startable server is declared (.mcp.json or [tool.guidelint.tools.servers])")
    failed = False
    for name, listing in _live(project, specs).items():
        if listing.error:
            click.echo(f"guidelint: error: {printable(listing.error)}", err=True)
            failed = True
            continue
        target = project.root / specs[name].snapshot
        if not project.contains(target):  # e.g. a snapshot folder linked out of the root
            click.echo(
                f"guidelint: error: {printable(name)}: {specs[name].snapshot} leads outside "
                "the project; not written",
                err=True,
            )
            failed = True
            continue
        data = to_wire(listing.tools, listing.prompts, listing.resources)
        write_snapshot(target, data, project.root)
        click.echo(
            f"wrote {printable(specs[name].snapshot)}: {len(listing.tools)} tools, "
            f"{len(listing.prompts)} prompts, {len(listing.resources)} resources "
            f"({listing.seconds:.1f}s)"
        )
    sys.exit(2 if failed else 0)


@tools.command("list")
@path_argument
@config_option
@click.option("--live", is_flag=True, help="Ask the servers instead of reading snapshots.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def list_command(path, config_file, live, fmt) -> None:
    """Print every tool guidelint knows: per server, with its arguments."""
    from guidelint.tools.load import build_sources

    project = _project(path, config_file)
    try:
        built = build_sources(project, live=live or None)
    except ConfigError as err:
        fail(str(err))
    warn_all([str(problem) for problem in built.problems])
    warn_all(project.warnings)
    catalog = built.catalog
    if fmt == "json":
        click.echo(json.dumps(_as_json(catalog), indent=2))
        return
    for name, server in sorted(catalog.servers.items()):
        shown = printable(name)
        if server.tools is None:
            click.echo(
                f"{shown}  (declared in {printable(server.declared_in)}; no snapshot: "
                f"run `guidelint tools snapshot --server {shown}`)"
            )
            continue
        click.echo(f"{shown}  ({len(server.tools)} tools, from {printable(server.origin)})")
        for tool in sorted(server.tools.values(), key=lambda t: t.name):
            args = ", ".join(f"{p}{'' if p in tool.required else '?'}" for p in tool.properties)
            click.echo(printable(f"  mcp__{name}__{tool.name}({args})"))
    click.echo(f"built-in: {', '.join(sorted(catalog.builtins.current))}")


def _as_json(catalog) -> dict:
    return {
        "servers": {
            name: {
                "origin": s.origin,
                "declared_in": s.declared_in,
                "tools": None if s.tools is None else sorted(s.tools),
            }
            for name, s in sorted(catalog.servers.items())
        },
        "builtins": sorted(catalog.builtins.current),
    }


@tools.command()
@path_argument
@config_option
@server_option
def diff(path, config_file, server) -> None:
    """Compare snapshots with the live servers; show lines naming removed tools."""
    from guidelint.tools.diff import diff_servers
    from guidelint.tools.snapshot import from_wire, read_snapshot
    from guidelint.tools.usage import lines_naming

    project = _project(path, config_file)
    specs = _specs(project, server)
    changed = False
    for name, listing in _live(project, specs).items():
        if listing.error:
            fail(printable(listing.error))
        shown = printable(name)
        old, problems = read_snapshot(project, specs[name].snapshot, name)
        warn_all([str(problem) for problem in problems])
        if old is None:
            where = printable(specs[name].snapshot)
            state = f"snapshot {where} cannot be used" if problems else f"no snapshot at {where}"
            click.echo(f"{shown}: {state} (all tools are new)")
            changed = True
            continue
        new = from_wire({"tools": listing.tools}, name, origin="live", problems=[])
        result = diff_servers(old, new)
        click.echo(printable(f"{name}: {result.summary()}"))
        changed |= not result.empty
        for where, text in lines_naming(project, name, set(result.removed)):
            click.echo(f"  {printable(where)}: {printable(text)}")
    sys.exit(1 if changed else 0)
