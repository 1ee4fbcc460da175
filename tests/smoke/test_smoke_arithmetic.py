"""guidelint.smoke.simulate: where the naive ceil(n / effective_batch) * epochs is wrong."""

from __future__ import annotations

import math

import pytest

from guidelint.smoke import (
    FloorKind,
    Geometry,
    Plan,
    PlanOutcome,
    SavePolicy,
    Schedule,
    UnmodelledVersion,
    simulate,
)
from guidelint.smoke.versions import check_version


def run(
    rows,
    batch,
    accum=1,
    world=1,
    drop_last=False,
    iterable=False,
    epochs=1.0,
    max_steps=-1,
    existing=(),
    **save,
):
    return simulate(
        Plan(
            rows=rows,
            geometry=Geometry(
                per_device_batch=batch,
                grad_accum=accum,
                world_size=world,
                drop_last=drop_last,
                iterable=iterable,
            ),
            schedule=Schedule(num_train_epochs=epochs, max_steps=max_steps),
            save=SavePolicy(**save),
            existing_checkpoints=tuple(existing),
        )
    )


def naive(rows, effective, epochs):
    return math.ceil(rows / effective) * epochs


def test_incident_one_step_one_checkpoint():
    result = run(2, batch=4, accum=4, save_steps=1)
    assert (result.outcome, result.steps, result.saved_steps) == (PlanOutcome.OK, 1, (1,))


def test_partial_accumulation_group_is_stepped_per_epoch_not_carried():
    # 5 batches, GA 3: two steps an epoch (3 + 2); over 3 epochs, 6 steps. Carrying the
    # remainder into the next epoch (4.x) or counting over the whole run gives 5.
    result = run(20, batch=4, accum=3, epochs=3)
    assert result.steps == 6
    assert math.ceil(20 * 3 / 12) == 5


def test_drop_last_across_ranks_floors_the_global_batch():
    # 9 rows, 2 ranks of batch 2, drop_last: 2 batches per rank, not ceil(9 / 4) = 3.
    result = run(9, batch=2, world=2, drop_last=True, epochs=1)
    assert result.steps == 2
    assert naive(9, 4, 1) == 3


def test_drop_last_loses_the_tail_batch():
    assert run(7, batch=4, drop_last=True, epochs=2).steps == 2
    assert naive(7, 4, 2) == 4


def test_fractional_epochs_take_the_ceiling_of_a_float_product():
    assert run(25, batch=1, epochs=2.2).steps == 56  # 2.2 * 25 == 55.00000000000001


def test_final_save_off_the_save_steps_grid():
    assert run(28, batch=4, save_steps=3).saved_steps == (3, 6, 7)
    assert run(10, batch=4, epochs=2).saved_steps == (6,)  # default save_steps=500


def test_ratio_save_steps_is_resolved_against_total_steps():
    assert run(40, batch=4, save_steps=0.3).saved_steps == (3, 6, 9, 10)


def test_epoch_saves_shrink_as_rows_grow_under_max_steps():
    small = run(4, batch=4, max_steps=3, strategy="epoch")
    large = run(40, batch=4, max_steps=3, strategy="epoch")
    assert small.saved_steps == (1, 2, 3)
    assert large.saved_steps == (3,)


def test_rotation_keeps_newest_and_deletes_stale_first():
    result = run(12, batch=4, save_steps=1, save_total_limit=2, existing=(100, 200))
    assert result.checkpoints_on_disk == (2, 3)
    kept = run(8, batch=4, save_steps=1, existing=(50,))
    assert kept.checkpoints_on_disk == (1, 2, 50)
    assert kept.run_checkpoints == 2


def test_best_model_is_protected_and_alone_with_limit_one():
    assert run(16, batch=4, save_steps=1, save_total_limit=1, best_step=2).checkpoints_on_disk == (
        2,
    )
    assert run(16, batch=4, save_steps=1, save_total_limit=2, best_step=1).checkpoints_on_disk == (
        1,
        4,
    )


def test_overwriting_a_stale_dir_warns():
    result = run(8, batch=4, save_steps=1, existing=(2,))
    assert any("checkpoint-2 already exists" in w for w in result.warnings)


@pytest.mark.parametrize(
    ("kwargs", "outcome"),
    [
        (dict(rows=3, batch=4, drop_last=True), PlanOutcome.EMPTY_DATALOADER),
        (dict(rows=0, batch=4), PlanOutcome.EMPTY_DATALOADER),
        (
            dict(rows=3, batch=4, drop_last=True, max_steps=5, strategy="epoch"),
            PlanOutcome.CHECKPOINT_0,
        ),
        (dict(rows=3, batch=4, drop_last=True, max_steps=5), PlanOutcome.NO_TRAINING),
        (dict(rows=4, batch=2, iterable=True), PlanOutcome.NEEDS_MAX_STEPS),
        (dict(rows=2, batch=2, accum=4, iterable=True, max_steps=3), PlanOutcome.NEVER_ENDS),
        (dict(rows=4, batch=2, epochs=0), PlanOutcome.NO_TRAINING),
    ],
)
def test_failure_modes_are_named_outcomes(kwargs, outcome):
    result = run(**kwargs)
    assert result.outcome is outcome
    assert not result.ok
    assert result.floor_value(FloorKind.STEPS) == result.floor_value(FloorKind.CHECKPOINTS) == 0


def test_checkpoint_zero_is_on_disk_but_meets_no_floor():
    result = run(3, batch=4, drop_last=True, max_steps=5, strategy="epoch")
    assert result.checkpoints_on_disk == (0,)
    assert result.floor_value(FloorKind.CHECKPOINTS) == 0


def test_iterable_partial_group_does_not_step():
    # 5 batches a pass, GA 2: 2 steps a pass (the fifth batch carries over).
    result = run(10, batch=2, accum=2, iterable=True, max_steps=5, strategy="epoch")
    assert result.saved_steps == (2, 4, 5)


def test_versions_4x_are_refused_and_6x_warned():
    with pytest.raises(UnmodelledVersion, match="4.x partial-accumulation"):
        check_version("4.44.2")
    assert check_version("5.24.0") == []
    assert "newer" in check_version("6.0.0")[0]
    assert "not installed" in check_version(None)[0]
