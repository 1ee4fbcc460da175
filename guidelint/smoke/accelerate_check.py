"""Judging an Accelerate loop's gate: `if step % SAVE_EVERY == 0: accelerator.save_state(...)`.

The loop is the one people write: `for epoch in range(EPOCHS): for step, batch in
enumerate(loader):`, an optimizer step per accumulation group (`accelerator.accumulate`
syncs on the loader's last batch too, as the Trainer 5.x does) and a save whenever a
counter is a multiple of a literal cadence. Two counters are modelled:

- a step counter incremented once per optimizer step (`global_step += 1` under
  `if accelerator.sync_gradients:`, or in a loop without accumulation): saves at
  its multiples, floor(S / K) in all;
- the batch index of `enumerate(loader)`, 0-based and restarting every epoch:
  `step % K == 0` saves at batches 0, K, 2K, ... (ceil(L / K) an epoch), and
  `(step + 1) % K == 0` at batches K-1, 2K-1, ... (floor(L / K) an epoch).

Anything else (a counter the check cannot place, a cadence not decided in the module)
is unfollowed: GL304 says why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from guidelint.smoke.cst_names import code_of
from guidelint.smoke.driver_terms import Env, Term, Unfollowed, compile_term

if TYPE_CHECKING:
    from guidelint.smoke.driver_check import Verdict
    from guidelint.smoke.driver_facts import DriverFacts, Gate
    from guidelint.smoke.model import FloorKind


def judge_accelerate(facts: DriverFacts, gate: Gate, kind: FloorKind, default_cap: int) -> Verdict:
    from guidelint.smoke.driver_check import Verdict, _number, _setting, smoke_dial
    from guidelint.smoke.model import FloorKind

    if len(facts.accelerate_saves) != 1:
        raise Unfollowed("more than one save in the loop: not modelled")
    counter, cadence_node, save_line = facts.accelerate_saves[0]
    counter_kind, offset = _counter(facts, counter)
    accum = _setting(facts, "accum")
    if counter_kind == "steps" and accum is not None and not facts.syncs:
        counter_kind = "batches"  # incremented every batch: not under sync_gradients
    cadence = compile_term(facts, cadence_node)
    dial = smoke_dial(facts)
    if dial is None or dial.term is None:
        raise (dial.why if dial and dial.why else Unfollowed("the loop's epochs are not decided"))
    batch = _setting(facts, "batch")
    if batch is None:
        raise Unfollowed("the DataLoader's batch_size is not decided in this module")
    drop_last = _setting(facts, "drop_last")
    floor = _floor(facts, gate)
    cap_term = _optional_cap(facts)
    cap_value = cap_term.value() if cap_term is not None and cap_term.constant else None
    cap = cap_value if isinstance(cap_value, int) and cap_value >= 1 else default_cap

    dial_term = dial.term

    def run(rows: int, epochs: object = None) -> tuple[int, int]:
        env = Env(rows)
        return loop_counts(
            rows, _whole(batch.at(env)), _whole(accum.at(env) if accum else 1),
            drop_last is not None and drop_last.at(env) is True, dial.key,
            _number(dial_term.at(env)) if epochs is None else epochs, _whole(cadence.at(env)),
            counter_kind, offset,
        )  # fmt: skip

    def short(rows: int, epochs: object = None) -> bool:
        steps, saves = run(rows, epochs)
        counted = saves if kind is FloorKind.CHECKPOINTS else steps
        return counted < _whole(floor.at(Env(rows)))

    searched = range(1, min(cap, 4096) + 1)
    failing = [rows for rows in searched if short(rows)]
    if not failing:
        return Verdict(proven=True)
    first = (failing[0], *run(failing[0]), floor.at(Env(failing[0])))
    holds = next((e for e in range(1, 1001) if not any(short(n, e) for n in searched)), None)
    dial_text = (
        f"epochs={holds} holds for every n" if holds else "no epochs dial up to 1000 holds it"
    )
    rows, steps, saves, floor_value = first
    text = f"realized n={rows} row{'s' if rows != 1 else ''} -> {steps} optimizer step" + (
        "s" if steps != 1 else ""
    )
    if kind is FloorKind.CHECKPOINTS:
        text += f" -> {saves} save_state call{'s' if saves != 1 else ''}"
    text += f" < floor {floor_value}"
    where = [f"save cadence {cadence.at(Env(rows))} ({cadence.where(facts.rel)})"]
    where.append(f"batch={batch.at(Env(rows))} ({batch.where(facts.rel)})")
    if accum is not None:
        where.append(f"gradient accumulation={accum.at(Env(rows))} ({accum.where(facts.rel)})")
    where.append(f"floor={floor_value} ({floor.where(facts.rel)})")
    return Verdict(
        counterexample=text,
        suggestion=f"fails for {len(failing)} of {len(searched)} realized sizes in [1, "
        f"{len(searched)}]; {dial_text}; the save at line {save_line} runs when "
        f"`{code_of(counter)} % {code_of(cadence_node)} == 0`",
        cause="is a constant" if dial.term.constant else f"is too small at n={rows}",
        rows=rows,
        predicted=saves,
        values=", ".join(
            [f"{dial.key}={dial.term.at(Env(rows))} ({dial.term.where(facts.rel)})", *where]
        ),
    )


def loop_counts(
    rows: int, batch: int, accum: int, drop_last: bool, key: str, dial: object, cadence: int,
    counter: str, offset: int,
) -> tuple[int, int]:  # fmt: skip
    """(optimizer steps, saves) of the loop at realized n."""
    if not isinstance(dial, int | float) or dial < 0:
        raise Unfollowed(f"the loop's {key} is not a number")
    batches = rows // batch if drop_last else -(-rows // batch)
    per_epoch = -(-batches // accum) if batches else 0
    if key == "max_steps":
        raise Unfollowed("a loop bounded by max_steps is not modelled")
    epochs = int(dial)
    steps = epochs * per_epoch
    if counter == "steps":
        return steps, steps // cadence
    if counter == "batches":
        return steps, epochs * batches // cadence
    # the batch index: `(step + offset) % K == 0` for step in 0..batches-1, every epoch
    per_epoch_saves = sum(1 for b in range(batches) if (b + offset) % cadence == 0)
    return steps, epochs * per_epoch_saves


def _counter(facts: DriverFacts, counter: cst.BaseExpression) -> tuple[str, int]:
    """("steps", 0) for an optimizer-step counter, ("batch", offset) for enumerate's index."""
    offset = 0
    if isinstance(counter, cst.BinaryOperation) and isinstance(counter.operator, cst.Add):
        if isinstance(counter.right, cst.Integer):
            offset, counter = int(counter.right.value), counter.left
    if not isinstance(counter, cst.Name):
        raise Unfollowed(f"`{code_of(counter)}` is a save counter the check does not place")
    name = counter.value
    if name in facts.counters and offset == 0:
        return "steps", 0
    if name in facts.enumerated:
        return "batch", offset
    raise Unfollowed(f"`{name}` is a save counter the check does not place")


def _floor(facts: DriverFacts, gate: Gate) -> Term:
    from guidelint.smoke.driver_terms import const

    if gate.floor is not None:
        return const(gate.floor, str(gate.floor), gate.line)
    assert gate.bound is not None
    return compile_term(facts, gate.bound)


def _optional_cap(facts: DriverFacts) -> Term | None:
    from guidelint.smoke.driver_check import _optional

    return _optional(facts, "cap")


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 1:
        raise Unfollowed(f"{value!r} is not a whole number of at least 1")
    return int(value)
