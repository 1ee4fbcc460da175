"""The runtime guard: refuse a smoke run that cannot meet its gate, before training starts."""

from __future__ import annotations

from pydantic import ValidationError

from guidelint.smoke.arithmetic import simulate
from guidelint.smoke.model import (
    FloorKind,
    Geometry,
    Plan,
    PlanResult,
    SavePolicy,
    SaveStrategy,
    Schedule,
    _Frozen,
)
from guidelint.smoke.solver import DialRequest, solve_dial


class SmokeFloorError(Exception):
    """The smoke dial cannot meet the floor for the realized slice; the message says why."""


class Dial(_Frozen):
    """What to pass to TrainingArguments: exactly one of the two is set."""

    num_train_epochs: float | None = None
    max_steps: int | None = None

    def training_arguments(self) -> dict[str, float | int]:
        if self.max_steps is not None:
            return {"max_steps": self.max_steps}
        return {"num_train_epochs": self.num_train_epochs or 0, "max_steps": -1}


def require_floor(
    *,
    realized_rows: int,
    per_device_batch: int,
    floor: int,
    grad_accum: int = 1,
    world_size: int = 1,
    drop_last: bool = False,
    iterable: bool = False,
    save_strategy: str = "steps",
    save_steps: float = 500,
    save_total_limit: int | None = None,
    floor_kind: str = "checkpoints",
    num_train_epochs: float | None = None,
    max_steps: int | None = None,
    prefer: str = "epochs",
) -> Dial:
    """The dial to use for this realized slice, or SmokeFloorError with the arithmetic.

    Give the dial you planned (num_train_epochs or max_steps) to have it checked and
    returned unchanged when it holds; give neither to get the smallest one
    (`prefer` says which kind).
    """
    try:
        geometry, save, kind, request = _inputs(
            realized_rows,
            per_device_batch,
            floor,
            grad_accum,
            world_size,
            drop_last,
            iterable,
            save_strategy,
            save_steps,
            save_total_limit,
            floor_kind,
        )
        schedule = Schedule(
            num_train_epochs=num_train_epochs if num_train_epochs is not None else 3.0,
            max_steps=max_steps if max_steps is not None else -1,
        )
        plan = Plan(rows=realized_rows, geometry=geometry, schedule=schedule, save=save)
    except ValueError as err:  # pydantic's ValidationError, an unknown strategy or floor kind
        raise ValueError(f"require_floor: {_one_line(err)}") from None
    if num_train_epochs is None and max_steps is None:
        return _solved(request, realized_rows, prefer)
    result = simulate(plan)
    if result.floor_value(kind) >= floor:
        if schedule.by_steps:
            return Dial(max_steps=schedule.max_steps)
        return Dial(num_train_epochs=schedule.num_train_epochs)
    raise SmokeFloorError(shortfall(realized_rows, schedule, result, kind, floor, request))


def _one_line(err: ValueError) -> str:
    if isinstance(err, ValidationError):
        first = err.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"{where}: {first['msg']}" if where else first["msg"]
    return str(err)


def _inputs(
    rows, batch, floor, accum, world, drop_last, iterable, strategy, save_steps, limit, floor_kind
):
    """The pydantic models behind require_floor's keyword arguments."""
    geometry = Geometry.of(batch, accum, world, drop_last, iterable)
    save = SavePolicy(
        strategy=SaveStrategy(strategy),
        save_steps=save_steps,
        save_total_limit=limit,
    )
    kind = FloorKind(floor_kind)
    request = DialRequest(
        floor=floor,
        floor_kind=kind,
        min_rows=max(rows, 1),
        cap=max(rows, 1),
        geometry=geometry,
        save=save,
    )
    return geometry, save, kind, request


def _solved(request: DialRequest, rows: int, prefer: str) -> Dial:
    solved = solve_dial(request) if rows > 0 else None
    if solved is None or not solved.feasible:
        reason = solved.reason if solved else "no rows were realized"
        raise SmokeFloorError(
            f"realized n={_plural(rows, 'row')}: no dial meets floor {request.floor} "
            f"{request.floor_kind.value} ({reason})"
        )
    if (prefer == "max_steps" and solved.max_steps is not None) or solved.epochs is None:
        return Dial(max_steps=solved.max_steps)
    return Dial(num_train_epochs=solved.epochs)


def shortfall(
    rows: int,
    schedule: Schedule,
    result: PlanResult,
    kind: FloorKind,
    floor: int,
    request: DialRequest | None = None,
) -> str:
    """`realized n=2 rows -> 1 optimizer step -> 1 checkpoint < floor 2 (...)`."""
    text = f"realized n={_plural(rows, 'row')} -> {_plural(result.steps, 'optimizer step')}"
    if not result.ok:
        text += f" ({result.outcome.value})"
    if kind is FloorKind.CHECKPOINTS:
        text += f" -> {_plural(result.floor_value(kind), 'checkpoint')} < floor {floor}"
    else:
        text += f" < floor {floor}"
    text += f" with {schedule.describe()}"
    if request is not None:
        text += f"; {suggestion(request)}"
    return text


def suggestion(request: DialRequest) -> str:
    solved = solve_dial(request)
    if not solved.feasible:
        return f"no dial can ({solved.reason})"
    parts = []
    if solved.epochs is not None:
        parts.append(f"epochs={solved.epochs}")
    if solved.max_steps is not None:
        parts.append(f"max_steps={solved.max_steps}")
    return "guidelint smoke dial suggests " + " or ".join(parts)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")
