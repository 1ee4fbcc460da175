"""`guidelint run [PATHS...]`: run guide examples in isolated workers."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import click

from guidelint.commands.cli_base import config_option
from guidelint.runner.reports import FORMATS


@click.command("run")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@config_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="Report format.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the report to a file instead of stdout.",
)
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="Examples run in parallel.")
@click.option(
    "--pending",
    "pending_only",
    is_flag=True,
    help="Run only examples marked pending (and their sessions).",
)
@click.option(
    "--id",
    "ids",
    multiple=True,
    help="Run only the example with this id (repeatable); its session runs with it.",
)
@click.option(
    "--promote",
    is_flag=True,
    help="Rewrite each passing pending example's directive to verified=DATE.",
)
@click.option(
    "--update", is_flag=True, help="Rewrite ```output blocks with what the examples printed."
)
@click.option(
    "--report-dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Where images the examples write are kept (default: runner.report-dir).",
)
@click.option(
    "--html",
    "html_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Also write a static HTML report (index.html and its images) into this folder.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress (bar or lines) while examples run.")
def run(
    paths,
    config_file,
    fmt,
    output,
    jobs,
    pending_only,
    ids,
    promote,
    update,
    report_dir,
    html_dir,
    quiet,
):
    """Run the Python examples of guides; exit 0 when every non-pending one passed."""
    from guidelint.commands.cli_base import fail
    from guidelint.config import ConfigError
    from guidelint.runner.reports import render
    from guidelint.runner.run import RunOptions, run_examples

    options = RunOptions(
        paths=list(paths),
        config_file=config_file,
        pending_only=pending_only,
        ids=list(ids),
        update=update,
        promote=promote,
        jobs=jobs,
        report_dir=report_dir,
    )
    progress = _progress(fmt, output, quiet)
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        with progress:
            report = run_examples(options, progress.advance)
    except ConfigError as error:
        fail(str(error))
    except KeyboardInterrupt as stop:  # the workers and examples are gone already (run.py)
        name = "SIGTERM" if isinstance(stop, Stopped) else "SIGINT"
        fail(f"run stopped by {name}; every example was ended", 128 + _number(name))
    finally:
        signal.signal(signal.SIGTERM, previous)
    if html_dir is not None:
        _write_html(report, html_dir)
    text = render(report, fmt)
    if output is not None:
        _write_report(output, text, report.root or Path.cwd())
    else:
        click.echo(text, nl=False)
    sys.exit(0 if report.ok else 1)


class Stopped(KeyboardInterrupt):
    """SIGTERM: unwinds like Ctrl-C, so the workers are stopped and folders removed."""


def _stop(signum: int, frame: object) -> None:
    raise Stopped


def _number(name: str) -> int:
    return int(getattr(signal, name))


def _write_report(output: Path, text: str, root: Path) -> None:
    """`-o FILE`, as `check -o` writes it: inside the project never through a committed
    symlink (one line, nothing written); outside, where the user said."""
    from guidelint.commands.cli_base import fail
    from guidelint.fsio import write_named

    try:
        write_named(output, text, root)
    except OSError as error:
        fail(f"{output}: report not written: {error.strerror or error}")


def _write_html(report, folder: Path) -> None:
    from guidelint.commands.cli_base import fail
    from guidelint.confine import Outside
    from guidelint.runner.html_report import write_html

    try:
        page = write_html(report, folder)
    except Outside as error:
        fail(str(error))
    except OSError as error:
        fail(f"{folder}: cannot write the HTML report: {error}")
    click.echo(f"HTML report: {page}", err=True)


def _progress(fmt: str, output: Path | None, quiet: bool):
    """A bar on a terminal, a line per example without one (CI), nothing with --quiet."""
    if quiet:
        return _silent()
    if sys.stderr.isatty() and fmt == "text" and output is None:
        return _progress_bar()
    return _progress_lines()


class _silent:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def advance(self, result, done: int, total: int) -> None:
        pass


class _progress_lines(_silent):
    """One line on stderr per finished example, so a CI log shows the run going."""

    def advance(self, result, done: int, total: int) -> None:
        from guidelint.runner.reports import result_line

        width = len(str(total))
        click.echo(f"[{done:>{width}}/{total}] {result_line(result)}", err=True)


class _progress_bar:
    """A rich progress bar on stderr, advanced as each example finishes."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.progress = Progress(
            TextColumn("examples"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.description}"),
            console=Console(stderr=True),
            transient=True,
        )
        self.task = self.progress.add_task("", total=None)

    def __enter__(self):
        self.progress.start()
        return self

    def __exit__(self, *exc):
        self.progress.stop()
        return False

    def advance(self, result, done: int, total: int) -> None:
        self.progress.update(
            self.task,
            completed=done,
            total=total,
            description=f"{result.path}:{result.line} {result.status.value}",
        )
