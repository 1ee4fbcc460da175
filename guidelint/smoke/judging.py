"""Which arithmetic judges a gate: Lightning's, an Accelerate loop's, or the HF Trainer's.

GL301, GL302 and GL304 ask `judge` once per gate, dial and cap (memoized on the
driver's facts); each model answers with a driver_check.Verdict.
"""

from __future__ import annotations

import re

from guidelint.smoke.accelerate_check import judge_accelerate
from guidelint.smoke.driver_check import SmokeDial, Verdict, driver_of, judge_trainer, judged
from guidelint.smoke.driver_facts import DriverFacts, Gate
from guidelint.smoke.lightning_check import LIGHTNING_KEYS, judge_lightning
from guidelint.smoke.model import FloorKind
from guidelint.smoke.unfollowed import Unfollowed


def judge(facts: DriverFacts, gate: Gate, dial: SmokeDial, default_cap: int) -> Verdict:
    """Search every realized n in [1, cap] (and world size) for one that breaks the floor.

    Once per gate, dial and cap: GL301, GL302 and GL304 ask the same question.
    """
    key = (id(gate), dial.key, dial.setting.line, default_cap)
    if key not in facts.verdicts:
        facts.verdicts[key] = _judge(facts, gate, dial, default_cap)
    verdict = facts.verdicts[key]
    assert isinstance(verdict, Verdict)
    return verdict


def _judge(facts: DriverFacts, gate: Gate, dial: SmokeDial, default_cap: int) -> Verdict:
    kind = FloorKind.CHECKPOINTS if gate.counts_checkpoints else FloorKind.STEPS
    if facts.lightning:
        return judged(lambda: _judge_lightning(facts, gate, dial, kind, default_cap))
    if facts.accelerate_saves and not facts.uses_trainer:
        return judged(lambda: judge_accelerate(facts, gate, kind, default_cap))
    return judged(lambda: judge_trainer(facts, gate, dial, kind, default_cap))


def _judge_lightning(
    facts: DriverFacts, gate: Gate, dial: SmokeDial, kind: FloorKind, default_cap: int
) -> Verdict:
    for reason, line, saves_only in facts.lightning_unmodelled:
        if kind is FloorKind.CHECKPOINTS or not saves_only:
            raise Unfollowed(reason, line)
    driver = driver_of(facts, gate, dial, kind, default_cap, LIGHTNING_KEYS)
    if driver is None:
        return Verdict(proven=True)
    return judge_lightning(driver, gate_text(facts, gate))


def gate_text(facts: DriverFacts, gate: Gate) -> str:
    """The gate's code and the values of the names it reads (`ckpts = list(d.glob(...))`)."""
    text = facts.code(gate.node)
    names = set(re.findall(r"[A-Za-z_]\w*", text))
    values = [facts.code(v) for name in sorted(names) for v in facts.constants.get(name, [])]
    return " ".join([text, *values])
