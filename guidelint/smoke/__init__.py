"""Smoke-gate arithmetic exact to the Hugging Face Trainer (transformers 5.x).

Light on purpose (pydantic and the standard library only): drivers import it
before they import torch, and `guidelint check` may import it too.
"""

from guidelint.smoke.arithmetic import batches_per_epoch, simulate, updates_per_epoch
from guidelint.smoke.disk import (
    assert_checkpoints,
    checkpoint_dirs,
    count_checkpoints,
    mark_run_start,
)
from guidelint.smoke.formula import epochs_dial, max_steps_dial, rule_of_thumb, steps_per_epoch
from guidelint.smoke.guard import Dial, SmokeFloorError, require_floor
from guidelint.smoke.model import (
    FloorKind,
    Geometry,
    Plan,
    PlanOutcome,
    PlanResult,
    SavePolicy,
    SaveStrategy,
    Schedule,
)
from guidelint.smoke.solver import DialRequest, DialResult, solve_dial
from guidelint.smoke.versions import UnmodelledVersion


def dial(*, realized_rows: int, **kwargs) -> Dial:
    """The smallest dial for the realized rows (require_floor without a planned dial)."""
    return require_floor(realized_rows=realized_rows, **kwargs)


__all__ = [
    "Dial",
    "DialRequest",
    "DialResult",
    "FloorKind",
    "Geometry",
    "PlanOutcome",
    "Plan",
    "PlanResult",
    "SavePolicy",
    "SaveStrategy",
    "Schedule",
    "SmokeFloorError",
    "UnmodelledVersion",
    "assert_checkpoints",
    "batches_per_epoch",
    "checkpoint_dirs",
    "count_checkpoints",
    "dial",
    "epochs_dial",
    "mark_run_start",
    "max_steps_dial",
    "require_floor",
    "rule_of_thumb",
    "simulate",
    "solve_dial",
    "steps_per_epoch",
    "updates_per_epoch",
]
