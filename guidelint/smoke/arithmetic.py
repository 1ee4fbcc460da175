"""Optimizer steps and on-disk checkpoints of a Trainer run, exact to transformers 5.x.

Each function mirrors a piece of the Trainer (5.24.0, accelerate 1.15.0), named
in its docstring, so that a reader can check it against the source:
`Trainer.set_initial_training_values`, `Trainer._run_epoch`,
`DefaultFlowCallback.on_step_end/on_epoch_end`, `trainer_utils.rotate_checkpoints`
and `Trainer._finalize_training`. tests/smoke/test_smoke_trainer_grid.py proves it on disk.
"""

from __future__ import annotations

import contextvars
import math
from collections.abc import Iterator
from contextlib import contextmanager

from guidelint.smoke.model import (
    Geometry,
    Plan,
    PlanOutcome,
    PlanResult,
    SavePolicy,
    SaveStrategy,
)
from guidelint.smoke.versions import installed_warnings


class TooMuchWork(ValueError):
    """A plan (or a dial's search) that would simulate more saves and epochs than the
    budget `bounded` set: one line, not minutes of work or a MemoryError."""


# Saves and epochs left to simulate in this `smoke plan` or `smoke dial` (a list, to be
# spent in place); None: unbounded, for callers that simulate on their own.
_BUDGET: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "smoke_budget", default=None
)


@contextmanager
def bounded(events: int) -> Iterator[None]:
    """Simulate at most `events` saves and epochs in all inside the block (every save
    and epoch end is one list entry: `--max-steps 1e12 --save-steps 1` built a list of
    a trillion, and a dial over a billion rows simulated millions of saves per try)."""
    token = _BUDGET.set([events])
    try:
        yield
    finally:
        _BUDGET.reset(token)


def _spend(events: int) -> None:
    left = _BUDGET.get()
    if left is None:
        return
    left[0] -= events
    if left[0] < 0:
        raise TooMuchWork("more saves and epochs to simulate than guidelint will enumerate")


def batches_per_epoch(rows: int, geometry: Geometry) -> int:
    """Batches one rank sees per pass: accelerate's BatchSamplerShard with even_batches."""
    global_batch = geometry.per_device_batch * geometry.world_size
    if geometry.drop_last:
        return rows // global_batch
    return -(-rows // global_batch)


def updates_per_epoch(batches: int, grad_accum: int) -> int:
    """Optimizer steps per epoch: the trailing partial accumulation group steps too (5.x)."""
    return max(batches // grad_accum + int(batches % grad_accum > 0), 1)


def simulate(plan: Plan) -> PlanResult:
    """What the Trainer does with this plan: steps, saves, and dirs left on disk."""
    warnings = installed_warnings()
    if plan.geometry.iterable:
        result = _simulate_iterable(plan)
    else:
        result = _simulate_sized(plan)
    return result.model_copy(update={"warnings": (*warnings, *result.warnings)})


def _simulate_sized(plan: Plan) -> PlanResult:
    geometry, schedule = plan.geometry, plan.schedule
    batches = batches_per_epoch(plan.rows, geometry) if plan.rows else 0
    if batches == 0:
        if plan.rows == 0 or not schedule.by_steps:
            # No rows: RandomSampler refuses; no batches and epochs: "max_steps must be set".
            return _stopped(plan, PlanOutcome.EMPTY_DATALOADER)
        return _empty_loader_with_max_steps(plan)
    updates = updates_per_epoch(batches, geometry.grad_accum)
    # Trainer: max_steps = math.ceil(args.num_train_epochs * num_update_steps_per_epoch)
    total = (
        schedule.max_steps if schedule.by_steps else math.ceil(schedule.num_train_epochs * updates)
    )
    if total <= 0:
        return _stopped(plan, PlanOutcome.NO_TRAINING)
    epochs = -(-total // updates)
    _spend(epochs)
    epoch_ends = [min((e + 1) * updates, total) for e in range(epochs)]
    last_epoch, last_update = divmod(total - 1, updates)
    consumed = min((last_update + 1) * geometry.grad_accum, batches)
    epoch_float = last_epoch + consumed / batches  # state.epoch at the last step
    return _finish(plan, PlanOutcome.OK, total, epoch_float, epoch_ends)


def _simulate_iterable(plan: Plan) -> PlanResult:
    """An IterableDataset: epochs are passes; a pass steps once per full GA group only.

    steps_in_epoch is max_steps * GA, so the trailing partial group of a pass is
    not synced; its gradients carry over, and the step counter restarts each pass.
    """
    geometry, schedule = plan.geometry, plan.schedule
    if not schedule.by_steps:
        return _stopped(plan, PlanOutcome.NEEDS_MAX_STEPS)
    batches = batches_per_epoch(plan.rows, geometry)
    if batches == 0:
        return _empty_loader_with_max_steps(plan)
    total = schedule.max_steps
    per_pass = min(batches, total * geometry.grad_accum) // geometry.grad_accum
    if per_pass == 0:
        return _stopped(plan, PlanOutcome.NEVER_ENDS)
    passes = -(-total // per_pass)
    _spend(passes)
    pass_ends = [min((p + 1) * per_pass, total) for p in range(passes)]
    last_pass, last_update = divmod(total - 1, per_pass)
    epoch_float = last_pass + (last_update + 1) * geometry.grad_accum / (
        total * geometry.grad_accum
    )
    return _finish(plan, PlanOutcome.OK, total, epoch_float, pass_ends)


def _empty_loader_with_max_steps(plan: Plan) -> PlanResult:
    """An empty pass stops training at step 0; on_epoch_end still saves under "epoch"."""
    if plan.save.strategy is SaveStrategy.EPOCH:
        return _finish(plan, PlanOutcome.CHECKPOINT_0, 0, 0.0, [0])
    return _stopped(plan, PlanOutcome.NO_TRAINING)


def _stopped(plan: Plan, outcome: PlanOutcome) -> PlanResult:
    """A run that saves nothing: stale dirs are all that is on disk."""
    return _finish(plan, outcome, 0, 0.0, [])


def _finish(
    plan: Plan, outcome: PlanOutcome, total: int, epoch_float: float, epoch_ends: list[int]
) -> PlanResult:
    saved = saved_steps(plan.save, total, epoch_ends) if outcome is PlanOutcome.OK else []
    if outcome is PlanOutcome.CHECKPOINT_0:
        saved = [0]
    disk, warnings = rotate(plan.save, plan.existing_checkpoints, saved)
    return PlanResult(
        outcome=outcome,
        steps=total,
        epochs_run=epoch_float,
        epochs_entered=len(epoch_ends),
        saved_steps=tuple(saved),
        checkpoints_on_disk=tuple(sorted(step for step, _ in disk)),
        run_checkpoints=sum(1 for _, ours in disk if ours),
        warnings=tuple(warnings),
    )


def saved_steps(save: SavePolicy, total: int, epoch_ends: list[int]) -> list[int]:
    """DefaultFlowCallback: every multiple of save_steps and always the final step
    ("steps"), or the end of every epoch entered, a cut-short last one included ("epoch")."""
    if save.strategy is SaveStrategy.EPOCH:
        return list(epoch_ends)
    if save.strategy is SaveStrategy.NO or total <= 0:
        return []
    interval = save.interval(total)
    if interval > 0:
        _spend(total // interval)
    steps = list(range(interval, total + 1, interval)) if interval > 0 else []
    if not steps or steps[-1] != total:
        steps.append(total)
    return steps


def rotate(
    save: SavePolicy, existing: tuple[int, ...], saved: list[int]
) -> tuple[list[tuple[int, bool]], list[str]]:
    """The dirs left, oldest first, as (step, written by this run).

    rotate_checkpoints after each save: sort by mtime (stale dirs first), keep the
    newest and the best, delete the oldest others down to save_total_limit. Then
    _finalize_training with save_total_limit=1 keeps only the best.
    """
    disk: dict[int, bool] = dict.fromkeys(sorted(set(existing)), False)  # oldest first
    warnings: list[str] = []
    limit = save.save_total_limit
    best = save.best_step
    best_on_disk = False
    for step in saved:
        if disk.pop(step, True) is False:
            warnings.append(f"checkpoint-{step} already exists and is overwritten in place")
        disk[step] = True
        # _save_checkpoint records the best dir only once it exists on disk.
        best_on_disk = best_on_disk or (best is not None and best <= step and best in disk)
        if limit is not None and limit > 0 and len(disk) > limit:
            _delete_oldest(disk, limit, best if best_on_disk else None)
    if limit == 1 and best_on_disk and best in disk:
        disk = {best: disk[best]}
    return list(disk.items()), warnings


def _delete_oldest(disk: dict[int, bool], limit: int, best: int | None) -> None:
    newest = next(reversed(disk))
    protected = {newest} | ({best} if best is not None else set())
    keep = max(limit, len(protected))
    for step in list(disk):
        if len(disk) <= keep:
            break
        if step not in protected:
            del disk[step]
