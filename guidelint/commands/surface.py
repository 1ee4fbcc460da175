"""`guidelint surface --base REV`: a workflow-fix change stays on the workflow surface."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from guidelint.commands.cli_base import config_option, fail
from guidelint.config import ConfigError


@click.command("surface")
@click.option("--base", required=True, metavar="REV", help="The revision the change starts from.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@config_option
def surface(base: str, fmt: str, config_file: Path | None) -> None:
    """Fail when the diff since REV touches files outside the workflow surface."""
    from guidelint.gotchas.service import surface as changes_against
    from guidelint.project import Project

    try:
        project = Project.load([], config_file)
        result = changes_against(project, base)
    except ConfigError as err:
        # changed_files() speaks of --since, the name `check` gives the revision.
        message = str(err).replace("--since", "--base", 1)
        fail(message)
    outside, patterns = result.outside, result.surface
    if fmt == "json":
        click.echo(json.dumps(result.as_json(), indent=2))
    elif outside:
        click.echo(
            f"{len(outside)} changed file(s) outside the workflow surface ({', '.join(patterns)}):"
        )
        for path in outside:
            click.echo(f"  {path}")
    else:
        click.echo(f"all {len(result.changed)} changed file(s) are on the workflow surface")
    sys.exit(1 if outside else 0)
