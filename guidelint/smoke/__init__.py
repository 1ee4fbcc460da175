"""Smoke-gate arithmetic exact to the Hugging Face Trainer (transformers 5.x), and to
PyTorch Lightning's Trainer and ModelCheckpoint (2.6: `simulate_lightning`).

Light on purpose (pydantic and the standard library only): drivers import it
before they import torch, and `guidelint check` may import it too.
"""

# The public names load on first use (PEP 562): `guidelint check` imports
# `guidelint.smoke.config` for the configuration and must not pay for the
# arithmetic, the solver and the version probe (importlib.metadata) with it.
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from guidelint.smoke.arithmetic import batches_per_epoch, simulate, updates_per_epoch
    from guidelint.smoke.disk import (
        assert_checkpoints,
        checkpoint_dirs,
        count_checkpoints,
        mark_run_start,
    )
    from guidelint.smoke.formula import (
        epochs_dial,
        max_steps_dial,
        rule_of_thumb,
        steps_per_epoch,
    )
    from guidelint.smoke.guard import Dial, SmokeFloorError, require_floor
    from guidelint.smoke.lightning import (
        LightningOutcome,
        LightningPlan,
        LightningResult,
        simulate_lightning,
    )
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

_LAZY = {
    "batches_per_epoch": "arithmetic",
    "simulate": "arithmetic",
    "updates_per_epoch": "arithmetic",
    "assert_checkpoints": "disk",
    "checkpoint_dirs": "disk",
    "count_checkpoints": "disk",
    "mark_run_start": "disk",
    "epochs_dial": "formula",
    "max_steps_dial": "formula",
    "rule_of_thumb": "formula",
    "steps_per_epoch": "formula",
    "Dial": "guard",
    "SmokeFloorError": "guard",
    "require_floor": "guard",
    "LightningOutcome": "lightning",
    "LightningPlan": "lightning",
    "LightningResult": "lightning",
    "simulate_lightning": "lightning",
    "FloorKind": "model",
    "Geometry": "model",
    "Plan": "model",
    "PlanOutcome": "model",
    "PlanResult": "model",
    "SavePolicy": "model",
    "SaveStrategy": "model",
    "Schedule": "model",
    "DialRequest": "solver",
    "DialResult": "solver",
    "solve_dial": "solver",
    "UnmodelledVersion": "versions",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def dial(*, realized_rows: int, **kwargs) -> Dial:
    """The smallest dial for the realized rows (require_floor without a planned dial)."""
    from guidelint.smoke.guard import require_floor

    return require_floor(realized_rows=realized_rows, **kwargs)


__all__ = [
    "Dial",
    "DialRequest",
    "DialResult",
    "FloorKind",
    "Geometry",
    "LightningOutcome",
    "LightningPlan",
    "LightningResult",
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
    "simulate_lightning",
    "solve_dial",
    "steps_per_epoch",
    "updates_per_epoch",
]
