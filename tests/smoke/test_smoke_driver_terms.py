"""driver_terms: driver values followed as functions of the realized rows, or refused."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guidelint.smoke import FloorKind, Geometry, Plan, SavePolicy, Schedule, simulate
from guidelint.smoke.driver_check import counted_fast
from guidelint.smoke.driver_reader import read_driver
from guidelint.smoke.driver_terms import Env, Guarded, Unfollowed, compile_term


def term_of(source: str, expression: str):
    facts = read_driver(textwrap.dedent(source) + f"\nRESULT = {expression}\n")
    return compile_term(facts, facts.constants["RESULT"][-1])


def test_formula_over_len_rows_is_a_function_of_n():
    term = term_of(
        "import math\nB = 4\nGA = 4\n",
        "max(1, math.ceil(2 / math.ceil(math.ceil(len(rows) / B) / GA)))",
    )
    assert term.rows and not term.constant
    assert [term.at(Env(n)) for n in (1, 16, 17, 30)] == [2, 2, 1, 1]


def test_nested_dicts_argparse_and_dataclass_defaults():
    source = """
        import argparse
        from dataclasses import dataclass, field
        CFG = {"smoke": {"floor": 3}}
        parser = argparse.ArgumentParser()
        parser.add_argument("--num-epochs", dest="epochs", type=int, default=2)
        @dataclass
        class Smoke:
            save_every: int = field(default=5)
        cfg = Smoke()
        args = parser.parse_args()
    """
    assert term_of(source, 'CFG["smoke"]["floor"]').value() == 3
    epochs = term_of(source, "args.epochs")
    assert epochs.value() == 2 and "argparse default of --num-epochs" in epochs.notes[0]
    assert term_of(source, "cfg.save_every").value() == 5


def test_functions_of_assignments_and_one_return_are_inlined():
    source = """
        import math
        def epochs_for(n, floor=2, per_step=16):
            steps = math.ceil(n / per_step)
            return max(1, math.ceil(floor / steps))
    """
    term = term_of(source, "epochs_for(len(rows), floor=3)")
    assert [term.at(Env(n)) for n in (1, 17, 48)] == [3, 2, 1]


def test_world_size_and_conditionals():
    term = term_of(
        "import os\nWORLD = int(os.environ.get('WORLD_SIZE', '1'))\n",
        "2 if len(rows) <= 8 * WORLD else 1",
    )
    assert term.world and term.rows
    assert (term.at(Env(9, 1)), term.at(Env(9, 2))) == (1, 2)


@pytest.mark.parametrize(
    ("source", "expression", "reason"),
    [
        ("import json\nS = json.load(open('s.json'))\n", "S['epochs']", "read at run time"),
        ("def f(n):\n    for _ in range(n):\n        pass\n", "f(3)", "cannot evaluate"),
        ("", "os.environ['EPOCHS']", "read at run time"),
        ("def a():\n    X = 1\ndef b():\n    X = 2\n", "X", "assigned 2 different values"),
        ("", "len(checkpoints)", "not the length of the training rows"),
        ("", "args.epochs", "decided at run time"),
    ],
)
def test_values_the_module_does_not_decide_are_refused_with_the_reason(source, expression, reason):
    with pytest.raises(Unfollowed) as refused:
        term_of(source, expression)
    assert reason in refused.value.reason


def test_require_floor_dials_are_guarded():
    source = "from guidelint.smoke import require_floor\nD = require_floor(realized_rows=2)\n"
    with pytest.raises(Guarded):
        term_of(source, "require_floor(realized_rows=len(rows), floor=2).num_train_epochs")


def test_no_eval_of_arbitrary_code():
    with pytest.raises(Unfollowed):
        term_of("", "__import__('os').system('true')")


@settings(max_examples=200, deadline=None)
@given(
    rows=st.integers(1, 200),
    batch=st.integers(1, 8),
    accum=st.integers(1, 4),
    world=st.integers(1, 3),
    drop_last=st.booleans(),
    epochs=st.sampled_from([0.5, 1, 2, 2.2, 3]),
    max_steps=st.sampled_from([-1, 1, 7, 20]),
    strategy=st.sampled_from(["steps", "epoch", "no"]),
    save_steps=st.sampled_from([1, 3, 5, 0.3]),
    limit=st.sampled_from([None, 1, 2, 4]),
    kind=st.sampled_from(list(FloorKind)),
)
def test_counted_fast_is_simulate(
    rows, batch, accum, world, drop_last, epochs, max_steps, strategy, save_steps, limit, kind
):
    geometry = Geometry(per_device_batch=batch, grad_accum=accum, world_size=world,
                        drop_last=drop_last)  # fmt: skip
    schedule = Schedule(num_train_epochs=epochs, max_steps=max_steps)
    save = SavePolicy(strategy=strategy, save_steps=save_steps, save_total_limit=limit)
    fast = counted_fast(rows, geometry, schedule, save, kind, above=0)
    result = simulate(Plan(rows=rows, geometry=geometry, schedule=schedule, save=save))
    if fast is not None:  # None: no batches or no steps, left to simulate
        assert fast == result.floor_value(kind)
    else:
        assert result.floor_value(kind) == 0 or not result.ok
