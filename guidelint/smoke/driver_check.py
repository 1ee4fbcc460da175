"""Judging a driver's smoke dial against its gates (the logic behind GL301-GL303)."""

from __future__ import annotations

from dataclasses import dataclass

from guidelint.smoke.arithmetic import simulate
from guidelint.smoke.driver_facts import CountKind, DriverFacts, Gate, Setting
from guidelint.smoke.driver_values import Value, evaluate
from guidelint.smoke.guard import shortfall
from guidelint.smoke.model import (
    FloorKind,
    Geometry,
    Plan,
    SavePolicy,
    SaveStrategy,
    Schedule,
)
from guidelint.smoke.solver import DialRequest, row_groups, solve_dial
from guidelint.smoke.versions import UnmodelledVersion


@dataclass(frozen=True)
class SmokeDial:
    key: str  # "epochs" or "max_steps"
    setting: Setting
    value: Value

    @property
    def constant(self) -> bool:
        return isinstance(self.value.value, int | float)

    @property
    def line(self) -> int:
        return self.value.literal_line or self.setting.line

    def describe(self) -> str:
        number = self.value.value
        if isinstance(number, float) and number.is_integer():
            number = int(number)
        return f"{self.key}={number}"


@dataclass(frozen=True)
class Verdict:
    """What the arithmetic says about one gate: a counterexample, proof, or neither."""

    counterexample: str | None = None  # "realized n=2 rows -> 1 optimizer step -> ..."
    suggestion: str | None = None  # "guidelint smoke dial suggests epochs=2"
    proven: bool = False
    why_unknown: str | None = None


def smoke_dial(facts: DriverFacts) -> SmokeDial | None:
    """The dial on the smoke path: max_steps when it is set positive, else epochs."""
    candidates = [s for s in facts.settings if s.key in ("epochs", "max_steps")]
    candidates.sort(key=lambda s: not s.smoke)  # smoke path first
    for key in ("max_steps", "epochs"):
        for setting in candidates:
            if setting.key != key:
                continue
            value = evaluate(facts, setting.value)
            if key == "max_steps" and isinstance(value.value, int | float) and value.value <= 0:
                continue
            return SmokeDial(key, setting, value)
    return None


def _resolved(facts: DriverFacts, key: str) -> object:
    # The smoke path first, then keywords and dict entries before named constants.
    settings = sorted(
        (s for s in facts.settings if s.key == key), key=lambda s: (not s.smoke, s.named)
    )
    for setting in settings:
        value = evaluate(facts, setting.value).value
        if value is not None:
            return value
    return None


def judge(facts: DriverFacts, gate: Gate, dial: SmokeDial, default_cap: int) -> Verdict:
    """Search every realized n in [1, cap] for one that breaks the gate's floor."""
    kind = FloorKind.CHECKPOINTS if gate.counts_checkpoints else FloorKind.STEPS
    if kind is FloorKind.CHECKPOINTS and not facts.uses_trainer:
        return Verdict(why_unknown="a hand-written loop's saves are not modelled")
    batch = _resolved(facts, "batch")
    if not isinstance(batch, int) or batch < 1:
        return Verdict(why_unknown="the batch size is not decided in this module")
    cap = _resolved(facts, "cap")
    cap = cap if isinstance(cap, int) and cap >= 1 else default_cap
    if gate.floor < 1:
        return Verdict(proven=True)
    try:
        return _search(facts, gate, dial, kind, batch, cap)
    except ValueError as err:  # pydantic refused a value (negative epochs, say)
        return Verdict(why_unknown=f"its settings are out of range ({_first_line(err)})")
    except UnmodelledVersion as err:
        return Verdict(why_unknown=str(err))


def _first_line(err: Exception) -> str:
    return str(err).splitlines()[-1].strip() if str(err) else err.__class__.__name__


def _search(
    facts: DriverFacts, gate: Gate, dial: SmokeDial, kind: FloorKind, batch: int, cap: int
) -> Verdict:
    geometry, save = _geometry(facts, batch), _save_policy(facts)
    request = DialRequest(floor=gate.floor, floor_kind=kind, cap=cap, geometry=geometry, save=save)
    number = dial.value.value
    assert isinstance(number, int | float)  # judged only when the dial is a constant
    schedule = (
        Schedule(max_steps=int(number))
        if dial.key == "max_steps"
        else Schedule(num_train_epochs=float(number))
    )
    failing, first = 0, None
    for rows, count in row_groups(request):
        result = simulate(Plan(rows=rows, geometry=geometry, schedule=schedule, save=save))
        if result.floor_value(kind) < gate.floor:
            failing += count  # every n of this group behaves alike
            first = first or (rows, result)
    if first is None:
        return Verdict(proven=True)
    rows, result = first
    text = shortfall(rows, schedule, result, kind, gate.floor).split(" with ")[0]
    extent = f"fails for {failing} of {cap} realized sizes in [1, {cap}]"
    return Verdict(counterexample=text, suggestion=f"{extent}; {_suggest(request, dial.key)}")


def _geometry(facts: DriverFacts, batch: int) -> Geometry:
    accum, world = _resolved(facts, "accum"), _resolved(facts, "world")
    drop_last = _resolved(facts, "drop_last")
    return Geometry(
        per_device_batch=batch,
        grad_accum=accum if isinstance(accum, int) and accum >= 1 else 1,
        world_size=world if isinstance(world, int) and world >= 1 else 1,
        drop_last=drop_last is True,
    )


def _save_policy(facts: DriverFacts) -> SavePolicy:
    strategy = _resolved(facts, "save_strategy")
    save_steps = _resolved(facts, "save_steps")
    limit = _resolved(facts, "save_total_limit")
    return SavePolicy(
        strategy=SaveStrategy(strategy)
        if strategy in ("steps", "epoch", "no")
        else SaveStrategy.STEPS,
        save_steps=save_steps if isinstance(save_steps, int | float) and save_steps > 0 else 500,
        save_total_limit=limit if isinstance(limit, int) and limit > 0 else None,
    )


def _suggest(request: DialRequest, key: str) -> str:
    solved = solve_dial(request)
    value = solved.epochs if key == "epochs" else solved.max_steps
    if value is None:
        reasons = [
            r.split(": ", 1)[-1]
            for r in (solved.reason or "").split("; ")
            if r.startswith(f"{key}:") or ":" not in r.split(" ")[0]
        ]
        return f"no {key} dial can hold it ({'; '.join(reasons) or solved.reason})"
    return f"guidelint smoke dial suggests {key}={value}"


def arithmetic_gates(facts: DriverFacts) -> list[Gate]:
    return [g for g in facts.gates if g.kind is CountKind.ARITH]
