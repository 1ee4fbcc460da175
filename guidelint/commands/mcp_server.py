"""`guidelint mcp`: guidelint as a stdio MCP server (the official `mcp` SDK, `tools` extra).

A door over the pillars' faces: each tool calls the function its command calls
(`api.report`, `gotchas.service`, `smoke.report`, `runner.run`) and returns the
object that command prints with `--format json`, as a pydantic model that is both
the tool's `outputSchema` and its documentation (docs/MCP.md). A tool that cannot
do what it was asked answers an MCP tool error (`isError`) whose text is one line;
the server itself never stops on a bad call. The project is the one around the
directory the server was started in (as for the CLI), loaded afresh on every call,
so every answer reflects the files as they are now; the warm process keeps the
imports, the rule registry and the result cache.

The server is rooted at that project (its workspace): a path a tool is given that
leads outside it (`../x`, `/etc/passwd`, a folder symlink out) is a one-line tool
error before anything is read, and every write is confined (`guidelint.confine`).
"""

import functools
import json
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import click
from pydantic import BaseModel, Field, ValidationError

from guidelint import __version__
from guidelint.commands.cli_base import config_option, fail
from guidelint.findings import Severity
from guidelint.runner.outcomes import Outcome
from guidelint.smoke.model import FloorKind, PlanOutcome

if TYPE_CHECKING:
    from guidelint.reporters.report import Report

# Tools run on worker threads; the engine, its cache and Project are not written
# for threads, so calls run one at a time (writes are also locked across processes).
_ONE_AT_A_TIME = threading.Lock()

INSTRUCTIONS = (
    "guidelint checks the documents that steer coding agents (guides, rules files, "
    "gotchas, MCP tool references, smoke-gate arithmetic) in the project around the "
    "server's working directory. Paths are relative to that directory and must lie "
    "inside the project: a path that leads outside it is refused."
)


# --- results ---------------------------------------------------------------------------


class EditModel(BaseModel):
    start: int = Field(description="Character offset where the replaced text starts.")
    end: int = Field(description="Character offset where it ends (exclusive).")
    content: str = Field(description="The replacement text.")


class FixModel(BaseModel):
    description: str
    safe: bool = Field(description="True: applied by `guidelint check --fix`.")
    edits: list[EditModel]


class FindingModel(BaseModel):
    code: str = Field(description="Rule code, e.g. GL501.")
    name: str = Field(description="Rule name, e.g. stale-path.")
    severity: Severity
    message: str
    path: str = Field(description="File, relative to the project root.")
    line: int
    column: int
    end_line: int
    end_column: int
    fix: FixModel | None = Field(description="The fix, when the rule has one.")
    fingerprint: str = Field(description="Stable id of the finding (baselines use it).")


class SummaryModel(BaseModel):
    files_checked: int
    findings: int
    errors: int
    warnings: int
    fixable: int
    unsafe_fixable: int
    fixed: int


class CheckResult(BaseModel):
    """`guidelint check --format json`'s object, plus the root and the run's notices."""

    version: int = Field(description="The JSON report's schema version (docs/OUTPUT.md).")
    root: str = Field(description="The project root the paths are relative to.")
    findings: list[FindingModel]
    summary: SummaryModel
    notices: list[str] = Field(description="The run's warnings, one line each.")


class FixResult(BaseModel):
    written: bool = Field(description="False for a dry run: the diff is what would be written.")
    fixed: dict[str, int] = Field(description="Fixes applied (or that would be), per file.")
    diff: str = Field(description="Unified diff of every fixed file.")
    findings: list[FindingModel] = Field(description="What is left after the fixes.")
    summary: SummaryModel
    notices: list[str]


class ExampleOutcome(BaseModel):
    id: str
    path: str
    line: int
    status: Outcome
    duration_s: float
    message: str = Field(description="Why it did not pass (empty when it did).")
    stdout: str
    substitutions: list[str] = Field(description="Tiny stand-ins used for real checkpoints.")
    images: list[str] = Field(description="Images it wrote, copied into the report folder.")
    pipelines: list[str] = Field(
        default_factory=list, description="diffusers pipeline classes its process built."
    )


class RunExamplesResult(BaseModel):
    version: int = Field(description="The run report's schema version (docs/RUNNING.md).")
    examples: list[ExampleOutcome]
    summary: dict[str, Any] = Field(description="Counts per outcome, ok, duration_s, report_dir.")
    promoted: list[str] = Field(description="Ids of the pending examples marked verified.")
    notes: list[str] = Field(description="Files not rewritten or not readable, one line each.")


class RulePage(BaseModel):
    code: str
    name: str
    severity: Severity
    fixable: bool
    summary: str
    page: str = Field(description="The rule's documentation page (Markdown).")


class GotchaEntry(BaseModel):
    file: str
    line: int = Field(description="Line where the entry starts.")
    number: int = Field(description="Its position in the file, from 1.")
    anchor: str | None
    headline: str
    section: str | None
    issues: list[str] = Field(description="Its provenance, e.g. ['#1489'].")
    fingerprint: str | None
    chars: int


class GotchaFindResult(BaseModel):
    pattern: str
    count: int
    entries: list[GotchaEntry]
    evidence: list[str] = Field(description="`file:line: headline` per match, like `grep -in`.")


class GotchaAddResult(BaseModel):
    file: str
    line: int = Field(description="Line of the new entry.")
    anchor: str = Field(description="Its anchor: link to it as `#anchor`.")
    entries: int = Field(description="Entries in the file with the new one.")
    row_cap: int | None
    written: bool = Field(description="False for a dry run.")
    changed: list[str] = Field(description="Files written (or that would be).")
    diff: str = Field(description="Unified diff of the change.")
    warnings: list[str]


class SurfaceResult(BaseModel):
    base: str
    changed: list[str] = Field(description="Files changed since `base`.")
    outside: list[str] = Field(description="Changed files outside the workflow surface.")
    surface: list[str] = Field(description="The surface patterns (.gitignore syntax).")
    on_surface: bool = Field(description="True when nothing is outside.")


class PlanRow(BaseModel):
    n: int
    steps: int
    epochs_run: float
    saved_steps: list[int]
    checkpoints_on_disk: list[str]
    outcome: PlanOutcome
    meets_floor: bool | None = None


class FloorFailure(BaseModel):
    first: int = Field(description="First realized n of a run of n that fail alike.")
    last: int = Field(description="Last n of that run.")
    why: str = Field(description="Steps and checkpoints at that n, against the floor.")


class FloorReport(BaseModel):
    floor: int
    kind: FloorKind
    holds: bool = Field(description="At `rows` and every n of the table.")
    failing_n: list[int]
    failures: list[FloorFailure]
    suggestion: str | None = Field(default=None, description="The dial that holds, if any.")


class SmokePlanResult(BaseModel):
    steps: int = Field(description="Optimizer steps the run takes.")
    epochs_run: float
    saved_steps: list[int]
    checkpoints_on_disk: list[str]
    outcome: PlanOutcome
    warnings: list[str]
    rows: list[PlanRow] | None = Field(
        default=None, description="With `cap`: one row per realized n in [1, cap]."
    )
    floor_holds: bool | None = Field(
        default=None, description="With `floor`: it holds for `rows` (and every n up to `cap`)."
    )
    floor: FloorReport | None = Field(
        default=None, description="With `floor`: which n fail it and why (`smoke plan` JSON)."
    )
    arithmetic: str = Field(description="The arithmetic in words (the CLI's text).")
    plan: dict[str, Any] = Field(description="The plan: rows, geometry, schedule, saving.")


class SmokeDialResult(BaseModel):
    feasible: bool
    epochs: int | None = Field(description="Smallest num_train_epochs holding the floor.")
    max_steps: int | None = Field(description="Smallest max_steps holding the floor.")
    reason: str | None
    worst_rows: int | None = Field(description="The realized n that needs the largest epochs.")
    request: dict[str, Any] = Field(description="The floor, rows, geometry and saving asked.")
    formula: dict[str, str | None] = Field(
        description="The dials in closed form over the realized rows, and where the rule "
        "of thumb falls short."
    )
    arithmetic: str


# --- arguments ---------------------------------------------------------------------------

Paths = Annotated[
    list[str], Field(description="Files or folders to check (default: the configured ones).")
]
Codes = Annotated[list[str] | None, Field(description="Rule codes or prefixes, e.g. ['GL5'].")]
SaveStrategyName = Literal["steps", "epoch", "no"]
FloorKindName = Literal["checkpoints", "steps"]


class _ToolError(Exception):
    """The one-line reason a tool did nothing (becomes the SDK's ToolError)."""


def _first_line(text: str) -> str:
    return (text.strip().splitlines() or [""])[0]


# An error names the argument it refuses; a 100 KB id or path must not come back whole
# (the client's context and log pay for every character), so the middle is cut.
MAX_ERROR_CHARS = 500


def _bounded(line: str) -> str:
    """The line, or its head and tail with the count of what was cut between them."""
    if len(line) <= MAX_ERROR_CHARS:
        return line
    head, tail = line[: MAX_ERROR_CHARS * 2 // 5], line[-MAX_ERROR_CHARS * 2 // 5 :]
    return f"{head} [... {len(line) - len(head) - len(tail):,} characters ...] {tail}"


def _tool_error(err: Exception) -> Exception:
    """Whatever a tool raised, as the SDK's ToolError with a one-line reason."""
    from mcp.server.mcpserver.exceptions import ToolError

    from guidelint.config import ConfigError
    from guidelint.confine import Outside
    from guidelint.gotchas.authoring import Refusal
    from guidelint.smoke.report import BadOptions, validation_line

    if isinstance(err, ToolError):
        return err
    if isinstance(err, ValidationError):
        return ToolError(validation_line(err))
    one_line = (ConfigError, Outside, Refusal, BadOptions, _ToolError, subprocess.SubprocessError)
    if isinstance(err, one_line):
        return ToolError(_first_line(str(err)))
    if isinstance(err, OSError):
        return ToolError(f"{err.filename or 'I/O'}: {err.strerror or err}")
    # A bug: still one line, and the server lives on.
    return ToolError(f"internal error: {type(err).__name__}: {_first_line(str(err))}")


Tool = TypeVar("Tool", bound=Callable[..., Any])


def _one_line_errors(tool: Tool) -> Tool:
    """Run the tool alone (see _ONE_AT_A_TIME); any failure is a one-line tool error."""

    @functools.wraps(tool)
    def run(*args: Any, **kwargs: Any) -> Any:
        with _ONE_AT_A_TIME:
            try:
                return tool(*args, **kwargs)
            except Exception as err:
                raise _tool_error(err) from None

    # The docstring is the tool's description: one paragraph, as the source wraps it.
    run.__doc__ = " ".join((tool.__doc__ or "").split())
    return run  # type: ignore[return-value]  # same signature, by functools.wraps


def _argument_error(tool: str, error: ValidationError) -> str:
    """One line for arguments that fail the input schema (the SDK's text is a page)."""
    problems = error.errors()
    first = problems[0]
    where = ".".join(str(part) for part in first["loc"]) or "arguments"
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{tool}: bad argument `{where}`: {first['msg']}{more}"


def _annotations(writes: bool) -> Any:
    from mcp.types import ToolAnnotations

    if writes:
        return ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
    return ToolAnnotations(read_only_hint=True, open_world_hint=False)


def build_server(config_file: Path | None = None) -> Any:
    """The MCPServer with every tool; `config_file` is `guidelint mcp --config`."""
    server = _new_server()
    for tool in (explain_rule, smoke_plan, smoke_dial):  # tools of no project
        server.tool(annotations=_annotations(writes=False))(_one_line_errors(tool))
    for add_tool in (_add_check, _add_fix, _add_gotcha_find, _add_gotcha_add, _add_surface):
        add_tool(server, config_file)
    _add_run_examples(server, config_file)
    _add_resources(server, config_file)
    return server


def _new_server() -> Any:
    """An MCPServer whose tool errors are one line that starts with the tool's name."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    class Server(MCPServer):
        async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
            try:
                return await super().call_tool(name, arguments, context)
            except ToolError as err:
                if isinstance(err.__cause__, ValidationError):
                    raise ToolError(_bounded(_argument_error(name, err.__cause__))) from None
                # The SDK says "Error executing tool NAME: reason"; the reason is ours.
                reason = str(err).removeprefix(f"Error executing tool {name}: ")
                raise ToolError(_bounded(f"{name}: {_first_line(reason)}")) from None

    return Server(
        name="guidelint", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )


def _json_report(report: "Report") -> dict[str, Any]:
    """`check --format json`'s object, from the very serializer that prints it."""
    from guidelint.reporters.json_report import render

    return json.loads(render(report))


# --- tools over the project around the server -----------------------------------------


def _workspace(config_file: Path | None) -> Path:
    """The project root around the server's working directory: the only tree a tool
    reads or writes."""
    from guidelint.project import Project

    return Project.load([], config_file).root


def _inside(config_file: Path | None, paths: list[str]) -> list[str]:
    """`paths` when each, every symlink resolved, lies in the workspace; else Outside
    (one line naming the first that does not), before any file is read."""
    from guidelint.confine import Outside, resolve_inside

    root = _workspace(config_file)
    for path in paths:
        if "\0" in path:
            raise _ToolError(f"{path!r}: not a path (a NUL character)")
        try:
            resolve_inside(root, Path.cwd() / path, "path")
        except Outside:  # named as the caller gave it, not joined to the cwd
            raise _ToolError(f"{path}: path leads outside the project ({root})") from None
    return paths


def _rooted(report: "Report", config_file: Path | None) -> "Report":
    """The report, when its project is the workspace or lies inside it."""
    from guidelint.confine import is_inside

    if not is_inside(_workspace(config_file), report.root):
        raise _ToolError(f"{report.root}: the run left the workspace; nothing reported")
    return report


def _add_check(server: Any, config_file: Path | None) -> None:
    @server.tool(annotations=_annotations(writes=False))
    @_one_line_errors
    def check(
        paths: Paths = [],  # noqa: B006 (pydantic copies defaults)
        select: Codes = None,
        ignore: Codes = None,
        since: Annotated[
            str | None, Field(description="Only files changed since this git revision.")
        ] = None,
    ) -> CheckResult:
        """Check guides, rules files, settings and drivers: the findings of the JSON report,
        each with its fix when it has one. Like `guidelint check --format json`."""
        from guidelint import api

        paths = _inside(config_file, paths)
        report = api.report(*paths, select=select, ignore=ignore, since=since, config=config_file)
        report = _rooted(report, config_file)
        return CheckResult.model_validate(
            _json_report(report) | {"root": str(report.root), "notices": report.notices}
        )


def _add_fix(server: Any, config_file: Path | None) -> None:
    @server.tool(annotations=_annotations(writes=True))
    @_one_line_errors
    def fix(
        paths: Paths = [],  # noqa: B006 (pydantic copies defaults)
        codes: Codes = None,
        unsafe: Annotated[bool, Field(description="Also apply fixes marked unsafe.")] = False,
        dry_run: Annotated[bool, Field(description="Return the diff; write nothing.")] = False,
    ) -> FixResult:
        """Apply the safe fixes (and unsafe ones with `unsafe`) in place, atomically, like
        `guidelint check --fix`; the result is the diff written (or, with `dry_run`, the
        diff it would write) and the findings left."""
        from guidelint import api
        from guidelint.fixes import unified_diff

        report = api.report(
            *_inside(config_file, paths),
            select=codes,
            config=config_file,
            fix=True,
            unsafe_fixes=unsafe,
            dry_run=dry_run,
        )
        report = _rooted(report, config_file)
        done = {"written": not dry_run, "fixed": report.fixed, "notices": report.notices}
        diff = unified_diff(report.changes)
        return FixResult.model_validate(_json_report(report) | done | {"diff": diff})


def explain_rule(
    rule: Annotated[str, Field(description="A rule code (GL501) or name (stale-path).")],
) -> RulePage:
    """A rule's documentation page: what it checks, why, examples, its fix."""
    from guidelint.docs import rule_page
    from guidelint.rules import rule_by_name_or_code

    found = rule_by_name_or_code(rule)
    page = rule_page(rule)
    if found is None or page is None:
        raise _ToolError(f"unknown rule '{rule}' (a code such as GL501, or a rule name)")
    return RulePage(
        code=found.code,
        name=found.name,
        severity=found.severity,
        fixable=found.fixable,
        summary=found.summary,
        page=page,
    )


def _add_gotcha_find(server: Any, config_file: Path | None) -> None:
    @server.tool(annotations=_annotations(writes=False))
    @_one_line_errors
    def gotcha_find(
        pattern: Annotated[str, Field(description="A case-insensitive regular expression.")],
        file: Annotated[
            str | None, Field(description="The gotchas file (default: the configured ones).")
        ] = None,
    ) -> GotchaFindResult:
        """Gotchas entries matching a pattern, with file:line: the evidence a
        workflow-fix cites (like `grep -cin`); a count of 0 is the absence of a guard."""
        import re

        from guidelint.gotchas import service
        from guidelint.project import Project

        try:
            service.compile_pattern(pattern)
        except re.error as err:
            raise _ToolError(f"pattern is not a valid regular expression: {err}") from None
        found = service.find(Project.load([], config_file), pattern, file)
        evidence = [hit.evidence() for hit in found.hits]
        return GotchaFindResult.model_validate(found.as_json() | {"evidence": evidence})


def _add_gotcha_add(server: Any, config_file: Path | None) -> None:
    from mcp.types import CallToolResult, TextContent

    @server.tool(annotations=_annotations(writes=True))
    @_one_line_errors
    def gotcha_add(
        headline: Annotated[str, Field(description="The lesson in one sentence (bold).")],
        body: Annotated[str, Field(description="What happened and what to do instead.")],
        provenance: Annotated[list[str], Field(description="Issue ids, e.g. ['#1489'].")],
        fingerprint: Annotated[
            str | None, Field(description="Hex id of the incident; a repeat is refused.")
        ] = None,
        section: Annotated[
            str | None, Field(description="The `##` section (created if missing).")
        ] = None,
        file: Annotated[
            str | None, Field(description="The gotchas file (default: the configured one).")
        ] = None,
        dry_run: Annotated[bool, Field(description="Return the diff; write nothing.")] = False,
    ) -> Annotated[CallToolResult, GotchaAddResult]:
        """Append a well-formed entry and its LESSONS index row, atomically, under the
        same lock as `guidelint gotcha add`. A refusal (row cap, duplicate, malformed
        file) is a tool error with `structuredContent` {refused: true, reason}."""
        from guidelint.api import lint_files
        from guidelint.gotchas import service
        from guidelint.gotchas.authoring import NewEntry, Refusal

        new = NewEntry(headline, body, tuple(provenance), fingerprint, section)
        try:
            added = service.add(config_file, file, new, dry_run, lint_files)
        except Refusal as err:
            reason = f"gotcha not added: {_first_line(str(err))}"
            data: dict[str, Any] = {"refused": True, "reason": reason}
            return CallToolResult(
                content=[TextContent(type="text", text=reason)],
                structured_content=data,
                is_error=True,
            )
        data = GotchaAddResult.model_validate(added.as_json()).model_dump(mode="json")
        text = json.dumps(data, indent=2)
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=data
        )


def _add_surface(server: Any, config_file: Path | None) -> None:
    @server.tool(annotations=_annotations(writes=False))
    @_one_line_errors
    def surface(
        base: Annotated[str, Field(description="The git revision the change starts from.")],
    ) -> SurfaceResult:
        """Files changed since `base` that lie outside the workflow surface: a
        workflow-fix change should touch none (like `guidelint surface --base`)."""
        from guidelint.config import ConfigError
        from guidelint.gotchas import service
        from guidelint.project import Project

        project = Project.load([], config_file)
        try:
            result = service.surface(project, base)
        except ConfigError as err:
            # changed_files() speaks of --since, the name `check` gives the revision.
            raise _ToolError(str(err).replace("--since", "base", 1)) from None
        return SurfaceResult.model_validate(result.as_json() | {"on_surface": not result.outside})


# --- the smoke arithmetic: no project ---------------------------------------------------


def smoke_plan(
    rows: Annotated[int, Field(ge=0, description="Realized rows n.")],
    batch: Annotated[int, Field(ge=1, description="Per-device train batch size.")],
    accum: Annotated[int, Field(ge=1, description="Gradient accumulation steps.")] = 1,
    world: Annotated[int, Field(ge=1, description="World size (processes).")] = 1,
    epochs: Annotated[float | None, Field(ge=0, description="num_train_epochs.")] = None,
    max_steps: Annotated[
        int | None, Field(ge=1, description="max_steps (give it or epochs).")
    ] = None,
    save_strategy: SaveStrategyName = "steps",
    save_steps: Annotated[
        float, Field(gt=0, description="Absolute steps, or a ratio of the total below 1.")
    ] = 500,
    save_total_limit: Annotated[int | None, Field(ge=1)] = None,
    drop_last: bool = False,
    iterable: Annotated[bool, Field(description="An IterableDataset (no len).")] = False,
    floor: Annotated[int | None, Field(ge=1, description="Say whether this floor holds.")] = None,
    floor_kind: FloorKindName = "checkpoints",
    cap: Annotated[
        int | None, Field(ge=1, le=100_000, description="Also tabulate every n in [1, cap].")
    ] = None,
    existing: Annotated[
        list[int], Field(description="Steps of checkpoint-* dirs already in output_dir.")
    ] = [],  # noqa: B006 (pydantic copies defaults)
    best_step: Annotated[int | None, Field(description="Step of the best checkpoint.")] = None,
) -> SmokePlanResult:
    """Optimizer steps, saved steps and checkpoints on disk for a realized slice,
    exact to the Hugging Face Trainer (like `guidelint smoke plan`)."""
    from guidelint.smoke import report as face

    report = face.plan(
        rows, batch, accum, world, drop_last, iterable, epochs, max_steps,
        save_strategy, save_steps, save_total_limit, best_step, existing,
        cap=cap, floor=floor, floor_kind=floor_kind,
    )  # fmt: skip
    holds = {"floor_holds": report.holds} if floor else {}
    return SmokePlanResult.model_validate(report.as_json() | holds | {"arithmetic": report.text()})


def smoke_dial(
    floor: Annotated[int, Field(ge=1, description="The gate's floor K.")],
    cap: Annotated[int, Field(ge=1, description="Row cap C: the largest realized n.")],
    batch: Annotated[int, Field(ge=1, description="Per-device train batch size.")],
    accum: Annotated[int, Field(ge=1, description="Gradient accumulation steps.")] = 1,
    world: Annotated[int, Field(ge=1, description="World size (processes).")] = 1,
    min_rows: Annotated[int, Field(ge=1, description="The smallest realized n.")] = 1,
    save_strategy: SaveStrategyName = "steps",
    save_steps: Annotated[
        float, Field(gt=0, description="Absolute steps, or a ratio of the total below 1.")
    ] = 500,
    save_total_limit: Annotated[int | None, Field(ge=1)] = None,
    drop_last: bool = False,
    iterable: Annotated[bool, Field(description="An IterableDataset (no len).")] = False,
    floor_kind: FloorKindName = "checkpoints",
) -> SmokeDialResult:
    """The smallest num_train_epochs and max_steps that hold the floor for every
    realized n in [min_rows, cap] (like `guidelint smoke dial`)."""
    from guidelint.smoke import report as face

    report = face.dial(
        floor, cap, batch, accum, world, min_rows, drop_last, iterable,
        save_strategy, save_steps, save_total_limit, floor_kind,
    )  # fmt: skip
    return SmokeDialResult.model_validate(report.as_json() | {"arithmetic": report.text()})


# --- examples: a long run, with progress -----------------------------------------------


def _add_run_examples(server: Any, config_file: Path | None) -> None:
    from mcp.server.mcpserver import Context

    @server.tool(annotations=_annotations(writes=True))
    async def run_examples(
        ctx: Context,
        paths: Paths = [],  # noqa: B006 (pydantic copies defaults)
        pending_only: Annotated[
            bool, Field(description="Run only pending examples (and their sessions).")
        ] = False,
        promote: Annotated[
            bool, Field(description="Mark each pending example that passed verified=DATE.")
        ] = False,
        ids: Annotated[
            list[str],
            Field(
                description="Run only these examples, by id (`id=` or `path:line`, as the "
                "results name them); their sessions run with them."
            ),
        ] = [],  # noqa: B006 (pydantic copies defaults)
    ) -> RunExamplesResult:
        """Run the Python examples of guides in isolated workers, like `guidelint run
        --format json`; `pending_only` and `promote` are the tester agent's loop. Reports
        MCP progress as each example finishes."""
        from guidelint.runner.run import RunOptions

        try:
            inside = _inside(config_file, paths)
        except Exception as err:
            raise _tool_error(err) from None
        options = RunOptions(
            paths=[Path(p) for p in inside],
            config_file=config_file,
            pending_only=pending_only,
            ids=list(ids),
            promote=promote,
        )
        return await _run_examples(ctx, options)


async def _run_examples(ctx: Any, options: Any) -> RunExamplesResult:
    """`runner.run.run_examples` on a worker thread, each finished example an MCP
    progress notification; its report as `guidelint run --format json` prints it."""
    import anyio.from_thread
    import anyio.to_thread

    from guidelint.runner.run import run_examples

    def progress(result: Any, done: int, total: int) -> None:
        message = f"{result.path}:{result.line} {result.status.value}"
        anyio.from_thread.run(ctx.report_progress, done, total, message)

    def run() -> Any:
        with _ONE_AT_A_TIME:
            return run_examples(options, progress)

    try:
        report = await anyio.to_thread.run_sync(run)
    except Exception as err:
        raise _tool_error(err) from None
    data = report.as_json()
    for entry, result in zip(data["examples"], report.results, strict=True):
        entry["images"] = list(result.images)
    promoted = [
        r.id for r in report.results if options.promote and r.status is Outcome.PENDING_PASSED
    ]
    data |= {"promoted": promoted, "notes": report.notes}
    return RunExamplesResult.model_validate(data)


def _add_resources(server: Any, config_file: Path | None) -> None:
    """What an agent reads before it acts: the rule list and pages, the gotchas entries.

    Resources, not tools: a client attaches them as context; nothing is computed
    from arguments. Each read loads the files as they are now; a read that cannot
    be answered is a resource error with a one-line reason.
    """
    from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

    @server.resource(
        "guidelint://rules",
        name="rules",
        mime_type="application/json",
        description="Every rule: code, name, severity, fixable, summary (`guidelint rules`).",
    )
    def rules() -> str:
        from guidelint.rules import rule_rows

        return json.dumps(rule_rows(), indent=2)

    @server.resource(
        "guidelint://rules/{code}",
        name="rule-page",
        mime_type="text/markdown",
        description="One rule's page (rules/GLNNN.md): what it checks, why, examples, fix.",
    )
    def rule_page(code: str) -> str:
        from guidelint.docs import rule_page as page_of

        page = page_of(code)
        if page is None:
            raise ResourceNotFoundError(
                f"unknown rule '{code}' (a code such as GL501, or a rule name)"
            )
        return page

    @server.resource(
        "guidelint://gotchas",
        name="gotchas",
        mime_type="application/json",
        description="The entries of the configured gotchas files, with file, line and "
        "anchor: what a workflow-fix session reads before it adds one.",
    )
    def gotchas() -> str:
        from guidelint.config import ConfigError
        from guidelint.gotchas import service
        from guidelint.gotchas.authoring import Refusal
        from guidelint.project import Project

        try:
            with _ONE_AT_A_TIME:
                found = service.entries(Project.load([], config_file), None)
        except (ConfigError, Refusal, OSError) as err:
            raise ResourceError(f"gotchas: {_first_line(str(err))}") from None
        return json.dumps([hit.as_json() for hit in found], indent=2)


@click.command("mcp")
@config_option
def mcp(config_file: Path | None) -> None:
    """Serve guidelint's tools over MCP (stdio), for the agents that call them."""
    try:
        server = build_server(config_file)
    except ImportError as err:
        fail(f"`guidelint mcp` needs the mcp SDK ({err}): pip install 'guidelint[tools]'")
    server.run("stdio")
