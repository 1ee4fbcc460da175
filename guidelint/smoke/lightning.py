"""Optimizer steps and checkpoint files of a PyTorch Lightning run, exact to Lightning 2.6.

Each function mirrors a piece of Lightning (2.6.6), named in its docstring:
`data_connector._parse_num_batches` (limit_train_batches),
`_TrainingEpochLoop._should_accumulate` (the last batch of an epoch always steps),
`Trainer.__init__` (max_epochs defaults), and `ModelCheckpoint` (`__init_triggers`,
`on_train_batch_end`, `on_train_epoch_end`, `_save_none_monitor_checkpoint`,
`_save_last_checkpoint`, `on_train_end`). No lightning import: pure arithmetic.
tests/smoke/test_smoke_lightning_grid.py runs the real Trainer over a grid and compares.

Modelled: one process, a sized DataLoader, automatic optimization, no validation
loop (checkpoints are saved at the end of the training epoch) and no `monitor`
(with a monitor, which checkpoints survive depends on the metric, not arithmetic).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

DEFAULT_MAX_EPOCHS = 1000  # Trainer: neither max_epochs nor max_steps given
LAST = "last.ckpt"


class LightningOutcome(str, enum.Enum):
    OK = "ok"
    NO_BATCHES = "no-batches"  # an empty train loader (drop_last, or a limit of 0): no step
    LIMIT_ERROR = "limit-error"  # a float limit_train_batches that leaves 0 batches: raises
    INVALID = "invalid"  # a setting Lightning refuses (save_top_k=3 without monitor, ...)


@dataclass(frozen=True)
class LightningPlan:
    rows: int
    batch_size: int
    drop_last: bool = False
    accumulate_grad_batches: int = 1
    limit_train_batches: int | float = 1.0
    max_epochs: int | None = None
    max_steps: int = -1
    every_n_train_steps: int | None = None
    every_n_epochs: int | None = None
    save_top_k: int = 1
    save_last: bool | None = None


@dataclass(frozen=True)
class LightningResult:
    outcome: LightningOutcome
    steps: int  # trainer.global_step at the end
    epochs: int  # epochs entered
    saved_steps: tuple[int, ...]  # the global step of every top-k save, in order
    checkpoint_files: int  # top-k checkpoint files left in dirpath
    last: bool  # last.ckpt left in dirpath
    reason: str = ""

    @property
    def files(self) -> int:
        """Every `*.ckpt` file left in dirpath, last.ckpt included."""
        return self.checkpoint_files + int(self.last)

    def counted(self, counts_last: bool = True) -> int:
        return self.files if counts_last else self.checkpoint_files


def train_batches(rows: int, batch_size: int, drop_last: bool, limit: int | float) -> int | None:
    """Batches an epoch trains on; None when a float limit leaves none (Lightning raises)."""
    length = rows // batch_size if drop_last else -(-rows // batch_size)
    if length == 0:
        return 0
    if isinstance(limit, bool):
        limit = int(limit)
    if isinstance(limit, int):
        return min(length, limit)
    batches = int(length * limit)
    if batches == 0 and limit > 0.0:
        return None
    return batches


def steps_per_epoch(batches: int, accumulate: int) -> int:
    """The last batch of an epoch steps, a full accumulation group or not."""
    return -(-batches // accumulate)


def simulate_lightning(plan: LightningPlan) -> LightningResult:
    refused = _refused(plan)
    if refused:
        return LightningResult(LightningOutcome.INVALID, 0, 0, (), 0, False, refused)
    batches = train_batches(plan.rows, plan.batch_size, plan.drop_last, plan.limit_train_batches)
    if batches is None:
        reason = f"limit_train_batches={plan.limit_train_batches} leaves 0 batches"
        return LightningResult(LightningOutcome.LIMIT_ERROR, 0, 0, (), 0, False, reason)
    save_last = bool(plan.save_last)
    if batches == 0:  # the fit loop is skipped, and no callback saves anything, last.ckpt neither
        return LightningResult(LightningOutcome.NO_BATCHES, 0, 0, (), 0, False)
    if plan.max_epochs == -1 and plan.max_steps == -1:
        reason = "max_epochs=-1 without max_steps never ends"
        return LightningResult(LightningOutcome.INVALID, 0, 0, (), 0, False, reason)
    per_epoch = steps_per_epoch(batches, plan.accumulate_grad_batches)
    total, epochs = _run_length(plan, per_epoch)
    saved = _saves(plan, per_epoch, total, epochs)
    top_k = plan.save_top_k
    kept = len(saved) if top_k == -1 else min(len(saved), top_k)
    return LightningResult(LightningOutcome.OK, total, epochs, tuple(saved), kept, save_last)


def _refused(plan: LightningPlan) -> str:
    if plan.save_top_k not in (-1, 0, 1):
        return f"save_top_k={plan.save_top_k} needs a monitor"
    if plan.every_n_train_steps is not None and plan.every_n_train_steps < 0:
        return "every_n_train_steps must be >= 0"
    if plan.every_n_epochs is not None and plan.every_n_epochs < 0:
        return "every_n_epochs must be >= 0"
    if (plan.every_n_train_steps or 0) >= 1 and (plan.every_n_epochs or 0) >= 1:
        return "every_n_train_steps and every_n_epochs are mutually exclusive"
    if plan.rows < 1 or plan.batch_size < 1 or plan.accumulate_grad_batches < 1:
        return "rows, batch_size and accumulate_grad_batches must be >= 1"
    return ""


def _run_length(plan: LightningPlan, per_epoch: int) -> tuple[int, int]:
    """(global steps, epochs entered): Trainer's max_epochs default is 1000 without max_steps,
    unbounded with it; training stops at whichever comes first."""
    max_epochs = plan.max_epochs
    if max_epochs is None:
        max_epochs = DEFAULT_MAX_EPOCHS if plan.max_steps == -1 else -1
    by_epochs = max_epochs * per_epoch if max_epochs >= 0 else None
    by_steps = plan.max_steps if plan.max_steps >= 0 else None
    limits = [s for s in (by_epochs, by_steps) if s is not None]
    total = min(limits) if limits else 0
    epochs = -(-total // per_epoch) if total else 0
    return total, epochs


def triggers(plan: LightningPlan) -> tuple[int, int]:
    """ModelCheckpoint.__init_triggers: (every_n_train_steps, every_n_epochs), 0 for off;
    neither given means once an epoch."""
    if plan.every_n_train_steps is None and plan.every_n_epochs is None:
        return 0, 1
    return plan.every_n_train_steps or 0, plan.every_n_epochs or 0


def _saves(plan: LightningPlan, per_epoch: int, total: int, epochs: int) -> list[int]:
    """Global steps of the top-k saves: every multiple of every_n_train_steps (after a batch),
    and the end of every every_n_epochs-th epoch (a cut-short last one too); never twice at
    one step, never at step 0."""
    if plan.save_top_k == 0:
        return []
    every_steps, every_epochs = triggers(plan)
    saved: set[int] = set()
    if every_steps >= 1:
        saved.update(range(every_steps, total + 1, every_steps))
    if every_epochs >= 1:
        for epoch in range(every_epochs - 1, epochs, every_epochs):
            end = min((epoch + 1) * per_epoch, total)
            if end > 0:
                saved.add(end)
    return sorted(saved)
