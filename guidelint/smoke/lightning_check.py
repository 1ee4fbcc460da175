"""Judging a Lightning driver's gate: `Trainer(max_epochs=..., limit_train_batches=...,
accumulate_grad_batches=...)` with `ModelCheckpoint(every_n_train_steps=..., save_top_k=...)`
and a DataLoader's batch_size, evaluated with guidelint.smoke.lightning for every realized n.

The verdict has the same shape as the Trainer's (driver_check.Verdict): the smallest
failing n, the part of the dial that is wrong, the dial that holds, and the values used.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from guidelint.smoke.driver_terms import Env, Unfollowed
from guidelint.smoke.driver_terms import values_used as terms_values_used
from guidelint.smoke.lightning import LightningOutcome, LightningPlan, simulate_lightning

if TYPE_CHECKING:
    from guidelint.smoke.driver_check import Verdict, _Driver

LIGHTNING_KEYS = (
    "batch", "drop_last", "accum", "limit_batches", "every_n_train_steps", "every_n_epochs",
    "save_top_k", "save_last",
)  # fmt: skip
VALUE_LABELS = {
    "batch": "batch_size",
    "drop_last": "drop_last",
    "accum": "accumulate_grad_batches",
    "limit_batches": "limit_train_batches",
    "every_n_train_steps": "every_n_train_steps",
    "every_n_epochs": "every_n_epochs",
    "save_top_k": "save_top_k",
    "save_last": "save_last",
}
MAX_DIAL = 10_000
GLOB = re.compile(r"""\.r?glob\(\s*[rbuf]*['"]([^'"]+)['"]""")


def counts_last(gate_text: str) -> bool:
    """Whether the gate's count includes last.ckpt: a glob it matches, or no glob at all."""
    patterns = GLOB.findall(gate_text)
    names = [p.replace("\\", "/").rsplit("/", 1)[-1] for p in patterns]  # f"{d}/*.ckpt"
    return not names or any(fnmatch.fnmatch("last.ckpt", name) for name in names)


def plan_at(driver: _Driver, env: Env, dial: tuple[str, int] | None = None) -> LightningPlan:
    """The Lightning run at realized n (and a dial to try in place of the driver's)."""
    key, value = dial if dial is not None else (driver.dial.key, _dial_value(driver, env))
    top_k = driver.get("save_top_k", env, 1)
    if any(r.startswith("monitor=") for r, _, _ in driver.facts.lightning_unmodelled):
        top_k = -1  # any top-k is valid with a monitor; only steps are judged then
    limit = driver.get("limit_batches", env, 1.0)
    return LightningPlan(
        rows=env.rows,
        batch_size=_whole(driver.get("batch", env), "batch_size"),
        drop_last=driver.get("drop_last", env, False) is True,
        accumulate_grad_batches=_whole(driver.get("accum", env, 1), "accumulate_grad_batches"),
        limit_train_batches=limit if isinstance(limit, int | float) else 1.0,
        max_epochs=value if key == "epochs" else _other_epochs(driver, env),
        max_steps=value if key == "max_steps" else -1,
        every_n_train_steps=driver.get("every_n_train_steps", env),
        every_n_epochs=driver.get("every_n_epochs", env),
        save_top_k=top_k if isinstance(top_k, int) else 1,
        save_last=driver.get("save_last", env),
    )


def _dial_value(driver: _Driver, env: Env) -> int:
    assert driver.dial.term is not None
    value = driver.dial.term.at(env)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Unfollowed(f"{driver.dial.describe()} is not a number at n={env.rows}")
    return int(value)


def _other_epochs(driver: _Driver, env: Env) -> int | None:
    """max_epochs beside a max_steps dial (None: Lightning's own default)."""
    epochs = driver.dial.epochs
    if epochs is None:
        return None
    value = epochs.at(env)
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise Unfollowed(f"{name}={value!r} is not a whole number of at least 1")
    return value


def counted(plan: LightningPlan, steps: bool, last: bool) -> int:
    result = simulate_lightning(plan)
    if result.outcome in (LightningOutcome.INVALID, LightningOutcome.LIMIT_ERROR):
        return -1  # Lightning refuses the run: no floor is met
    return result.steps if steps else result.counted(last)


def rows_searched(driver: _Driver) -> Iterator[int]:
    if driver.cap <= 4096:
        yield from range(1, driver.cap + 1)
        return
    yield from sorted(driver._sampled_rows())


def judge_lightning(driver: _Driver, gate_text: str) -> Verdict:
    from guidelint.smoke.driver_check import Verdict
    from guidelint.smoke.model import FloorKind

    steps = driver.kind is FloorKind.STEPS
    last = counts_last(gate_text)
    first: tuple[int, LightningPlan, int] | None = None
    failing = 0
    cache: dict[tuple, int] = {}
    for rows in rows_searched(driver):
        env = Env(rows)
        plan, floor = plan_at(driver, env), driver.floor_at(env)
        key = (_batches_key(plan), floor, plan.max_epochs, plan.max_steps, plan.save_top_k)
        if key not in cache:
            cache[key] = counted(plan, steps, last)
        if cache[key] < floor:
            failing += 1
            first = first or (rows, plan, floor)
    if first is None:
        return Verdict(proven=True)
    rows, plan, floor = first
    result = simulate_lightning(plan)
    unit = "optimizer step" if steps else "checkpoint file"
    text = f"realized n={_plural(rows, 'row')} -> {_plural(result.steps, 'optimizer step')}"
    if result.outcome is not LightningOutcome.OK:
        text += f" ({result.outcome.value}{': ' + result.reason if result.reason else ''})"
    if not steps:
        text += f" -> {_plural(result.counted(last), unit)}"
    text += f" < floor {floor}"
    suggestion = f"fails for {failing} of {driver.cap} realized sizes in [1, {driver.cap}]"
    suggestion += f"; {_suggest(driver, plan, result, floor, steps, last)}"
    return Verdict(
        counterexample=text,
        suggestion=suggestion,
        cause=_cause(driver, plan, result, floor, steps, last),
        rows=rows,
        predicted=result.counted(last) if not steps else result.steps,
        values=values_used(driver, Env(rows)),
    )


def _batches_key(plan: LightningPlan) -> tuple:
    from guidelint.smoke.lightning import train_batches

    batches = train_batches(plan.rows, plan.batch_size, plan.drop_last, plan.limit_train_batches)
    return (batches, plan.accumulate_grad_batches, plan.every_n_train_steps, plan.every_n_epochs,
            plan.save_last)  # fmt: skip


def _cause(
    driver: _Driver, plan: LightningPlan, result: Any, floor: int, steps: bool, last: bool
) -> str:
    from dataclasses import replace

    if result.outcome is not LightningOutcome.OK:
        return f"does not train at n={plan.rows} ({result.outcome.value})"
    if not steps and plan.save_top_k in (0, 1) and len(result.saved_steps) >= floor:
        return (
            f"keeps {result.checkpoint_files} checkpoint(s) with save_top_k={plan.save_top_k} "
            f"({len(result.saved_steps)} saved; save_top_k=-1 keeps them all)"
        )
    term = driver.dial.term
    assert term is not None
    if driver.dial.key == "max_steps" and 0 <= result.steps < plan.max_steps and plan.max_epochs:
        return f"is cut short by max_epochs={plan.max_epochs} ({_plural(result.steps, 'step')})"
    if (
        plan.accumulate_grad_batches > 1
        and not term.reads("accum")
        and counted(replace(plan, accumulate_grad_batches=1), steps, last) >= floor
    ):
        accum = plan.accumulate_grad_batches
        return f"ignores gradient accumulation (accumulate_grad_batches={accum})"
    if (
        plan.limit_train_batches != 1.0
        and counted(replace(plan, limit_train_batches=1.0), steps, last) >= floor
    ):
        return f"ignores limit_train_batches={plan.limit_train_batches}"
    if term.constant:
        return "is a constant"
    return f"is too small at n={plan.rows}"


def _suggest(
    driver: _Driver, plan: LightningPlan, result: Any, floor: int, steps: bool, last: bool
) -> str:
    """The smallest whole max_epochs (or max_steps) that holds for every n searched, or why
    none can."""
    key = driver.dial.key
    name = driver.dial.name
    if (
        result.outcome is not LightningOutcome.OK
        and result.outcome is not LightningOutcome.NO_BATCHES
    ):
        return f"no {name} dial can hold it: {result.reason}"
    most = plan.save_top_k + int(bool(plan.save_last) and last)
    if not steps and plan.save_top_k in (0, 1) and floor > most:
        return (
            f"no {name} dial can hold it: save_top_k={plan.save_top_k} keeps at most {most} "
            "file(s) the gate counts; save_top_k=-1 keeps every save"
        )
    envs = [Env(n) for n in rows_searched(driver)]
    for value in _candidates():
        held = True
        seen: set[tuple] = set()
        for env in envs:
            plan = plan_at(driver, env, (key, value))
            floor = driver.floor_at(env)
            marker = (_batches_key(plan), floor)
            if marker in seen:
                continue
            seen.add(marker)
            if counted(plan, steps, last) < floor:
                held = False
                break
        if held:
            return f"{name}={value} holds for every n"
    epochs = driver.dial.epochs
    if key == "max_steps" and epochs is not None and plan.max_epochs is not None:
        where = epochs.where(driver.facts.rel)
        return (
            f"no max_steps dial holds it: max_epochs={plan.max_epochs} ({where}) stops the run "
            "first (Lightning stops at whichever comes first)"
        )
    return f"no {name} dial up to {MAX_DIAL} holds it"


def _candidates() -> Iterator[int]:
    yield from range(1, 101)
    value = 128
    while value <= MAX_DIAL:
        yield value
        value *= 2


def values_used(driver: _Driver, env: Env) -> str:
    """Each value the counterexample used, where it is written (`driver_terms.values_used`)."""
    labelled = [(driver.dial.name, driver.dial.term)]
    labelled += [(label, driver.terms.get(key)) for key, label in VALUE_LABELS.items()]
    labelled.append(("floor", driver.floor))
    if driver.cap_term is not None and driver.cap_term.constant:
        labelled.append(("cap", driver.cap_term))
    return terms_values_used(driver.facts.rel, labelled, env)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")
