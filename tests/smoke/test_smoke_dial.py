"""The dial solver: minimal, valid for every realized n, and honest when no dial can."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from guidelint.smoke import (
    DialRequest,
    FloorKind,
    Geometry,
    Plan,
    SavePolicy,
    Schedule,
    simulate,
    solve_dial,
)


def request(floor=2, cap=30, min_rows=1, kind="checkpoints", **geometry_and_save):
    save_keys = {"strategy", "save_steps", "save_total_limit"}
    save = {k: v for k, v in geometry_and_save.items() if k in save_keys}
    geometry = {k: v for k, v in geometry_and_save.items() if k not in save_keys}
    return DialRequest(
        floor=floor,
        floor_kind=kind,
        min_rows=min_rows,
        cap=cap,
        geometry=Geometry(**geometry),
        save=SavePolicy(**save),
    )


def value_at(req: DialRequest, rows: int, schedule: Schedule) -> int:
    plan = Plan(rows=rows, geometry=req.geometry, schedule=schedule, save=req.save)
    return simulate(plan).floor_value(req.floor_kind)


def holds(req: DialRequest, schedule_for, dial: int) -> bool:
    return all(
        value_at(req, n, schedule_for(dial)) >= req.floor for n in range(req.min_rows, req.cap + 1)
    )


def epochs(value):
    return Schedule(num_train_epochs=value)


def steps(value):
    return Schedule(max_steps=value)


def test_incident_dial():
    solved = solve_dial(request(per_device_batch=4, grad_accum=4, save_steps=1))
    assert (solved.feasible, solved.epochs, solved.max_steps) == (True, 2, 2)


def test_rule_of_thumb_is_wrong_with_sparse_saves():
    # max(1, ceil(K / steps_per_epoch)) = 2 epochs; with save_steps=3 that is 2 steps, one save.
    solved = solve_dial(request(per_device_batch=4, grad_accum=4, save_steps=3))
    assert solved.epochs == 4  # floor((K-1) * ss / steps_per_epoch(1)) + 1
    assert solved.max_steps == 4  # (K-1) * ss + 1


def test_worst_case_is_the_cap_for_max_steps_with_epoch_saves():
    solved = solve_dial(request(per_device_batch=4, strategy="epoch", floor=2))
    assert solved.max_steps == 9  # (K-1) * steps_per_epoch(30) + 1
    assert not holds(request(per_device_batch=4, strategy="epoch"), steps, 8)


def test_infeasible_reasons():
    above_limit = solve_dial(request(per_device_batch=4, save_steps=1, save_total_limit=1))
    assert not above_limit.feasible and "save_total_limit 1" in above_limit.reason
    no_saves = solve_dial(request(per_device_batch=4, strategy="no"))
    assert not no_saves.feasible and '"no"' in no_saves.reason
    drop_last = solve_dial(request(per_device_batch=8, drop_last=True, save_steps=1))
    assert not drop_last.feasible and "below one global batch of 8" in drop_last.reason
    iterable = solve_dial(request(per_device_batch=2, grad_accum=4, iterable=True, save_steps=1))
    assert not iterable.feasible and "never ends" in iterable.reason


def test_drop_last_is_feasible_when_every_slice_fills_a_batch():
    solved = solve_dial(request(per_device_batch=8, drop_last=True, save_steps=1, min_rows=8))
    assert solved.epochs == 2


def test_iterable_needs_max_steps_but_can_have_one():
    solved = solve_dial(request(per_device_batch=2, iterable=True, save_steps=1, min_rows=2))
    assert solved.epochs is None and solved.max_steps == 2 and solved.feasible
    assert "iterable dataset needs max_steps" in solved.reason


def test_ratio_save_steps_cannot_exceed_its_save_count():
    solved = solve_dial(request(floor=5, per_device_batch=1, save_steps=0.5))
    assert not solved.feasible


geometries = st.fixed_dictionaries(
    {
        "per_device_batch": st.integers(1, 4),
        "grad_accum": st.integers(1, 4),
        "world_size": st.integers(1, 2),
        "drop_last": st.booleans(),
        "strategy": st.sampled_from(["steps", "epoch"]),
        "save_steps": st.sampled_from([1, 2, 3, 5]),
        "save_total_limit": st.sampled_from([None, 2, 3, 5]),
    }
)


@settings(max_examples=60, deadline=None)
@given(
    geometry=geometries,
    floor=st.integers(1, 4),
    kind=st.sampled_from(["checkpoints", "steps"]),
    min_rows=st.integers(1, 10),
    span=st.integers(0, 30),
)
def test_dial_holds_for_every_n_and_one_less_does_not(geometry, floor, kind, min_rows, span):
    req = request(floor=floor, kind=kind, min_rows=min_rows, cap=min_rows + span, **geometry)
    solved = solve_dial(req)
    for dial, schedule_for in ((solved.epochs, epochs), (solved.max_steps, steps)):
        if dial is None:
            continue
        assert holds(req, schedule_for, dial)
        assert dial == 1 or not holds(req, schedule_for, dial - 1)
    if not solved.feasible:
        assert solved.reason
        # Nothing small works either: no dial up to 64 holds the floor.
        assert not any(holds(req, steps, m) for m in (1, 8, 64))


@settings(max_examples=40, deadline=None)
@given(
    batch=st.integers(1, 4),
    accum=st.integers(1, 4),
    save_steps=st.integers(1, 5),
    floor=st.integers(1, 5),
    min_rows=st.integers(1, 20),
    span=st.integers(0, 40),
)
def test_closed_forms_for_step_saving(batch, accum, save_steps, floor, min_rows, span):
    """The reference formulas: E = floor((K-1)*ss / U(n_min)) + 1 and M = (K-1)*ss + 1."""
    req = request(
        floor=floor,
        min_rows=min_rows,
        cap=min_rows + span,
        per_device_batch=batch,
        grad_accum=accum,
        save_steps=save_steps,
    )
    batches = -(-min_rows // batch)
    per_epoch = -(-batches // accum)
    solved = solve_dial(req)
    assert solved.epochs == (floor - 1) * save_steps // per_epoch + 1
    assert solved.max_steps == (floor - 1) * save_steps + 1
    assert req.floor_kind is FloorKind.CHECKPOINTS


def test_ratio_save_steps_scan_finds_the_smallest_dial_that_holds():
    req = request(floor=3, per_device_batch=2, save_steps=0.3, cap=12)
    solved = solve_dial(req)
    assert solved.max_steps is not None and holds(req, steps, solved.max_steps)
    assert not any(holds(req, steps, m) for m in range(1, solved.max_steps))


@settings(max_examples=150, deadline=None)
@given(
    batch=st.integers(1, 8),
    accum=st.integers(1, 4),
    world=st.integers(1, 3),
    save_steps=st.integers(1, 7),
    floor=st.integers(1, 5),
    rows=st.integers(1, 80),
)
def test_closed_form_dials_agree_with_the_solver(batch, accum, world, save_steps, floor, rows):
    from guidelint.smoke import epochs_dial, max_steps_dial, rule_of_thumb, steps_per_epoch

    req = request(
        floor=floor, cap=rows, min_rows=rows, per_device_batch=batch, grad_accum=accum,
        world_size=world, save_steps=save_steps,
    )  # fmt: skip
    solved = solve_dial(req)
    per_epoch = steps_per_epoch(rows, req.geometry)
    assert solved.epochs == epochs_dial(floor, per_epoch, save_steps)
    assert solved.max_steps == max_steps_dial(floor, save_steps)
    thumb = rule_of_thumb(floor, per_epoch)
    if save_steps == 1:
        assert thumb == solved.epochs
    else:  # never more than the right dial; short of it whenever saves are sparser than epochs
        assert thumb <= solved.epochs
        if per_epoch * thumb < (floor - 1) * save_steps + 1:
            assert not holds(req, epochs, thumb)
