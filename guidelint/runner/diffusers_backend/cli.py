"""`guidelint tiny build` and `guidelint tiny list`: the tiny checkpoint cache."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import click

from guidelint.commands.cli_base import fail
from guidelint.runner.diffusers_backend import cache
from guidelint.runner.diffusers_backend.families import FAMILIES

CACHE_HELP = f"Cache folder (default: ${cache.ENV_VAR}, else the user cache folder)."


def _families(names: tuple[str, ...]) -> list[str]:
    """Family names, or pipeline class names (FluxPipeline) for the generic builder."""
    unknown = [n for n in names if n not in FAMILIES and not _is_class_name(n)]
    if unknown:
        fail(
            f"unknown tiny pipeline '{unknown[0]}' (known: {', '.join(FAMILIES)}, "
            "or a pipeline class such as FluxPipeline)"
        )
    return list(names) or list(FAMILIES)


def _is_class_name(name: str) -> bool:
    return name[:1].isupper() and name.endswith("Pipeline")


def _build_class(name: str, cache_path: Path | None) -> None:
    from guidelint.runner.diffusers_backend import build as builder

    clock = time.perf_counter()
    try:
        folder = builder.checkpoint_for(name, cache_path)
    except builder.CannotBuild as error:
        fail(str(error))
    except ImportError as error:  # a component needs a package missing here (torchvision)
        why = next((line.strip() for line in str(error).splitlines() if line.strip()), "")
        fail(f"no tiny {name} can be built here: {why or type(error).__name__}")
    except OSError as error:
        fail(f"{cache.cache_dir(cache_path)}: {error.strerror or error}")
    click.echo(f"{name:<16} ready in {time.perf_counter() - clock:.1f}s  {folder}")


@click.group("tiny")
def tiny() -> None:
    """Tiny, deterministic diffusers checkpoints that stand in for hub models."""


@tiny.command("build")
@click.argument("names", nargs=-1)
@click.option(
    "--cache", "cache_path", type=click.Path(path_type=Path, file_okay=False), help=CACHE_HELP
)
@click.option("--force", is_flag=True, help="Rebuild even when already built.")
def build(names: tuple[str, ...], cache_path: Path | None, force: bool) -> None:
    """Build tiny pipelines (all families by default) into the cache.

    NAMES are families (`guidelint tiny list`) or diffusers pipeline classes
    (FluxPipeline), which the generic builder makes from its table.
    """
    selected = _families(names)
    try:
        import diffusers  # noqa: F401 - fail early, with one line
        import torch  # noqa: F401
    except ImportError as error:
        fail(f"{error.name} is not installed (pip install 'guidelint[diffusers]')")
    for name in selected:
        if name not in FAMILIES:
            _build_class(name, cache_path)
            continue
        target = cache.family_dir(name, cache_path)
        if cache.is_built(name, cache_path) and not force:
            click.echo(f"{name:<16} already built  {target}")
            continue
        clock = time.perf_counter()
        if force:
            shutil.rmtree(target, ignore_errors=True)
        try:
            cache.ensure_built(name, cache_path)
        except OSError as error:
            fail(f"{target}: {error.strerror or error}")
        click.echo(f"{name:<16} built in {time.perf_counter() - clock:.1f}s  {target}")


@tiny.command("list")
@click.option(
    "--cache", "cache_path", type=click.Path(path_type=Path, file_okay=False), help=CACHE_HELP
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def list_command(cache_path: Path | None, fmt: str) -> None:
    """List the tiny pipelines, what each stands in for, and whether it is built."""
    rows = [
        {
            "name": f.name,
            "built": cache.is_built(f.name, cache_path),
            "path": str(cache.family_dir(f.name, cache_path)),
            "stands_in_for": f.stands_in_for,
            "summary": f.summary,
        }
        for f in FAMILIES.values()
    ]
    if fmt == "json":
        click.echo(
            json.dumps({"cache": str(cache.cache_dir(cache_path)), "pipelines": rows}, indent=2)
        )
        return
    click.echo(f"cache: {cache.cache_dir(cache_path)}")
    for row in rows:
        state = "built" if row["built"] else "-"
        click.echo(f"{row['name']:<16} {state:<6} {row['stands_in_for']:<52} {row['summary']}")
