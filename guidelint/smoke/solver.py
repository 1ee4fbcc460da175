"""The smoke dial: the smallest epochs or max_steps that hold a floor for every realized n.

The solver is exact by construction: it asks `simulate` rather than a formula, for
one representative n per distinct batches-per-epoch value (n matters to the
Trainer only through that number). Per n, counts grow with the dial when
save_steps is absolute, so a binary search finds each n's smallest dial and the
answer is the largest of them; a ratio save_steps (< 1) is not monotonic, so it is
scanned.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from pydantic import Field, model_validator

from guidelint.smoke.arithmetic import batches_per_epoch, simulate
from guidelint.smoke.model import (
    FloorKind,
    Geometry,
    Plan,
    PlanOutcome,
    PlanResult,
    SavePolicy,
    SaveStrategy,
    Schedule,
    _Frozen,
)

MAX_DIAL = 1 << 24  # beyond this, "no setting can" is the honest answer
RATIO_SCAN = 1024
GROUP_LIMIT = 200


class DialRequest(_Frozen):
    floor: int = Field(ge=1)
    floor_kind: FloorKind = FloorKind.CHECKPOINTS
    min_rows: int = Field(default=1, ge=1)
    cap: int = Field(ge=1)
    geometry: Geometry
    save: SavePolicy = Field(default_factory=SavePolicy)

    @model_validator(mode="after")
    def _range(self) -> DialRequest:
        if self.min_rows > self.cap:
            raise ValueError(f"min_rows {self.min_rows} is above the cap {self.cap}")
        return self


class DialResult(_Frozen):
    feasible: bool  # at least one of the two dials holds the floor
    epochs: int | None  # smallest whole num_train_epochs, None if none can
    max_steps: int | None  # smallest max_steps, None if none can
    reason: str | None = None  # why a dial is missing
    worst_rows: int | None = None  # the realized n that needed the largest epochs dial


def plan_for(request: DialRequest, rows: int, schedule: Schedule) -> Plan:
    return Plan(rows=rows, geometry=request.geometry, schedule=schedule, save=request.save)


def meets(request: DialRequest, result: PlanResult) -> bool:
    return result.floor_value(request.floor_kind) >= request.floor


def solve_dial(request: DialRequest) -> DialResult:
    static = _static_infeasibility(request)
    if static:
        return DialResult(feasible=False, epochs=None, max_steps=None, reason=static)
    epochs, worst, why_epochs = _solve(request, lambda v: Schedule(num_train_epochs=v))
    max_steps, _, why_steps = _solve(request, lambda v: Schedule(max_steps=v))
    reasons = [
        f"{name}: {why}" for name, why in (("epochs", why_epochs), ("max_steps", why_steps)) if why
    ]
    return DialResult(
        feasible=epochs is not None or max_steps is not None,
        epochs=epochs,
        max_steps=max_steps,
        reason="; ".join(reasons) or None,
        worst_rows=worst,
    )


def _static_infeasibility(request: DialRequest) -> str | None:
    if request.floor_kind is not FloorKind.CHECKPOINTS:
        return None
    if request.save.strategy is SaveStrategy.NO:
        return 'save_strategy "no" writes no checkpoints'
    if _ratio_saves(request) and request.floor > math.ceil(1 / request.save.save_steps):
        ratio = request.save.save_steps
        return (
            f"save_steps={ratio} is a ratio: at most {math.ceil(1 / ratio)} saves "
            f"whatever the length, below floor {request.floor}"
        )
    limit = request.save.save_total_limit
    if limit is not None and 0 < limit < request.floor:
        return f"floor {request.floor} is above save_total_limit {limit}: rotation keeps {limit}"
    return None


def _ratio_saves(request: DialRequest) -> bool:
    """A ratio save_steps makes checkpoint counts non-monotonic in the dial."""
    save = request.save
    return (
        request.floor_kind is FloorKind.CHECKPOINTS
        and save.strategy is SaveStrategy.STEPS
        and save.save_steps < 1
    )


def row_groups(request: DialRequest) -> list[tuple[int, int]]:
    """(smallest n, how many n) for each distinct batches-per-epoch value in [min_rows, cap].

    n matters to the Trainer only through that value. Beyond GROUP_LIMIT values
    the first and last halves are kept: counts are monotonic in it for absolute
    save_steps, so the ends decide the dial.
    """
    geometry = request.geometry
    size = geometry.per_device_batch * geometry.world_size
    low = batches_per_epoch(request.min_rows, geometry)
    high = batches_per_epoch(request.cap, geometry)
    values: Sequence[int] = range(low, high + 1)
    if len(values) > GROUP_LIMIT:
        values = [*values[: GROUP_LIMIT // 2], *values[-GROUP_LIMIT // 2 :]]

    def first_row(batches: int) -> int:
        start = batches * size if geometry.drop_last else (batches - 1) * size + 1
        return max(start, request.min_rows)

    return [
        (first_row(b), min(first_row(b + 1) - 1, request.cap) - first_row(b) + 1) for b in values
    ]


def representative_rows(request: DialRequest) -> list[int]:
    """The smallest n of each distinct batches-per-epoch value in [min_rows, cap]."""
    return [rows for rows, _ in row_groups(request)]


def _solve(
    request: DialRequest, schedule: Callable[[int], Schedule]
) -> tuple[int | None, int | None, str | None]:
    """(smallest dial, the n that needed it, why none) for one kind of dial."""
    reps = representative_rows(request)
    if _ratio_saves(request):
        return _scan(request, reps, schedule)
    best, worst = 0, None
    for rows in reps:
        value, why = _smallest_for(request, rows, schedule)
        if value is None:
            return None, None, why
        if value > best:
            best, worst = value, rows
    return best, worst, None


def _smallest_for(
    request: DialRequest, rows: int, schedule: Callable[[int], Schedule]
) -> tuple[int | None, str | None]:
    def result(value: int) -> PlanResult:
        return simulate(plan_for(request, rows, schedule(value)))

    high = 1
    first = result(high)
    if not first.ok:  # empty loader, never-ends, needs max_steps: no dial changes that
        return None, _why_not(request, rows, first)
    while not meets(request, result(high)):
        if high >= MAX_DIAL:
            return None, _why_not(request, rows, result(high))
        high = min(high * 2, MAX_DIAL)
    low = high // 2  # fails (or 0)
    while high - low > 1:
        middle = (low + high) // 2
        if meets(request, result(middle)):
            high = middle
        else:
            low = middle
    return high, None


def _scan(
    request: DialRequest, reps: list[int], schedule: Callable[[int], Schedule]
) -> tuple[int | None, int | None, str | None]:
    for value in range(1, RATIO_SCAN + 1):
        results = [simulate(plan_for(request, n, schedule(value))) for n in reps]
        if all(meets(request, r) for r in results):
            return value, None, None
    return (
        None,
        None,
        (
            f"save_steps={request.save.save_steps} is a ratio: about "
            f"{round(1 / request.save.save_steps)} saves whatever the length"
        ),
    )


def _why_not(request: DialRequest, rows: int, result: PlanResult) -> str:
    geometry = request.geometry
    if result.outcome is PlanOutcome.EMPTY_DATALOADER:
        return (
            f"realized n={_rows(rows)} is below one global batch of "
            f"{geometry.per_device_batch * geometry.world_size} with drop_last: "
            "the Trainer raises (empty dataloader)"
        )
    if result.outcome is PlanOutcome.NEEDS_MAX_STEPS:
        return "an iterable dataset needs max_steps"
    if result.outcome is PlanOutcome.NEVER_ENDS:
        return (
            f"realized n={_rows(rows)} makes fewer than {geometry.grad_accum} batches per pass: "
            "an iterable dataset never steps and training never ends"
        )
    if result.outcome in (PlanOutcome.CHECKPOINT_0, PlanOutcome.NO_TRAINING):
        outcome = result.outcome.value
        return f"realized n={_rows(rows)} gives an empty dataloader: no training ({outcome})"
    return f"no dial up to {MAX_DIAL} reaches floor {request.floor} at realized n={rows}"


def _rows(count: int) -> str:
    return f"{count} row" if count == 1 else f"{count} rows"
