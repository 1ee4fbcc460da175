"""The dial in closed form, for step saves: what a driver can write over the realized rows.

A run of S optimizer steps with save_strategy="steps" saves at every multiple of
save_steps (ss) and at the final step: ceil(S / ss) checkpoints. That reaches K
exactly when S >= (K-1)*ss + 1, so

    max_steps  = (K-1)*ss + 1                       for every n
    epochs     = (K-1)*ss // steps_per_epoch(n) + 1  per realized n

with steps_per_epoch(n) = max(1, ceil(ceil(n / (B*W)) / GA)) (Trainer 5.x), and
save_total_limit L keeps min(saves, L): K > L is infeasible whatever the dial.
The card's rule of thumb max(1, ceil(K / steps_per_epoch)) is the epochs formula
with ss = 1 only: with ss > 1 the steps reach K and the checkpoints do not.
`solve_dial` does not use these formulas (it searches `simulate`); tests check that
they agree.
"""

from __future__ import annotations

import math

from guidelint.smoke.arithmetic import batches_per_epoch, updates_per_epoch
from guidelint.smoke.model import FloorKind, Geometry, SavePolicy, SaveStrategy


def steps_per_epoch(rows: int, geometry: Geometry) -> int:
    """Optimizer steps per epoch for n realized rows (sized data, Trainer 5.x); 0 if none."""
    batches = batches_per_epoch(rows, geometry)
    return updates_per_epoch(batches, geometry.grad_accum) if batches else 0


def epochs_dial(floor: int, steps_per_epoch: int, save_steps: int = 1) -> int:
    """The smallest whole num_train_epochs that leaves `floor` step-saved checkpoints."""
    return (floor - 1) * save_steps // steps_per_epoch + 1


def max_steps_dial(floor: int, save_steps: int = 1) -> int:
    """The smallest max_steps that leaves `floor` step-saved checkpoints, for every n."""
    return (floor - 1) * save_steps + 1


def rule_of_thumb(floor: int, steps_per_epoch: int) -> int:
    """The incident card's `epochs = max(1, ceil(K / steps_per_epoch))`: right for ss = 1 only."""
    return max(1, math.ceil(floor / steps_per_epoch))


def dial_formula(
    floor: int, kind: FloorKind, geometry: Geometry, save: SavePolicy, key: str = "epochs"
) -> str | None:
    """The dial written over the realized rows, for a driver to copy (None when not closed-form)."""
    world_batch = geometry.per_device_batch * geometry.world_size
    rounding = "" if geometry.drop_last else "ceil"
    batches = (
        f"{rounding}(len(rows) / {world_batch})" if rounding else f"len(rows) // {world_batch}"
    )
    if geometry.iterable:
        return None
    per_epoch = (
        f"steps_per_epoch = max(1, ceil({batches} / {geometry.grad_accum}))"
        if geometry.grad_accum > 1
        else f"steps_per_epoch = max(1, {batches})"
    )
    if kind is FloorKind.STEPS:
        if key == "max_steps":
            return f"max_steps = {floor}"
        return f"epochs = ceil({floor} / steps_per_epoch), {per_epoch}"
    if save.strategy is SaveStrategy.EPOCH:
        return f"epochs = {floor} (one checkpoint per epoch)" if key == "epochs" else None
    if save.strategy is not SaveStrategy.STEPS or save.save_steps < 1:
        return None
    if save.save_total_limit is not None and save.save_total_limit < floor:
        return None
    ss = int(save.save_steps)
    if key == "max_steps":
        return f"max_steps = ({floor} - 1) * {ss} + 1 = {max_steps_dial(floor, ss)}"
    if ss == 1:
        return f"epochs = ceil({floor} / steps_per_epoch), {per_epoch}"
    return f"epochs = ({floor} - 1) * {ss} // steps_per_epoch + 1, {per_epoch}"
