"""`guidelint smoke plan|dial`: the arithmetic from the command line (over smoke/report.py).

Exit codes: 0 the floor holds (or none was asked), 1 it fails for some realized n
(plan: the text and the JSON `floor` say which n and why) or no dial can meet it
(dial), 2 bad options.
"""

from __future__ import annotations

import json
import sys

import click
from pydantic import ValidationError

from guidelint.commands.cli_base import fail
from guidelint.smoke import report as face
from guidelint.smoke.model import FloorKind, SaveStrategy
from guidelint.smoke.versions import UnmodelledVersion


def geometry_options(func):
    options = [
        click.option(
            "--batch",
            type=click.IntRange(min=1),
            required=True,
            help="Per-device train batch size.",
        ),
        click.option(
            "--accum",
            type=click.IntRange(min=1),
            default=1,
            show_default=True,
            help="Gradient accumulation steps.",
        ),
        click.option(
            "--world",
            type=click.IntRange(min=1),
            default=1,
            show_default=True,
            help="World size (processes).",
        ),
        click.option("--drop-last", is_flag=True, help="dataloader_drop_last."),
        click.option("--iterable", is_flag=True, help="An IterableDataset (no len)."),
        click.option(
            "--save-strategy",
            type=click.Choice([s.value for s in SaveStrategy]),
            default="steps",
            show_default=True,
        ),
        click.option(
            "--save-steps",
            type=float,
            default=500,
            show_default=True,
            help="Absolute steps, or a ratio of the total when below 1.",
        ),
        click.option("--save-total-limit", type=click.IntRange(min=1), default=None),
        click.option(
            "--floor-kind",
            type=click.Choice([k.value for k in FloorKind]),
            default="checkpoints",
            show_default=True,
        ),
        click.option(
            "--format",
            "fmt",
            type=click.Choice(["text", "json"]),
            default="text",
            show_default=True,
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@click.group("smoke")
def smoke() -> None:
    """Smoke-gate arithmetic exact to the Hugging Face Trainer (transformers 5.x)."""


@smoke.command("plan")
@click.option("--rows", type=click.IntRange(min=0), required=True, help="Realized rows n.")
@click.option("--cap", type=click.IntRange(min=1), help="Also tabulate every n in [1, cap].")
@click.option("--epochs", type=click.FloatRange(min=0), help="num_train_epochs.")
@click.option("--max-steps", type=click.IntRange(min=1), help="max_steps (wins over epochs).")
@click.option("--floor", type=click.IntRange(min=1), help="Mark each n where this floor fails.")
@click.option(
    "--existing",
    type=int,
    multiple=True,
    help="Step of a checkpoint-* dir already in output_dir (repeatable).",
)
@click.option("--best-step", type=int, help="Step whose checkpoint holds the best metric.")
@geometry_options
def plan_command(
    rows,
    cap,
    epochs,
    max_steps,
    floor,
    existing,
    best_step,
    batch,
    accum,
    world,
    drop_last,
    iterable,
    save_strategy,
    save_steps,
    save_total_limit,
    floor_kind,
    fmt,
) -> None:
    """Optimizer steps, saved steps and checkpoints on disk for a realized slice.

    With --floor, says whether it holds at --rows (and every n up to --cap), which n
    fail and why. Exit 0 when it holds or no floor is given, 1 when it fails, 2 on
    bad options.
    """
    try:
        report = face.plan(
            rows, batch, accum, world, drop_last, iterable, epochs, max_steps,
            save_strategy, save_steps, save_total_limit, best_step, existing,
            cap=cap, floor=floor, floor_kind=floor_kind, option=_option_name,
        )  # fmt: skip
    except (ValidationError, UnmodelledVersion, face.BadOptions) as err:
        fail(_bad_options(err))
    _show(report, fmt)
    sys.exit(0 if report.holds else 1)


def _option_name(name: str) -> str:
    return f"--{name.replace('_', '-')}"


def _bad_options(err: Exception) -> str:
    """One line for options the face refused (pydantic's page of text made one line)."""
    return face.validation_line(err) if isinstance(err, ValidationError) else str(err)


def _show(report: face.PlanReport | face.DialReport, fmt: str) -> None:
    click.echo(json.dumps(report.as_json(), indent=2) if fmt == "json" else report.text())


@smoke.command("dial")
@click.option("--floor", type=click.IntRange(min=1), required=True, help="Floor K.")
@click.option("--min-rows", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--cap", type=click.IntRange(min=1), required=True, help="Row cap C.")
@geometry_options
def dial_command(
    floor,
    min_rows,
    cap,
    batch,
    accum,
    world,
    drop_last,
    iterable,
    save_strategy,
    save_steps,
    save_total_limit,
    floor_kind,
    fmt,
) -> None:
    """The smallest epochs and max_steps that hold the floor for every n in [min-rows, cap].

    Also the dial over the realized rows, in closed form, for a driver to write
    (save_steps and save_total_limit included), and where the card's rule of
    thumb falls short. Exit 0 when a dial can hold the floor, 1 when none can,
    2 on bad options.
    """
    try:
        report = face.dial(
            floor, cap, batch, accum, world, min_rows, drop_last, iterable,
            save_strategy, save_steps, save_total_limit, floor_kind,
        )  # fmt: skip
    except (ValidationError, UnmodelledVersion, face.BadOptions) as err:
        fail(_bad_options(err))
    _show(report, fmt)
    sys.exit(0 if report.result.feasible else 1)
