"""`guidelint surface --base REV`: a workflow-fix change stays on the workflow surface."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from guidelint.cli_base import fail
from guidelint.config import ConfigError


def outside_surface(changed: set[str], patterns: list[str]) -> list[str]:
    """Changed paths that no surface pattern (.gitignore syntax) covers, sorted."""
    import pathspec

    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    return sorted(path for path in changed if not spec.match_file(path))


@click.command("surface")
@click.option("--base", required=True, metavar="REV", help="The revision the change starts from.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--config",
    "config_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Configuration file (default: nearest guidelint.toml or pyproject.toml).",
)
def surface(base: str, fmt: str, config_file: Path | None) -> None:
    """Fail when the diff since REV touches files outside the workflow surface."""
    from guidelint.discovery import changed_files
    from guidelint.project import Project

    try:
        project = Project.load([], config_file)
        changed = changed_files(project.root, base)
    except ConfigError as err:
        # changed_files() speaks of --since, the name `check` gives the revision.
        message = str(err).replace("--since", "--base", 1)
        fail(message)
    patterns = project.config.gotchas.surface
    outside = outside_surface(changed, patterns)
    if fmt == "json":
        click.echo(
            json.dumps(
                {"base": base, "changed": sorted(changed), "outside": outside, "surface": patterns},
                indent=2,
            )
        )
    elif outside:
        click.echo(
            f"{len(outside)} changed file(s) outside the workflow surface ({', '.join(patterns)}):"
        )
        for path in outside:
            click.echo(f"  {path}")
    else:
        click.echo(f"all {len(changed)} changed file(s) are on the workflow surface")
    sys.exit(1 if outside else 0)
