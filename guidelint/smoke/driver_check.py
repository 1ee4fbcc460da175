"""Judging a driver's smoke dial against its gates (the logic behind GL301-GL304).

The dial, the geometry, the save policy and the floor are compiled to Terms
(driver_terms) and evaluated for every realized n in [1, cap] (the ends and the
breakpoints when the cap is huge), and for world sizes 1, 2, 4 and 8 when the
driver reads WORLD_SIZE, with the exact Trainer arithmetic. A failing n is named
with the part of the dial that is wrong, found by asking the arithmetic what
would have held: the cap instead of n, save_steps, accumulation, world size, or
rotation by save_total_limit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from guidelint.smoke.arithmetic import batches_per_epoch, simulate, updates_per_epoch
from guidelint.smoke.driver_facts import CountKind, DriverFacts, Gate, Setting
from guidelint.smoke.driver_terms import Env, Guarded, Term, Unfollowed, compile_term, const
from guidelint.smoke.driver_terms import values_used as terms_values_used
from guidelint.smoke.formula import dial_formula
from guidelint.smoke.guard import shortfall
from guidelint.smoke.model import (
    FloorKind,
    Geometry,
    Plan,
    PlanResult,
    SavePolicy,
    SaveStrategy,
    Schedule,
)
from guidelint.smoke.solver import DialRequest, row_groups, solve_dial
from guidelint.smoke.versions import UnmodelledVersion

EXHAUSTIVE_CAP = 4096  # up to this cap every n is evaluated; beyond, ends and breakpoints
END_ROWS = 1024
WORLDS = (1, 2, 4, 8)  # searched when the driver reads WORLD_SIZE
GEOMETRY_KEYS = ("batch", "accum", "world", "drop_last")
SAVE_KEYS = ("save_strategy", "save_steps", "save_total_limit")


@dataclass(frozen=True)
class SmokeDial:
    key: str  # "epochs" or "max_steps"
    setting: Setting
    term: Term | None  # None when it cannot be followed: see why
    why: Unfollowed | None = None
    epochs: Term | None = None  # the epochs dial behind a max_steps one that may be <= 0
    lightning: bool = False  # Lightning's Trainer: the epochs dial is spelled max_epochs

    @property
    def name(self) -> str:
        return "max_epochs" if self.lightning and self.key == "epochs" else self.key

    @property
    def constant(self) -> bool:
        return self.term is not None and self.term.constant

    @property
    def computed(self) -> bool:
        return self.term is not None and self.term.computed

    @property
    def derived(self) -> bool:
        """Computed from the realized rows (or the world size)."""
        return self.term is not None and not self.term.constant

    @property
    def line(self) -> int:
        """The driver's line for it (a value from a config file: where the driver reads it)."""
        if self.term is not None and self.term.line and not self.term.file:
            return self.term.line
        return self.setting.line

    @property
    def where(self) -> str:
        """`line 9`, or `configs/smoke.yaml:3` when a config file or a module decides it."""
        if self.term is not None and self.term.file:
            return self.term.where()
        return f"line {self.line}"

    def describe(self) -> str:
        if self.term is None:
            return f"{self.name}={self.why.reason if self.why else '?'}"
        if self.term.constant:
            try:
                number = self.term.value()
            except (TypeError, ArithmeticError):  # `10 ** 10 ** 10`: say it as written
                return f"{self.name}={self.term.text}"
            if isinstance(number, float) and number.is_integer():
                number = int(number)
            return f"{self.name}={number}"
        return f"{self.name}={self.term.text}"


@dataclass(frozen=True)
class Verdict:
    """What the arithmetic says about one gate: a counterexample, proof, or neither."""

    counterexample: str | None = None  # "realized n=2 rows -> 1 optimizer step -> ..."
    suggestion: str | None = None  # "fails for 16 of 30 ...; guidelint smoke dial suggests ..."
    proven: bool = False
    why_unknown: str | None = None  # the dial is not provable statically: why
    cause: str | None = None  # the part of the dial that is wrong
    rows: int | None = None  # the counterexample n
    world: int | None = None
    predicted: int | None = None  # what the gate counts at the counterexample
    guarded: bool = False  # require_floor decides it at run time
    values: str = ""  # every value the counterexample used, with its file and line


def smoke_dial(facts: DriverFacts) -> SmokeDial | None:
    """The dial on the smoke path: max_steps when it is set positive, else epochs."""
    epochs = _dial_of(facts, "epochs")
    for setting in _ordered(facts, "max_steps"):
        term, why = _follow(facts, setting.value)
        if term is not None and term.constant and _number(term.value()) is not None:
            if _number(term.value()) <= 0:  # type: ignore[operator]
                continue  # -1: the Trainer runs by epochs
        epochs_term = epochs.term if epochs else None
        return SmokeDial("max_steps", setting, term, why, epochs_term, facts.lightning)
    return epochs


def _dial_of(facts: DriverFacts, key: str) -> SmokeDial | None:
    for setting in _ordered(facts, key):
        term, why = _follow(facts, setting.value)
        return SmokeDial(key, setting, term, why, lightning=facts.lightning)
    return None


def _ordered(facts: DriverFacts, key: str) -> list[Setting]:
    """The smoke path first, then keywords and dict entries before named constants."""
    return sorted((s for s in facts.settings if s.key == key), key=lambda s: (not s.smoke, s.named))


def _follow(facts: DriverFacts, node: Any) -> tuple[Term | None, Unfollowed | None]:
    try:
        return compile_term(facts, node), None
    except Unfollowed as why:
        return None, why


def _setting(facts: DriverFacts, key: str) -> Term | None:
    """The term of the setting that decides `key`, None when the driver does not set it.

    The first in _ordered order that can be followed; Unfollowed when none can.
    """
    first_why: Unfollowed | None = None
    for setting in _ordered(facts, key):
        term, why = _follow(facts, setting.value)
        if term is not None:
            return term
        first_why = first_why or why
    if first_why is not None:
        raise first_why
    return None


def _number(value: object) -> int | float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    return None


@dataclass
class _Driver:
    """The driver's smoke run as terms over Env."""

    facts: DriverFacts
    dial: SmokeDial
    floor: Term
    kind: FloorKind
    terms: dict[str, Term | None] = field(default_factory=dict)
    cap: int = 1
    cap_term: Term | None = None
    models: dict[tuple, Any] = field(default_factory=dict)  # pydantic models by their values

    def _model(self, cls: type, **values: Any) -> Any:
        key = (cls, *values.items())
        if key not in self.models:
            self.models[key] = cls(**values)
        return self.models[key]

    @property
    def reads_world(self) -> bool:
        every = [self.dial.term, self.dial.epochs, self.floor, *self.terms.values()]
        return self.facts.reads_world or any(t is not None and t.world for t in every)

    def worlds(self) -> tuple[int, ...]:
        return WORLDS if self.reads_world else (1,)

    def get(self, key: str, env: Env, default: Any = None) -> Any:
        term = self.terms.get(key)
        return default if term is None else term.at(env)

    def geometry(self, env: Env) -> Geometry:
        world = env.world if self.reads_world else self.get("world", env, 1)
        return self._model(
            Geometry,
            per_device_batch=self.get("batch", env),
            grad_accum=self.get("accum", env, 1),
            world_size=world,
            drop_last=self.get("drop_last", env, False) is True,
            iterable=self.facts.iterable,
        )

    def save(self, env: Env) -> SavePolicy:
        strategy = self.get("save_strategy", env, "steps")
        limit = self.get("save_total_limit", env)
        return self._model(
            SavePolicy,
            strategy=SaveStrategy(strategy if strategy in ("steps", "epoch", "no") else "steps"),
            save_steps=self.get("save_steps", env, 500),
            save_total_limit=limit if isinstance(limit, int) and limit > 0 else None,
        )

    def schedule(self, env: Env) -> Schedule:
        assert self.dial.term is not None
        value = _number(self.dial.term.at(env))
        if value is None:
            raise Unfollowed(f"{self.dial.describe()} is not a number at n={env.rows}")
        if self.dial.key == "max_steps":
            if value > 0:
                return self._model(Schedule, max_steps=int(value))
            epochs = _number(self.dial.epochs.at(env)) if self.dial.epochs else 3.0
            return self._model(Schedule, num_train_epochs=3.0 if epochs is None else epochs)
        return self._model(Schedule, num_train_epochs=float(value))

    def floor_at(self, env: Env) -> int:
        value = _number(self.floor.at(env))
        if value is None:
            raise Unfollowed(f"the floor `{self.floor.text}` is not a number at n={env.rows}")
        return int(value)

    def rows(self, world: int) -> Iterator[tuple[int, int]]:
        """Every n in [1, cap], or the ends and the breakpoints of the terms when it is huge."""
        if not self.derived:
            env = Env(1, world)
            request = DialRequest(
                floor=1, cap=self.cap, geometry=self.geometry(env), save=self.save(env)
            )
            yield from row_groups(request)  # (n, how many n alike): n matters only via batches
            return
        if self.cap <= EXHAUSTIVE_CAP:
            yield from ((n, 1) for n in range(1, self.cap + 1))
            return
        yield from ((n, 1) for n in sorted(self._sampled_rows()))

    @property
    def derived(self) -> bool:
        """Some term depends on the realized rows: n is searched one by one."""
        return any(t.rows for t in self._all_terms())

    def _all_terms(self) -> list[Term]:
        every = [self.dial.term, self.dial.epochs, self.floor, *self.terms.values()]
        return [t for t in every if t is not None]

    def _sampled_rows(self) -> set[int]:
        rows = set(range(1, END_ROWS + 1)) | set(range(self.cap - END_ROWS + 1, self.cap + 1))
        steps = {n for t in self._all_terms() for n in t.numbers if n > 1}
        for world in self.worlds():
            geometry = self.geometry(Env(1, world))
            steps |= {geometry.per_device_batch * world, geometry.effective_batch}
        for unit in steps:
            for k in range(1, 65):
                rows |= {k * unit - 1, k * unit, k * unit + 1}
        return {n for n in rows if 1 <= n <= self.cap}


def judge_trainer(
    facts: DriverFacts, gate: Gate, dial: SmokeDial, kind: FloorKind, default_cap: int
) -> Verdict:
    """The HF Trainer's verdict (guidelint.smoke.judging picks the model)."""
    if kind is FloorKind.CHECKPOINTS and not facts.uses_trainer:
        return Verdict(why_unknown="a hand-written loop's saves are not modelled")
    driver = driver_of(facts, gate, dial, kind, default_cap)
    if driver is None:
        return Verdict(proven=True)
    return _search(driver)


def judged(judging: Callable[[], Verdict]) -> Verdict:
    """A verdict, or why there is none: a value not followed, one out of range."""
    try:
        return judging()
    except Guarded as why:
        return Verdict(proven=True, guarded=True, why_unknown=why.reason)
    except Unfollowed as why:
        where = f" (line {why.line})" if why.line else ""
        return Verdict(why_unknown=f"{why.reason}{where}")
    except ValueError as err:  # pydantic refused a value (negative epochs, say)
        return Verdict(why_unknown=f"its settings are out of range ({_first_line(err)})")
    except (TypeError, ArithmeticError) as err:
        return Verdict(why_unknown=f"its settings cannot be evaluated ({err})")
    except UnmodelledVersion as err:
        return Verdict(why_unknown=str(err))


def driver_of(
    facts: DriverFacts,
    gate: Gate,
    dial: SmokeDial,
    kind: FloorKind,
    default_cap: int,
    keys: tuple[str, ...] = (*GEOMETRY_KEYS, *SAVE_KEYS),
) -> _Driver | None:
    if dial.term is None:
        raise dial.why or Unfollowed(f"{dial.key} cannot be followed")
    if gate.floor is not None:
        line = facts.line_at(gate.bound) if gate.bound is not None else None
        floor = const(gate.floor, str(gate.floor), line or gate.line)
    else:
        assert gate.bound is not None
        bound = compile_term(facts, gate.bound)
        offset = gate.offset
        floor = Term(
            lambda env: bound.at(env) + offset,
            bound.text,
            rows=bound.rows,
            world=bound.world,
            notes=bound.notes,
            numbers=bound.numbers,
            line=bound.line,
            file=bound.file,
        )
    if floor.constant and (_number(floor.value()) or 0) < 1:
        return None
    terms = {key: _setting(facts, key) for key in keys}
    if terms["batch"] is None:
        raise Unfollowed("the batch size is not decided in this module")
    cap_term = _optional(facts, "cap")
    cap_value = cap_term.value() if cap_term is not None and cap_term.constant else None
    cap = cap_value if isinstance(cap_value, int) and cap_value >= 1 else default_cap
    return _Driver(facts, dial, floor, kind, terms, cap, cap_term=cap_term)


def _optional(facts: DriverFacts, key: str) -> Term | None:
    try:
        return _setting(facts, key)
    except Unfollowed:
        return None


@dataclass
class _Failure:
    env: Env
    plan: Plan
    result: PlanResult
    floor: int


def _search(driver: _Driver) -> Verdict:
    cache: dict[tuple, int] = {}
    failing: dict[int, int] = {}  # world -> how many n fail
    first: _Failure | None = None
    for world in driver.worlds():
        count = 0
        for rows, alike in driver.rows(world):
            env = Env(rows, world)
            inputs, floor = _plan(driver, env), driver.floor_at(env)
            if _counted(inputs, driver.kind, cache) < floor:
                count += alike
                if first is None or (rows, world) < (first.env.rows, first.env.world):
                    plan = inputs.plan()
                    first = _Failure(env, plan, simulate(plan), floor)
        failing[world] = count
    if first is None:
        return Verdict(proven=True)
    return _verdict(driver, first, failing)


@dataclass(frozen=True)
class _Inputs:
    """A Plan's parts before pydantic builds it (most n share a result: see _simulated)."""

    rows: int
    geometry: Geometry
    schedule: Schedule
    save: SavePolicy

    def plan(self) -> Plan:
        return Plan(rows=self.rows, geometry=self.geometry, schedule=self.schedule, save=self.save)


def _plan(driver: _Driver, env: Env) -> _Inputs:
    return _Inputs(env.rows, driver.geometry(env), driver.schedule(env), driver.save(env))


def _counted(inputs: _Inputs, kind: FloorKind, cache: dict[tuple, int]) -> int:
    """What the gate counts, once per distinct batches-per-epoch value (n matters only
    through it): simulate's, or counted_fast's for the long runs of a huge cap."""
    batches = batches_per_epoch(inputs.rows, inputs.geometry) if inputs.rows else -1
    key = (batches, inputs.geometry, inputs.schedule, inputs.save)
    if key not in cache:
        fast = counted_fast(inputs.rows, inputs.geometry, inputs.schedule, inputs.save, kind)
        cache[key] = fast if fast is not None else simulate(inputs.plan()).floor_value(kind)
    return cache[key]


FAST_ABOVE = 10_000  # optimizer steps beyond which listing every save is too slow


def counted_fast(
    rows: int, geometry: Geometry, schedule: Schedule, save: SavePolicy, kind: FloorKind,
    above: int = FAST_ABOVE,
) -> int | None:  # fmt: skip
    """simulate's floor value without listing saves, for sized runs longer than `above`
    steps and no stale or best checkpoints (the driver's case); None otherwise.

    ceil(S / interval) step saves, or one per epoch entered, of which rotation keeps the
    newest save_total_limit. tests/smoke/test_smoke_driver_terms.py checks it against simulate.
    """
    if geometry.iterable or rows <= 0:
        return None
    batches = batches_per_epoch(rows, geometry)
    if batches == 0:
        return None
    updates = updates_per_epoch(batches, geometry.grad_accum)
    if schedule.by_steps:
        total = schedule.max_steps
    else:
        total = math.ceil(schedule.num_train_epochs * updates)
    if total <= above:
        return None
    if kind is FloorKind.STEPS:
        return total
    if save.strategy is SaveStrategy.NO:
        return 0
    if save.strategy is SaveStrategy.EPOCH:
        saves = -(-total // updates)
    else:
        saves = -(-total // save.interval(total))
    limit = save.save_total_limit
    return min(saves, limit) if limit else saves


def _verdict(driver: _Driver, failure: _Failure, failing: dict[int, int]) -> Verdict:
    env, plan, result = failure.env, failure.plan, failure.result
    text = shortfall(env.rows, plan.schedule, result, driver.kind, failure.floor).split(" with ")[0]
    if driver.reads_world:
        head, rest = text.split(" -> ", 1)
        text = f"{head} at world size {env.world} -> {rest}"
    cause = _cause(driver, failure)
    extent = (
        f"fails for {failing[env.world]} of {driver.cap} realized sizes in [1, {driver.cap}]"
        if driver.cap <= EXHAUSTIVE_CAP or not driver.derived
        else f"fails for {failing[env.world]} of the n searched (the ends and breakpoints of "
        f"[1, {driver.cap}])"
    )
    if driver.reads_world:
        extent += f" at world size {env.world}"
    return Verdict(
        counterexample=text,
        suggestion=f"{extent}; {_suggest(driver, failure)}",
        cause=cause,
        rows=env.rows,
        world=env.world,
        predicted=result.floor_value(driver.kind),
        values=values_used(driver, env),
    )


VALUE_LABELS = {
    "batch": "batch",
    "accum": "gradient accumulation",
    "world": "world size",
    "drop_last": "drop_last",
    "save_strategy": "save_strategy",
    "save_steps": "save_steps",
    "save_total_limit": "save_total_limit",
}


def values_used(driver: _Driver, env: Env) -> str:
    """Each value the counterexample used, where it is written (`driver_terms.values_used`)."""
    labelled = [(driver.dial.key, driver.dial.term)]
    labelled += [(label, driver.terms.get(key)) for key, label in VALUE_LABELS.items()]
    labelled.append(("floor", driver.floor))
    if driver.cap_term is not None and driver.cap_term.constant:
        labelled.append(("cap", driver.cap_term))
    return terms_values_used(driver.facts.rel, labelled, env)


def _cause(driver: _Driver, failure: _Failure) -> str:
    """The part of the dial that is wrong: what the arithmetic says would have held."""
    plan, result, floor = failure.plan, failure.result, failure.floor
    term = driver.dial.term
    assert term is not None
    if not result.ok:
        return f"does not train at n={plan.rows} ({result.outcome.value})"
    save, geometry = plan.save, plan.geometry
    limit = save.save_total_limit
    if driver.kind is FloorKind.CHECKPOINTS and limit is not None:
        if len(result.saved_steps) >= floor > result.run_checkpoints:
            return (
                f"loses checkpoints to rotation by save_total_limit={limit} "
                f"({len(result.saved_steps)} saved, {result.run_checkpoints} kept"
                + (f"; no dial keeps more than {limit})" if limit < floor else ")")
            )

    def holds(**changes: Any) -> bool:
        changed = plan.model_copy(update=changes)
        return simulate(changed).floor_value(driver.kind) >= floor

    if term.cap and not term.rows and holds(rows=driver.cap):
        return f"is derived from the row cap ({driver.cap}), not the realized rows"
    strategy_steps = save.strategy is SaveStrategy.STEPS and save.save_steps > 1
    if driver.kind is FloorKind.CHECKPOINTS and strategy_steps and not term.reads("save_steps"):
        if holds(save=save.model_copy(update={"save_steps": 1})):
            return (
                f"ignores save_steps={int(save.save_steps)} ({_plural(result.steps, 'step')} "
                f"{'save' if result.steps > 1 else 'saves'} {len(result.saved_steps)})"
            )
    # Blamed only on a dial that reads no accumulation (or world) setting, nor writes the
    # effective batch as a literal (`2 if len(rows) < 16 else 1` has it, and is off by one).
    accum_seen = term.reads("accum") or geometry.effective_batch in term.numbers
    if (
        geometry.grad_accum > 1
        and not accum_seen
        and holds(geometry=geometry.model_copy(update={"grad_accum": 1}))
    ):
        return f"ignores gradient accumulation (gradient_accumulation_steps={geometry.grad_accum})"
    world_seen = term.world or term.reads("world")
    if (
        geometry.world_size > 1
        and not world_seen
        and holds(geometry=geometry.model_copy(update={"world_size": 1}))
    ):
        return f"ignores the world size ({geometry.world_size} processes)"
    if term.constant:
        return "is a constant"
    return f"is too small at n={plan.rows}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def dial_sources(dial: SmokeDial) -> str:
    """Where a dial's followed values come from: ` (from the argparse default of --epochs ...)`."""
    notes = dial.term.notes if dial.term else ()
    return f" (from {', '.join(notes)})" if notes else ""


def _suggest(driver: _Driver, failure: _Failure) -> str:
    plan, key = failure.plan, driver.dial.key
    request = DialRequest(
        floor=failure.floor, floor_kind=driver.kind, cap=driver.cap, geometry=plan.geometry,
        save=plan.save,
    )  # fmt: skip
    solved = solve_dial(request)
    value = solved.epochs if key == "epochs" else solved.max_steps
    if value is None:
        reasons = [
            r.split(": ", 1)[-1]
            for r in (solved.reason or "").split("; ")
            if r.startswith(f"{key}:") or ":" not in r.split(" ")[0]
        ]
        text = f"no {key} dial can hold it ({'; '.join(reasons) or solved.reason})"
        other = solved.max_steps if key == "epochs" else solved.epochs
        if other is not None:
            name = "max_steps" if key == "epochs" else "epochs"
            text += f"; guidelint smoke dial suggests {name}={other} instead"
        return text
    text = f"guidelint smoke dial suggests {key}={value}"
    formula = dial_formula(failure.floor, driver.kind, plan.geometry, plan.save, key)
    if formula and key == "epochs":
        text += f" for every n, or per realized n: {formula}"
    elif formula and formula != f"max_steps = {value}":
        text += f": {formula}"
    return text


def _first_line(err: Exception) -> str:
    if isinstance(err, ValidationError):
        return str(err).splitlines()[-1].strip()
    return str(err).splitlines()[-1].strip() if str(err) else err.__class__.__name__


def arithmetic_gates(facts: DriverFacts) -> list[Gate]:
    return [g for g in facts.gates if g.kind is CountKind.ARITH]


def from_cap(facts: DriverFacts, dial: SmokeDial) -> bool:
    """GL302's dials: a constant epochs formula over the row cap or an assumed size."""
    if dial.term is None or not dial.constant or not dial.computed:
        return False
    if dial.term.cap:
        return True
    return dial.key == "epochs" and bool(facts.gates)
