"""The `guidelint` command line (click). Exit codes: 0 clean, 1 findings, 2 usage error."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import click

from guidelint import __version__
from guidelint.commands.cli_base import config_option, fail, warn, warn_all
from guidelint.errors import ConfigError

# Subcommands that live beside their pillar, imported only when used so that
# `guidelint check` never pays for them. name -> "module:attribute".
LAZY_COMMANDS: dict[str, str] = {
    "smoke": "guidelint.commands.smoke:smoke",
    "gotcha": "guidelint.commands.gotcha:gotcha",
    "surface": "guidelint.commands.surface:surface",
    "tools": "guidelint.commands.tools:tools",
    "run": "guidelint.commands.run:run",
    "tiny": "guidelint.runner.diffusers_backend.cli:tiny",
    "mcp": "guidelint.commands.mcp_server:mcp",
    "lsp": "guidelint.commands.lsp_server:lsp",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx, name):
        if name in LAZY_COMMANDS:
            module, attr = LAZY_COMMANDS[name].split(":")
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="guidelint")
def main() -> None:
    """Keep the documents that steer coding agents true, and prove it in CI."""


def _split(values: tuple[str, ...]) -> list[str]:
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@config_option
@click.option("--select", multiple=True, help="Rule codes or prefixes to run (replaces config).")
@click.option("--extend-select", multiple=True, help="Rule codes or prefixes to add.")
@click.option("--ignore", multiple=True, help="Rule codes or prefixes to skip.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github", "sarif"]),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the report to a file instead of stdout.",
)
@click.option("--fix", is_flag=True, help="Apply safe fixes in place (atomic writes).")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes marked unsafe.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option(
    "--baseline",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Report only findings not recorded in this baseline file.",
)
@click.option(
    "--write-baseline",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Record today's findings in a baseline file and exit 0.",
)
@click.option(
    "--since",
    metavar="REV",
    help="Report on files changed since a git revision and the files whose findings rest on them.",
)
@click.option(
    "--dependents",
    is_flag=True,
    help="The paths are what changed: report on them and on files whose findings rest on them.",
)
@click.option(
    "--live",
    is_flag=True,
    default=None,
    help="Query MCP servers live (starts the servers the configuration names).",
)
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="Worker processes.")
@click.option("--no-cache", is_flag=True, help="Ignore and do not write the result cache.")
@click.option(
    "--color/--no-color",
    default=None,
    help="Colour the text output (default: on a TTY, unless NO_COLOR; FORCE_COLOR forces it).",
)
@click.option("--quiet", "-q", is_flag=True, help="Text output: the findings only, no summary.")
@click.option(
    "--statistics", is_flag=True, help="Text output: a count per rule instead of the findings."
)
@click.option(
    "--diff",
    is_flag=True,
    help="Show the fixes as a unified diff and write nothing (exit 1: some).",
)
@click.option(
    "--stdin-filename",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Check the text on stdin as if it were this file (--fix: print the fixed text).",
)
@click.option("--watch", is_flag=True, help="Check again whenever a file of the project changes.")
@click.option(
    "--min-severity",
    type=click.Choice(["warning", "error"]),
    default="warning",
    show_default=True,
    help="Report only findings of this severity or worse (error: defects to fix).",
)
@click.option(
    "--show-files",
    is_flag=True,
    help="List every file of the project, checked or skipped and why, and exit.",
)
def check(
    paths,
    config_file,
    select,
    extend_select,
    ignore,
    fmt,
    output,
    fix,
    unsafe_fixes,
    exit_zero,
    baseline,
    write_baseline,
    since,
    dependents,
    live,
    jobs,
    no_cache,
    color,
    quiet,
    statistics,
    diff,
    stdin_filename,
    watch,
    min_severity,
    show_files,
) -> None:
    """Check Markdown guides, rules files, settings and drivers."""
    from guidelint.check import CheckOptions, run_check
    from guidelint.findings import Severity

    if show_files:
        _show_files(list(paths), config_file)

    options = CheckOptions(
        paths=list(paths),
        config_file=config_file,
        select=_split(select) or None,
        extend_select=_split(extend_select),
        ignore=_split(ignore),
        fix=fix or unsafe_fixes,
        unsafe_fixes=unsafe_fixes,
        baseline=baseline,
        write_baseline=write_baseline,
        since=since,
        dependents=dependents,
        live=live,
        jobs=jobs,
        use_cache=not no_cache,
        progress=None if quiet or sys.stderr.isatty() else _progress_line,
        min_severity=Severity(min_severity),
    )
    if diff or watch or stdin_filename is not None:
        _conveniences(options, diff, stdin_filename, watch)  # may print and exit
    try:
        report = run_check(options)
    except ConfigError as err:
        fail(str(err))
    except Exception as err:
        # subprocess loads only where git or ruff runs: a SubprocessError needs it loaded.
        subprocess = sys.modules.get("subprocess")
        if subprocess is None or not isinstance(err, subprocess.SubprocessError):
            raise
        fail(str(err))
    from guidelint.reporters import renderer
    from guidelint.reporters.text import render_statistics

    warn_all(report.notices)
    from guidelint.discovery import OUTSIDE_NOTE

    outside = any(OUTSIDE_NOTE in note for note in report.notices)  # said in one line
    if report.files_checked == 0 and not since and not dependents and not outside:
        warn(
            f"no file under {report.root} matched the include globs; start from the "
            "repository root, pass the files to check, or set `include`"
        )
    report.color = _use_color(color, output is None and sys.stdout.isatty())
    report.quiet = quiet
    text = render_statistics(report) if statistics and fmt == "text" else renderer(fmt)(report)
    if output is not None:
        _write_report(output, text, report.root)
    else:
        click.echo(text, nl=False, color=report.color)  # click strips colour in a pipe otherwise
    if write_baseline is not None:
        click.echo(f"Wrote {len(report.findings)} finding(s) to {write_baseline}", err=True)
        sys.exit(0)
    sys.exit(1 if report.errors and not exit_zero else 0)


def _write_report(output: Path, text: str, root: Path) -> None:
    """`-o FILE`: inside the project, never through a committed symlink (a link out is
    one line, nothing written); elsewhere, where the user said."""
    from guidelint.fsio import write_named

    try:
        write_named(output, text, root)
    except OSError as error:
        fail(f"{output}: report not written: {error.strerror or error}")


def _show_files(paths: list[Path], config_file: Path | None) -> None:
    """`check --show-files`: which files a check reads, which it skips and why."""
    from guidelint.check import file_scope
    from guidelint.project import Project

    try:
        project = Project.load(paths, config_file)
        lines = file_scope(project, paths)
    except ConfigError as err:
        fail(str(err))
    click.echo("".join(f"{line}\n" for line in lines), nl=False)
    sys.exit(0)


def _progress_line(done: int, total: int) -> None:
    """Without a terminal (CI), a long check says how far it is every few hundred files."""
    click.echo(f"guidelint: checked {done}/{total} files", err=True)


def _conveniences(options, diff: bool, stdin_filename: Path | None, watch: bool) -> None:
    """--watch loops here; --diff, and --fix on stdin, print and exit; a plain
    --stdin-filename only sets what the check reads."""
    from guidelint.check import run_check
    from guidelint.commands import cli_conveniences as extra

    if watch:
        ctx = click.get_current_context()
        again = {**ctx.params, "watch": False}
        extra.watch(
            options.paths,
            options.config_file,
            lambda: extra.run_once(lambda: ctx.invoke(check, **again)),
        )
        sys.exit(0)
    if stdin_filename is not None:
        options.stdin = extra.read_stdin(stdin_filename)
    if not diff and not (options.stdin and options.fix):
        return
    options.fix, options.dry_run = True, True  # fixes computed, nothing written
    try:
        report = run_check(options)
    except ConfigError as err:
        fail(str(err))
    warn_all(report.notices)
    sys.exit(extra.show_diff(report) if diff else extra.print_fixed_stdin(report))


def _use_color(flag: bool | None, tty: bool) -> bool:
    """--color/--no-color, else FORCE_COLOR / NO_COLOR (https://no-color.org), else a TTY."""
    if flag is not None:
        return flag
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("NO_COLOR"):
        return False
    return tty


@main.command()
@click.argument("code")
def rule(code: str) -> None:
    """Print a rule's documentation page (by code or name)."""
    from guidelint.docs import rule_page

    page = rule_page(code)
    if page is None:
        fail(f"unknown rule '{code}' (see `guidelint rules`)")
    click.echo(page, nl=not page.endswith("\n"))


@main.command("harnesses")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def harnesses_command(fmt: str) -> None:
    """List the coding agents guidelint knows: files, MCP servers, tool names, sources."""
    import dataclasses
    import json

    from guidelint.tools.harnesses import harnesses

    known = harnesses()
    if fmt == "json":
        click.echo(json.dumps([dataclasses.asdict(h) for h in known.values()], indent=2))
        return
    for harness in known.values():
        naming = harness.tool_names
        form = naming.form or "unknown"
        if naming.form and not naming.certain:
            form += " (uncertain: not used)"
        servers = ", ".join(f"{m.path} `{m.servers}`" for m in harness.mcp) or "none read"
        click.echo(f"{harness.key}: {harness.title} ({harness.version})")
        click.echo(f"  instructions: {', '.join(harness.instructions)}")
        click.echo(f"  MCP servers: {servers}")
        click.echo(f"  MCP tool names: {form}")
        click.echo(f"  rules: {', '.join(harness.rules)}")
        for fact in harness.uncertain:
            click.echo(f"  uncertain: {fact}")
        for source in harness.sources:
            click.echo(f"  source: {source}")


@main.command("rules")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--harness",
    "harness_keys",
    multiple=True,
    help="Only the rules that concern this coding agent (codex, cursor, copilot, gemini, ...).",
)
def rules_command(fmt: str, harness_keys: tuple[str, ...]) -> None:
    """List every rule: code, name, severity, fixable, summary."""
    import json

    from guidelint.rules import rule_rows

    rows = rule_rows()
    if harness_keys:
        from guidelint.tools.harnesses import codes_for, unknown_harness

        for key in harness_keys:
            problem = unknown_harness(key)
            if problem is not None:
                fail(problem)
        kept = set(codes_for(harness_keys, [str(row["code"]) for row in rows]))
        rows = [row for row in rows if row["code"] in kept]
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    click.echo(f"{'CODE':<6} {'NAME':<28} {'SEVERITY':<8} FIX  SUMMARY")
    for row in rows:
        fixable = "fix" if row["fixable"] else "   "
        click.echo(
            f"{row['code']}  {row['name']:<28} {row['severity']:<8} {fixable}  {row['summary']}"
        )
