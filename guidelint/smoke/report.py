"""The smoke pillar's face: `smoke plan` and `smoke dial` as typed reports.

`plan()` and `dial()` take the options of the commands and return a report whose
`as_json()` is what `--format json` prints and whose `text()` is the text output;
the CLI (guidelint/commands/smoke.py) and the MCP tools both call them. Values the
Trainer would refuse raise pydantic's ValidationError (`validation_line` words it),
an unmodelled transformers version UnmodelledVersion.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from guidelint.smoke.arithmetic import TooMuchWork, bounded, simulate
from guidelint.smoke.formula import dial_formula, rule_of_thumb, steps_per_epoch
from guidelint.smoke.guard import shortfall, suggestion
from guidelint.smoke.model import (
    FloorKind,
    Geometry,
    Plan,
    PlanResult,
    SavePolicy,
    SaveStrategy,
    Schedule,
)
from guidelint.smoke.solver import DialRequest, DialResult, solve_dial

MAX_TABLE = 100_000
# Saves and epochs one `smoke plan` or `smoke dial` simulates in all (a few seconds).
MAX_EVENTS = 5_000_000
TOO_MUCH = (
    f"more than {MAX_EVENTS:,} checkpoint saves and epochs to simulate: give fewer steps or "
    "epochs, a larger save_steps, or a smaller row cap"
)


class BadOptions(ValueError):
    """Options that contradict each other: one line, naming them."""


@dataclass(frozen=True)
class PlanReport:
    """A plan simulated at its rows (and every n up to a cap), against a floor."""

    plan: Plan
    result: PlanResult
    table: list[tuple[int, PlanResult]]
    floor: int | None
    kind: FloorKind

    @property
    def failing(self) -> list[int]:
        """The tabulated n where the floor fails."""
        floor = self.floor
        return [n for n, r in self.table if floor and r.floor_value(self.kind) < floor]

    def floor_report(self) -> dict[str, Any] | None:
        return floor_report(self.plan, self.result, self.table, self.floor, self.kind)

    @property
    def holds(self) -> bool:
        """The floor holds at the rows and every tabulated n (or none was asked)."""
        report = self.floor_report()
        return report is None or report["holds"]

    def as_json(self) -> dict[str, Any]:
        """`smoke plan --format json`'s object."""
        data = {"plan": _plan_echo(self.plan)} | plan_json(
            self.result, self.table, self.floor, self.kind
        )
        report = self.floor_report()
        if report is not None:
            data["floor"] = report
        return data

    def text(self) -> str:
        return plan_text(self.plan, self.result, self.table, self.floor, self.kind, self.failing)


@dataclass(frozen=True)
class DialReport:
    """The dial a request asks for, and the closed forms for a driver to write."""

    request: DialRequest
    result: DialResult

    def as_json(self) -> dict[str, Any]:
        """`smoke dial --format json`'s object."""
        return (
            {"request": self.request.model_dump(mode="json")}  # what the text's first line states
            | dial_json(self.result)
            | {"worst_rows": self.result.worst_rows, "formula": dial_formulas(self.request)}
        )

    def text(self) -> str:
        return dial_text(self.request, self.result)


def plan(
    rows: int,
    batch: int,
    accum: int = 1,
    world: int = 1,
    drop_last: bool = False,
    iterable: bool = False,
    epochs: float | None = None,
    max_steps: int | None = None,
    save_strategy: str = "steps",
    save_steps: float = 500,
    save_total_limit: int | None = None,
    best_step: int | None = None,
    existing: Sequence[int] = (),
    *,
    cap: int | None = None,
    floor: int | None = None,
    floor_kind: str = "checkpoints",
    option: Callable[[str], str] = str,
) -> PlanReport:
    """`smoke plan`: exactly one of `epochs` and `max_steps`, `cap` at most MAX_TABLE.

    Raises BadOptions for options that contradict (naming each as `option` spells
    it: `--max-steps` on the command line), ValidationError for values the Trainer
    would refuse.
    """
    if (epochs is None) == (max_steps is None):
        raise BadOptions(f"give exactly one of {option('epochs')} and {option('max_steps')}")
    if cap and cap > MAX_TABLE:
        raise BadOptions(
            f"{option('cap')} {cap} is above {MAX_TABLE} rows for a per-n table; use `smoke dial`"
        )
    base = plan_from_options(
        rows, batch, accum, world, drop_last, iterable, epochs, max_steps,
        save_strategy, save_steps, save_total_limit, best_step, existing,
    )  # fmt: skip
    try:
        with bounded(MAX_EVENTS):
            result, table = simulate(base), plan_table(base, cap)
    except TooMuchWork:
        raise BadOptions(TOO_MUCH) from None
    return PlanReport(base, result, table, floor, FloorKind(floor_kind))


def dial(
    floor: int,
    cap: int,
    batch: int,
    accum: int = 1,
    world: int = 1,
    min_rows: int = 1,
    drop_last: bool = False,
    iterable: bool = False,
    save_strategy: str = "steps",
    save_steps: float = 500,
    save_total_limit: int | None = None,
    floor_kind: str = "checkpoints",
) -> DialReport:
    """`smoke dial`. Raises ValidationError for values the Trainer would refuse."""
    request = DialRequest(
        floor=floor,
        floor_kind=FloorKind(floor_kind),
        min_rows=min_rows,
        cap=cap,
        geometry=Geometry.of(batch, accum, world, drop_last, iterable),
        save=SavePolicy(
            strategy=SaveStrategy(save_strategy),
            save_steps=save_steps,
            save_total_limit=save_total_limit,
        ),
    )
    try:
        with bounded(MAX_EVENTS):
            return DialReport(request, solve_dial(request))
    except TooMuchWork:
        raise BadOptions(TOO_MUCH) from None


def validation_line(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"{where}: {first['msg']}" if where else first["msg"]


def floor_report(
    base: Plan, result: PlanResult, table: list[tuple[int, PlanResult]], floor, kind: FloorKind
) -> dict[str, Any] | None:
    """Whether the floor holds at --rows and over the table, which n fail and why."""
    if not floor:
        return None
    checked = dict(table)
    checked.setdefault(base.rows, result)
    failing = sorted(n for n, r in checked.items() if r.floor_value(kind) < floor)
    failures = []
    for first, last, r in _ranges(sorted(checked.items())):
        if r.floor_value(kind) < floor:
            why = shortfall(first, base.schedule, r, kind, floor).split(" -> ", 1)[1]
            failures.append({"first": first, "last": last, "why": why.split(" with ")[0]})
    report: dict[str, Any] = {
        "floor": floor,
        "kind": kind.value,
        "holds": not failing,
        "failing_n": failing,
        "failures": failures,
    }
    if failing:
        rows = [n for n in checked if n >= 1]
        request = DialRequest(
            floor=floor, floor_kind=kind, min_rows=min(rows or [1]), cap=max(rows or [1]),
            geometry=base.geometry, save=base.save,
        )  # fmt: skip
        report["suggestion"] = suggestion(request)
    return report


def plan_from_options(
    rows: int,
    batch: int,
    accum: int,
    world: int,
    drop_last: bool,
    iterable: bool,
    epochs: float | None,
    max_steps: int | None,
    save_strategy: str,
    save_steps: float,
    save_total_limit: int | None,
    best_step: int | None,
    existing: Sequence[int],
) -> Plan:
    """The Plan that `smoke plan`'s options (and the MCP tool's arguments) describe.

    Raises pydantic's ValidationError for values the Trainer would refuse.
    """
    return Plan(
        rows=rows,
        geometry=Geometry.of(batch, accum, world, drop_last, iterable),
        schedule=Schedule(
            num_train_epochs=epochs if epochs is not None else 3.0, max_steps=max_steps or -1
        ),
        save=SavePolicy(
            strategy=SaveStrategy(save_strategy),
            save_steps=save_steps,
            save_total_limit=save_total_limit,
            best_step=best_step,
        ),
        existing_checkpoints=tuple(existing),
    )


def plan_table(base: Plan, cap: int | None) -> list[tuple[int, PlanResult]]:
    """The plan simulated for every realized n in [1, cap] (empty without a cap)."""
    return [(n, simulate(base.model_copy(update={"rows": n}))) for n in range(1, (cap or 0) + 1)]


def _result_json(result: PlanResult) -> dict:
    return {
        "steps": result.steps,
        "epochs_run": result.epochs_run,
        "saved_steps": list(result.saved_steps),
        "checkpoints_on_disk": [f"checkpoint-{s}" for s in result.checkpoints_on_disk],
        "outcome": result.outcome.value,
    }


def _plan_echo(plan: Plan) -> dict[str, Any]:
    """The plan as the text's first line states it: rows, geometry, schedule, saving."""
    data = plan.model_dump(mode="json")
    data["geometry"]["effective_batch"] = plan.geometry.effective_batch
    return data


def plan_json(result, table, floor, kind) -> dict:
    data = _result_json(result) | {"warnings": list(result.warnings)}
    if table:
        data["rows"] = [
            {"n": n, **_result_json(r)}
            | ({"meets_floor": r.floor_value(kind) >= floor} if floor else {})
            for n, r in table
        ]
    return data


def plan_text(plan: Plan, result: PlanResult, table, floor, kind, failing) -> str:
    g = plan.geometry
    lines = [
        f"realized n={plan.rows} rows; {g.per_device_batch} per device x {g.grad_accum} accum x "
        f"{g.world_size} world = {g.effective_batch} rows per optimizer step; "
        f"{plan.schedule.describe()}",
        f"outcome: {result.outcome.value}",
        f"optimizer steps: {result.steps} (epochs run {result.epochs_run:g})",
        f"saved at steps: {_steps(result.saved_steps)}",
        f"checkpoints on disk: {_dirs(result.checkpoints_on_disk)}",
        *(f"warning: {w}" for w in result.warnings),
    ]
    if table:
        lines += ["", f"{'n':>11}  {'steps':>6}  {'on disk':>7}  outcome"]
        for first, last, r in _ranges(table):
            span = f"{first}" if first == last else f"{first}-{last}"
            mark = ""
            if floor:
                mark = "  FAILS floor" if r.floor_value(kind) < floor else "  meets floor"
            lines.append(
                f"{span:>11}  {r.steps:>6}  {r.run_checkpoints:>7}  {r.outcome.value}{mark}"
            )
        if floor:
            verdict = (
                f"floor {floor} {kind.value} fails for {len(failing)} of {len(table)} "
                f"realized sizes"
                if failing
                else f"floor {floor} {kind.value} holds"
            )
            lines.append(verdict)
    report = floor_report(plan, result, table, floor, kind)
    if report is not None:
        lines += ["", _floor_line(plan.rows, report)]
        for failure in report["failures"]:
            first, last = failure["first"], failure["last"]
            span = f"n={first}" if first == last else f"n={first}-{last}"
            lines.append(f"  fails at {span}: {failure['why']}")
        if "suggestion" in report:
            lines.append(report["suggestion"])
    return "\n".join(lines)


def _floor_line(rows: int, report: dict[str, Any]) -> str:
    head = f"floor {report['floor']} {report['kind']}"
    if report["holds"]:
        return f"{head}: holds (exit 0)"
    at_rows = "fails" if rows in report["failing_n"] else "holds"
    count = len(report["failing_n"])
    return f"{head}: FAILS for {count} n; {at_rows} at the realized n={rows} (exit 1)"


def _ranges(table):
    """Consecutive n with the same result, as (first n, last n, result)."""
    groups: list[list[Any]] = []  # [first n, last n, result, key]
    for n, r in table:
        key = (r.outcome, r.steps, r.checkpoints_on_disk)
        if groups and groups[-1][3] == key:
            groups[-1][1] = n
        else:
            groups.append([n, n, r, key])
    return [(first, last, r) for first, last, r, _ in groups]


def _steps(steps) -> str:
    return ", ".join(map(str, steps)) or "none"


def _dirs(steps) -> str:
    return ", ".join(f"checkpoint-{s}" for s in steps) or "none"


def dial_json(result: DialResult) -> dict[str, Any]:
    """`smoke dial --format json`'s object (the MCP `smoke_dial` result adds to it)."""
    return {
        "feasible": result.feasible,
        "epochs": result.epochs,
        "max_steps": result.max_steps,
        "reason": result.reason,
    }


def dial_text(request: DialRequest, result) -> str:
    head = (
        f"floor {request.floor} {request.floor_kind.value} for every realized n in "
        f"[{request.min_rows}, {request.cap}]"
    )
    lines = [head]
    lines.append(
        f"epochs: {result.epochs if result.epochs is not None else 'none can'}"
        + (f" (worst case n={result.worst_rows})" if result.worst_rows else "")
    )
    lines.append(f"max_steps: {result.max_steps if result.max_steps is not None else 'none can'}")
    if result.reason:
        lines.append(f"reason: {result.reason}")
    formulas = dial_formulas(request)
    for key in ("epochs", "max_steps"):
        if formulas[key] and result.feasible:
            label = "per realized n" if key == "epochs" else "for every n"
            lines.append(f"{label}: {formulas[key]}")
    if formulas["rule_of_thumb"]:
        lines.append(formulas["rule_of_thumb"])
    return "\n".join(lines)


def dial_formulas(request: DialRequest) -> dict[str, str | None]:
    """The closed-form dials over len(rows), and the rule of thumb's shortfall if any."""
    args = (request.floor, request.floor_kind, request.geometry, request.save)
    save = request.save
    thumb = None
    if (
        request.floor_kind is FloorKind.CHECKPOINTS
        and save.strategy is SaveStrategy.STEPS
        and save.save_steps > 1
        and not request.geometry.iterable
    ):
        per_epoch = steps_per_epoch(request.min_rows, request.geometry)
        if per_epoch:
            guess = rule_of_thumb(request.floor, per_epoch)
            steps = int(guess * per_epoch)
            saves = -(-steps // int(save.save_steps))
            if saves < request.floor:
                thumb = (
                    f"the rule of thumb epochs = max(1, ceil({request.floor} / steps_per_epoch)) "
                    f"gives {guess} at n={request.min_rows}: {steps} steps, {saves} "
                    f"checkpoint(s) with save_steps={int(save.save_steps)}, below floor "
                    f"{request.floor}"
                )
    return {
        "epochs": dial_formula(*args, key="epochs"),
        "max_steps": dial_formula(*args, key="max_steps"),
        "rule_of_thumb": thumb,
    }
