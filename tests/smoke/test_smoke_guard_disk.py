"""The runtime guard (require_floor) and the on-disk helpers (count/assert_checkpoints)."""

from __future__ import annotations

import os
import time

import pytest

from guidelint.smoke import (
    SmokeFloorError,
    assert_checkpoints,
    count_checkpoints,
    dial,
    mark_run_start,
    require_floor,
)

INCIDENT = dict(per_device_batch=4, grad_accum=4, save_steps=1, floor=2)


def test_guard_refuses_the_incident_with_the_arithmetic():
    with pytest.raises(SmokeFloorError) as raised:
        require_floor(realized_rows=2, num_train_epochs=1, **INCIDENT)
    message = str(raised.value)
    assert message.startswith("realized n=2 rows -> 1 optimizer step -> 1 checkpoint < floor 2")
    assert "guidelint smoke dial suggests epochs=2 or max_steps=2" in message


def test_guard_returns_a_planned_dial_that_holds_unchanged():
    chosen = require_floor(realized_rows=30, num_train_epochs=1, **INCIDENT)
    assert chosen.num_train_epochs == 1
    assert chosen.training_arguments() == {"num_train_epochs": 1, "max_steps": -1}


def test_guard_solves_the_dial_when_none_is_planned():
    assert require_floor(realized_rows=2, **INCIDENT).num_train_epochs == 2
    assert require_floor(realized_rows=2, prefer="max_steps", **INCIDENT).max_steps == 2
    assert dial(realized_rows=40, **INCIDENT).num_train_epochs == 1


def test_guard_refuses_when_no_dial_can():
    with pytest.raises(SmokeFloorError, match="below one global batch of 8"):
        require_floor(realized_rows=3, per_device_batch=8, drop_last=True, save_steps=1, floor=1)
    with pytest.raises(SmokeFloorError, match="save_total_limit 1"):
        require_floor(realized_rows=30, save_total_limit=1, **INCIDENT)
    with pytest.raises(SmokeFloorError, match="no rows"):
        require_floor(realized_rows=0, **INCIDENT)


def test_guard_checks_max_steps_on_iterable_data():
    with pytest.raises(SmokeFloorError, match="never-ends"):
        require_floor(
            realized_rows=2,
            per_device_batch=2,
            grad_accum=4,
            iterable=True,
            max_steps=3,
            floor=1,
            floor_kind="steps",
        )


def _checkpoint(folder, step: int, age_s: float = 0) -> None:
    path = folder / f"checkpoint-{step}"
    path.mkdir(parents=True)
    state = path / "trainer_state.json"
    state.write_text("{}")
    if age_s:
        then = time.time() - age_s
        os.utime(state, (then, then))
        os.utime(path, (then, then))


def test_without_a_marker_every_checkpoint_dir_counts(tmp_path):
    _checkpoint(tmp_path, 1)
    _checkpoint(tmp_path, 7, age_s=3600)
    (tmp_path / "checkpoint-final.txt").write_text("not a dir, not a step")
    (tmp_path / "checkpoint-x").mkdir()
    assert count_checkpoints(tmp_path) == 2
    assert count_checkpoints(tmp_path / "missing") == 0


def test_stale_dirs_before_the_run_marker_are_ignored(tmp_path):
    _checkpoint(tmp_path, 100, age_s=3600)
    _checkpoint(tmp_path, 200, age_s=3600)
    mark_run_start(tmp_path)
    _checkpoint(tmp_path, 1)
    assert count_checkpoints(tmp_path) == 1
    with pytest.raises(AssertionError) as raised:
        assert_checkpoints(tmp_path, 2)
    assert "1 checkpoint(s) from this run < floor 2" in str(raised.value)
    assert "ignored stale checkpoint-100, checkpoint-200" in str(raised.value)
    _checkpoint(tmp_path, 2)
    assert assert_checkpoints(tmp_path, 2) == [1, 2]


def test_a_stale_dir_rewritten_by_this_run_counts(tmp_path):
    _checkpoint(tmp_path, 1, age_s=3600)
    since = mark_run_start(tmp_path)
    assert count_checkpoints(tmp_path, since=since) == 0
    state = tmp_path / "checkpoint-1" / "trainer_state.json"
    state.write_text('{"global_step": 1}')
    os.utime(state, (since + 1, since + 1))
    assert count_checkpoints(tmp_path) == 1


def test_guard_bad_input_is_one_line_value_error():
    with pytest.raises(ValueError) as raised:
        require_floor(realized_rows=2, per_device_batch=0, floor=2)
    assert (
        str(raised.value)
        == "require_floor: per_device_batch: Input should be greater than or equal to 1"
    )
    with pytest.raises(ValueError, match="require_floor: 'weekly' is not a valid SaveStrategy"):
        require_floor(realized_rows=2, per_device_batch=4, floor=2, save_strategy="weekly")
    with pytest.raises(ValueError, match="require_floor: rows: Input should be greater"):
        require_floor(realized_rows=-1, per_device_batch=4, floor=2, num_train_epochs=1)
